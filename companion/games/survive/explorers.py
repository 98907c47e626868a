"""Explorers, per colour: saved, lost and still in play (10 each). The table taps one
saved or lost as it happens on the board; a boat that leaves the game is tapped too.

Saving costs a move (Alcançando Terra Firme: landing "custa um movimento"), so it
happens in step 2, by the player whose turn it is, at most three times a turn (S8).
Losses happen at any step: a swimmer eaten, a boat sunk, a whirlpool.
"""

from .events import event
from .names import MOVES_PER_TURN
from .state import seat_of

# The rule that explains a loss, by the step it happens in.
LOSS_RULE = {"tile": "Visão da Partida", "moves": "Movendo Barcos e Exploradores",
             "remove": "Remova uma peça de Terreno", "reveal": "Usando a Informação de uma Peça de Terreno",
             "whirlpool": "Redemoinho", "creature": "Usando o Resultado do Dado"}


def shark_moving(state: dict) -> bool:
    """Step 4 after a shark roll: only the shark moves, and it never takes a boat ("Se este
    espaço de mar contiver um Barco, o Tubarão não o afetará")."""
    return state["step"] == "creature" and state["turn"]["face"] == "shark"


def loss_options(state: dict) -> list[dict]:
    """Taps that take pieces off the board: an explorer lost, a boat gone (S14; no boat
    while a shark moves)."""
    out = [{"type": "lost", "colour": c} for c, e in state["explorers"].items() if e["in_play"]]
    if state["boats"]["board"] and not shark_moving(state):
        out.append({"type": "boat_lost"})
    return out


def save_options(state: dict) -> list[dict]:
    if state["turn"]["saved"] >= MOVES_PER_TURN:
        return []
    seat = state["turn"]["seat"]
    return [{"type": "saved", "colour": c} for c in state["colours"][seat] if state["explorers"][c]["in_play"]]


def resolve_lost(state: dict, inp: dict, events: list) -> None:
    colour = inp["colour"]
    e = state["explorers"][colour]
    e["in_play"] -= 1
    e["lost"] += 1
    events.append(event("explorer.lost", LOSS_RULE.get(state["step"]), colour=colour,
                        seat=seat_of(state, colour), in_play=e["in_play"], lost=e["lost"]))


def resolve_saved(state: dict, inp: dict, events: list) -> None:
    colour = inp["colour"]
    e = state["explorers"][colour]
    e["in_play"] -= 1
    e["saved"] += 1
    state["turn"]["saved"] += 1
    events.append(event("explorer.saved", "S8", colour=colour, seat=seat_of(state, colour),
                        saved=e["saved"], in_play=e["in_play"], moves_left=MOVES_PER_TURN - state["turn"]["saved"]))


def resolve_boat_lost(state: dict, inp: dict, events: list) -> None:
    boats = state["boats"]
    boats["board"] -= 1
    boats["gone"] += 1
    events.append(event("boat.lost", LOSS_RULE.get(state["step"]), on_board=boats["board"]))
