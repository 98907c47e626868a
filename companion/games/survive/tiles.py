"""Usando a Informação de uma Peça de Terreno: the back of the tile just removed, and
the red tiles played from the hands.

Green backs are shown and applied at once: a shark, a whale or a boat comes from the
supply to the sea space the tile left (none left in the supply: nothing comes, S6); a
whirlpool empties that space and the spaces around it; the volcano ends the game (or,
in challenges #2 and #4, acts as a whirlpool). A red back goes to the hand unseen: the
companion counts it and never knows its kind (S15) until it is played: in step 1 of
the holder's turn (dolphin, wind, move a creature), or, with an X, in another
player's step 4 against the shark or whale just moved at them (S9).
"""

from .creatures import place, take
from .events import event
from .explorers import loss_options
from .names import (BOAT_SEATS, GREEN, MOVES_CREATURE, PLACES, RED, RED_BACK, REPELS, START_OF_TURN)
from .profile import back_total
from .state import in_play

RULE = "Usando a Informação de uma Peça de Terreno"


def unplayed(state: dict, kind: str) -> bool:
    """Some tile of this red kind may still be in a hand (S15)."""
    return state["played"][kind] < back_total(state["profile"], kind)


def target_present(state: dict, kind: str, seat: int) -> bool:
    """A start-of-turn tile moves something that must be on the board (S13)."""
    if kind in MOVES_CREATURE:
        return state["creatures"][MOVES_CREATURE[kind]]["board"] > 0
    if kind == "wind":          # "um Barco que você controla": one of your explorers aboard
        return state["boats"]["board"] > 0 and in_play(state, seat) > 0
    return in_play(state, seat) > 0            # dolphin: one of your swimmers


def needs_explorer(kind: str) -> bool:
    """Tiles that act for the holder's own explorers: the dolphin and the winds (S13), the
    repellents (S9)."""
    return kind in ("dolphin", "wind") or kind in REPELS


def play_kinds(state: dict) -> list[str]:
    seat = state["turn"]["seat"]
    if not state["hands"][seat]:
        return []
    return [k for k in START_OF_TURN if unplayed(state, k) and target_present(state, k, seat)]


def play_options(state: dict) -> list[dict]:
    return [{"type": "done"}] + [{"type": "play", "tile": k} for k in play_kinds(state)] + loss_options(state)


def resolve_play(state: dict, inp: dict, events: list) -> None:
    seat, kind = state["turn"]["seat"], inp["tile"]
    state["hands"][seat] -= 1
    state["played"][kind] += 1
    rule = "S8" if kind == "dolphin" else RULE
    events.append(event("tile.played", rule, variant=kind, seat=seat, tile=kind, hand=state["hands"][seat]))


def defend_options(state: dict) -> list[dict]:
    face = state["turn"]["face"]
    kind = next((k for k, c in REPELS.items() if c == face), None)
    if kind is None or not unplayed(state, kind):
        return []
    # "ocupado por algum de seus nadadores" / "um Barco com um de seus exploradores" (S9)
    return [{"type": "defend", "seat": s, "tile": kind} for s, hand in enumerate(state["hands"])
            if hand and s != state["turn"]["seat"] and in_play(state, s)]


def resolve_defend(state: dict, inp: dict, events: list) -> None:
    seat, kind = inp["seat"], inp["tile"]
    state["hands"][seat] -= 1
    state["played"][kind] += 1
    take(state, REPELS[kind])
    events.append(event("tile.defended", "S9", variant=kind, seat=seat, tile=kind, creature=REPELS[kind],
                        hand=state["hands"][seat]))


def red_left(state: dict, terrain: str) -> int:
    """Red tiles still under the tiles of this terrain left on the island."""
    backs = state["profile"]["backs"][terrain]
    return sum(backs[k] for k in RED) - state["revealed"][terrain][RED_BACK]


def reveal_options(state: dict) -> list[dict]:
    terrain = state["turn"]["removed"]
    backs, seen = state["profile"]["backs"][terrain], state["revealed"][terrain]
    out = [{"type": "reveal", "back": k} for k in GREEN if seen[k] < backs[k]]
    if red_left(state, terrain) > 0:
        out.append({"type": "reveal", "back": RED_BACK})
    return out


def resolve_reveal(state: dict, inp: dict, events: list) -> str:
    """Apply the back; returns what comes next: "roll", "whirlpool" or "end"."""
    seat, terrain, back = state["turn"]["seat"], state["turn"]["removed"], inp["back"]
    state["revealed"][terrain][back] += 1
    nxt = "roll"
    if back == RED_BACK:
        state["hands"][seat] += 1
        events.append(event("reveal.red", RULE, seat=seat, hand=state["hands"][seat]))
    elif back in PLACES or back == "boat":
        placed = place_boat(state) if back == "boat" else place(state, PLACES[back])
        if placed:
            state["turn"]["placed"] = back
            events.append(event("reveal.placed", RULE, variant=back, seat=seat, back=back, capacity=BOAT_SEATS))
        else:
            events.append(event("reveal.supply_empty", "S6", back=back))
    elif back == "whirlpool":
        events.append(event("reveal.whirlpool", "Redemoinho", seat=seat))
        nxt = "whirlpool"
    else:   # the volcano
        state["volcano"] = True
        as_whirlpool = next((c for c in (2, 4) if c in state["challenges"]), None)
        if as_whirlpool:
            events.append(event("reveal.volcano", f"Desafio {as_whirlpool}", variant="whirlpool", seat=seat))
            nxt = "whirlpool"
        else:
            events.append(event("reveal.volcano", "Fim do Jogo", seat=seat))
            nxt = "end"
    if terrain == "mountain" and back != "volcano" and not state["volcano"]:
        events.append(event("odds.volcano", "Fim do Jogo", mountains=state["terrain"]["mountain"]))
    return nxt


def place_boat(state: dict) -> bool:
    boats = state["boats"]
    if not boats["supply"]:
        return False
    boats["supply"] -= 1
    boats["board"] += 1
    return True
