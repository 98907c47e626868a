"""The table's history: every game kept, each player's record, and whether the dice were fair.

Everything here is derived from the records in the store (a game is its record): a game's
summary (summary.py, asking each game the questions the shelf, companion/games/, has every
game answer), the players' records (players.py) and the dice's goodness of fit
(dice_fairness.py) are plain data in, plain data out, standard library only. The history's
tables in the games file (companion/kept_games.py keeps each game's summary, in memory and
in the file, checked against its record on every read; companion/merged_names.py keeps the
players' merged names) and the page (web/history.py) are adapters around them.
"""
