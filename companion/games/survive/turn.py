"""Visão da Partida: whose turn it is and which step, in order.

1 play a tile from the hand (optional, once; not on a player's first turn),
2 up to three moves, 3 remove a land tile, 4 roll the creature die and move the
creature; then the next player clockwise. A step with nothing to do is passed
with its reason: no tile to play, no explorer left to move (Fim do Jogo), no
land tile left (S12).
"""

from . import end, tiles
from .events import event
from .names import MOVES_PER_TURN
from .state import in_play, two_colours


def enter(state: dict, step: str, events: list) -> None:
    """Go to `step` of the current turn, passing the steps that have nothing to do."""
    seat = state["turn"]["seat"]
    if step == "tile":
        if state["turns_taken"][seat] == 0:
            events.append(event("tile.first_turn", "Visão da Partida", seat=seat))
            return enter(state, "moves", events)
        if not tiles.play_kinds(state):
            if state["hands"][seat]:
                events.append(event("tile.none_playable", "S13", seat=seat, hand=state["hands"][seat]))
            return enter(state, "moves", events)
    elif step == "moves":
        state["turn"]["saved"] = 0
        if not in_play(state, seat):
            events.append(event("moves.skipped", "Fim do Jogo", seat=seat))
            return enter(state, "remove", events)
    elif step == "remove":
        if not sum(state["terrain"].values()):
            events.append(event("remove.none_left", "S12", seat=seat))
            return enter(state, "roll", events)
    state["step"] = step


def _rule(state: dict) -> str:
    """Two players with two colours each: one turn each, both colours in it (S1)."""
    return "S1" if two_colours(state) else "Visão da Partida"


def begin_first_turn(state: dict, events: list) -> None:
    events.append(event("turn.begin", _rule(state), seat=state["turn"]["seat"], number=1,
                        moves=MOVES_PER_TURN))
    enter(state, "tile", events)


def end_turn(state: dict, events: list) -> None:
    turn = state["turn"]
    state["turns_taken"][turn["seat"]] += 1
    seat = (turn["seat"] + 1) % len(state["players"])
    state["turn"] = {"seat": seat, "number": turn["number"] + 1, "saved": 0, "removed": None, "face": None,
                     "placed": None}
    events.append(event("turn.begin", _rule(state), seat=seat, number=turn["number"] + 2,
                        moves=MOVES_PER_TURN))
    enter(state, "tile", events)


def after_reveal(state: dict, nxt: str, events: list) -> None:
    if nxt == "end":
        end.finish(state, "volcano", events)
    else:
        enter(state, nxt, events)
