"""Role o dado e mova uma criatura: the creature die (a chance input: the table taps the
face it shows) and the creature moved on the board.

Serpent: 1 sea space; a boat with passengers is removed with them, and every swimmer
there. Shark: 1 or 2 spaces, stops at swimmers and takes them all; boats are safe.
Whale: 1 to 3 spaces, stops at a boat with passengers and sinks it (they swim; a shark
there takes them); swimmers and empty boats are safe. With none of the rolled kind on
the board, nothing happens. Creatures do not affect each other.
"""

from .events import event
from .names import CREATURE_REACH, CREATURES

RULE = "Usando o Resultado do Dado"


def roll_options(state: dict) -> list[dict]:
    return [{"type": "creature_roll", "face": c} for c in CREATURES]


def resolve_roll(state: dict, inp: dict, events: list) -> bool:
    """True when a creature of that kind is on the board (the table moves it now)."""
    face = inp["face"]
    on_board = state["creatures"][face]["board"]
    state["turn"]["face"] = face
    if not on_board:
        events.append(event("creature.nothing", RULE, face=face))
        return False
    low, high = CREATURE_REACH[face]
    events.append(event("creature.rolled", RULE, variant=face, face=face, on_board=on_board, low=low, high=high))
    return True


def take(state: dict, creature: str) -> None:
    """A creature leaves the game (a whirlpool, a defensive tile)."""
    pieces = state["creatures"][creature]
    pieces["board"] -= 1
    pieces["gone"] += 1


def place(state: dict, creature: str) -> bool:
    """A creature comes from the supply to the board; False when the supply is empty."""
    pieces = state["creatures"][creature]
    if not pieces["supply"]:
        return False
    pieces["supply"] -= 1
    pieces["board"] += 1
    return True
