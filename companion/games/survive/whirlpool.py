"""Redemoinho: every swimmer, creature, boat and explorer in that sea space and the
spaces around it leaves the game. The table taps each piece it took, then done (S16)."""

from .creatures import take
from .events import event
from .explorers import loss_options
from .names import CREATURES


def options(state: dict) -> list[dict]:
    taken = [{"type": "taken", "creature": c} for c in CREATURES if state["creatures"][c]["board"]]
    return [{"type": "done"}] + taken + loss_options(state)


def resolve_taken(state: dict, inp: dict, events: list) -> None:
    take(state, inp["creature"])
    events.append(event("whirlpool.took", "Redemoinho", creature=inp["creature"],
                        on_board=state["creatures"][inp["creature"]]["board"]))
