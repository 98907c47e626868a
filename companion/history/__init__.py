"""The table's history: every game kept, each player's record, and whether the dice were fair.

Everything here is derived from the records in the store (a game is its record): a game's
summary (summary.py, through each game of the shelf, shelf.py), the players' records
(players.py) and the dice's goodness of fit (dice_fairness.py) are plain data in, plain
data out, standard library only. The store (companion/kept_games.py keeps each game's
summary until its record changes) and the page (web/history.py) are adapters around them.
"""
