"""Fim do Jogo, and the challenges' other ends.

- The volcano: the eruption destroys the rest of the island and every explorer not yet
  on a safe isle; the game ends (Fim do Jogo).
- Challenge #2 (Até o Fim): the game ends when the last explorer leaves the board; the
  volcano acts as a whirlpool. With no land tile left, step 3 is skipped (S12).
- Challenge #4 (Atlântida submersa): the game ends as the last land tile leaves the
  island, before its back is looked at; the volcano acts as a whirlpool (S11).
Explorers still on the board at the end were not saved: they count as lost.
"""

from . import scoring
from .events import event
from .state import explorers_on_board, playing_colours, seat_of

RULE = {"volcano": "Fim do Jogo", "last_explorer": "Desafio 2", "last_tile": "S11"}


def last_explorer_gone(state: dict) -> bool:
    return 2 in state["challenges"] and explorers_on_board(state) == 0


def last_tile_gone(state: dict) -> bool:
    return 4 in state["challenges"] and sum(state["terrain"].values()) == 0


def finish(state: dict, why: str, events: list) -> None:
    """The game is over: stranded explorers are lost; the values are asked (or tallied)."""
    state["ended_by"] = why
    events.append(event("end.game", RULE[why], variant=why))
    for colour in playing_colours(state):
        e = state["explorers"][colour]
        if e["in_play"]:
            events.append(event("end.stranded", RULE[why], colour=colour, seat=seat_of(state, colour),
                                n=e["in_play"]))
            e["lost"] += e["in_play"]
            e["in_play"] = 0
    if 3 in state["challenges"]:
        scoring.tally(state, events)
        return
    state["to_value"] = [c for c in playing_colours(state) if state["explorers"][c]["saved"]]
    state["step"] = "values"
    if not state["to_value"]:
        scoring.tally(state, events)
