"""The things of Survive: Escape from Atlantis!, in the game's own words, and the numbers
the rulebook prints (Conteúdo, Preparação do Jogo, Visão da Partida).

What the rulebook's text does not give (explorer values, which back lies under which
terrain, the colours) lives in the game profile (profile.py, rulings S3-S5).
"""

TERRAINS = ("beach", "forest", "mountain")          # sinking order: beaches first, mountains last
TERRAIN_TILES = {"beach": 16, "forest": 16, "mountain": 8}

CREATURES = ("serpent", "shark", "whale")          # the creature die's three faces
CREATURE_TOKENS = {"serpent": 5, "shark": 6, "whale": 5}
ON_BOARD_AT_SETUP = {"serpent": 5, "shark": 0, "whale": 0}   # serpents on their icons; the rest aside
# How far each creature may move when rolled (Usando o Resultado do Dado).
CREATURE_REACH = {"serpent": (1, 1), "shark": (1, 2), "whale": (1, 3)}

BOAT_TOKENS = 12
BOATS_PER_COLOUR = 2
BOAT_SEATS = 3                                      # explorers a boat carries, any colours
EXPLORERS_PER_COLOUR = 10
MOVES_PER_TURN = 3
HEX_NEIGHBOURS = 6                                  # a space of the board touches six others

# Land tile backs. Green border: used at once. Red border: to the hand, played in step 1.
# Red border with an X: to the hand, played in another player's turn (defensive).
GREEN = ("shark", "whale", "boat", "whirlpool", "volcano")
START_OF_TURN = ("dolphin", "wind", "move_serpent", "move_shark", "move_whale")
DEFENSIVE = ("repel_shark", "repel_whale")
RED = START_OF_TURN + DEFENSIVE
BACKS = GREEN + RED
RED_BACK = "red"          # what the table taps for a red tile: its kind stays hidden in the hand

MOVES_CREATURE = {"move_serpent": "serpent", "move_shark": "shark", "move_whale": "whale"}
REPELS = {"repel_shark": "shark", "repel_whale": "whale"}
PLACES = {"shark": "shark", "whale": "whale"}       # green backs that bring a creature from the supply

CHALLENGES = (1, 2, 3, 4)  # Desafios: 1 Superpopulação, 2 Até o Fim, 3 Todos somos iguais, 4 Atlântida submersa

# Colour words the catalogs know; the profile says which four the box holds (S5).
COLOUR_WORDS = ("red", "blue", "green", "yellow", "black", "white", "orange", "purple", "brown", "grey")

SETUP_STEPS = 8           # Preparação do Jogo, steps 1 to 8
