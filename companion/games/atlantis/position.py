"""Positions: a table in the middle of a game, said in the game's own words, checked.

A record may start from a `position` instead of a `setup` (docs/record-format.md): a
table that sits down to a game in progress, or a test that sets up a situation. The
game goes on at the start of a player's turn (buy, move or declare no move).

    {"players": ["Ana", "Bia"],
     "profile": {...},                    # optional: the shipped profile when absent
     "turn": "Bia",                       # whose turn it is: a name or a seat (0, 1, ...)
     "first_player": 0,                   # optional: who began (for the record only)
     "path": [53 spaces, from Atlantis]:  # "water", or the tile on top, "blue 5" or
                                          #   {"colour": "blue", "value": 5}; a stack that
                                          #   still has its lower tile adds "under": true
                                          #   (unseen) or "under": "grey 3" (known)
     "citizens": [[0, 12, "mainland"], [3, 4, "atlantis"]],   # 3 per player: "atlantis"
                                          #   (or 0), a space 1-53, "mainland" (or 54)
     "bridges": [null, 27],               # per player: null (not built), a water space of
                                          #   the bridge, or "built" (merged into another's)
     "hands": [5, 7],                     # cards in each hand
     "held": [["blue 5"], []],            # tiles each player holds, by face
     "discard": 10,                       # optional (0): cards in the discards
     "draw_pile": 62}                     # optional: the rest of the cards when absent

Every refusal says what cannot be: a space higher than the path ever had there (A1),
a citizen on water or two on one space (A4), a bridge on a tile or two in one run of
water (A7), more cards than the game has (A2) or tiles than the path had (A1), a player who already brought
three citizens home (End)... A held tile gets the id `h<player>.<n>` ("h1.2": the first
player's second tile) for buying and paying; a path tile keeps the usual id ("12.1" on
top of a full stack, "12.2" the lower one).
"""

from .events import event
from .path import ATLANTIS, HEIGHTS, MAINLAND, WATER_AT, tile_id
from .profile import cards_total, default_profile, validate_profile
from .refusals import malformed
from .setup import CITIZENS

NAMED_PLACES = {"atlantis": ATLANTIS, "mainland": MAINLAND}
MERGED = "built"


def _bad(message: str, rule: str | None = None) -> Exception:
    return malformed(f"position: {message}", rule, "position", reason=message)


def _face(value: object, profile: dict, where: str) -> dict:
    """A tile in the game's words: "blue 5" or {"colour": "blue", "value": 5}."""
    if isinstance(value, str):
        parts = value.split()
        if len(parts) == 2 and parts[1].isdigit():
            value = {"colour": parts[0], "value": int(parts[1])}
    if not isinstance(value, dict) or set(value) - {"colour", "value"}:
        raise _bad(f"{where} must be a tile, like \"blue 5\" or {{\"colour\": \"blue\", \"value\": 5}}, "
                   f"not {value!r}")
    colour, number = value.get("colour"), value.get("value")
    if colour not in profile["colours"]:
        raise _bad(f"{where}: {colour!r} is not a colour of this game ({', '.join(profile['colours'])})", "A2")
    if type(number) is not int or number not in profile["values"]:
        raise _bad(f"{where}: a tile's value is one of {profile['values']}, not {number!r}", "A2")
    return {"colour": colour, "value": number}


def _seat(value: object, names: list[str], what: str) -> int:
    if type(value) is int and 0 <= value < len(names):
        return value
    if isinstance(value, str) and value in names:
        return names.index(value)
    raise _bad(f"'{what}' must be a player's name or seat (0 to {len(names) - 1}), not {value!r}")


def _per_seat(position: dict, key: str, n: int) -> list:
    value = position.get(key)
    if not isinstance(value, list) or len(value) != n:
        raise _bad(f"'{key}' needs one entry per player ({n})")
    return value


def _count(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        raise _bad(f"{what} must be a whole number, 0 or more, not {value!r}")
    return value


def _place(value: object, what: str) -> int:
    if isinstance(value, str) and value in NAMED_PLACES:
        return NAMED_PLACES[value]
    if type(value) is int and ATLANTIS <= value <= MAINLAND:
        return value
    raise _bad(f"{what} must be \"atlantis\", a space from 1 to {MAINLAND - 1} or \"mainland\", not {value!r}")


def _path(position: dict, profile: dict) -> tuple[list, dict]:
    path = position.get("path")
    if not isinstance(path, list) or len(path) != len(HEIGHTS):
        raise _bad(f"'path' lists the {len(HEIGHTS)} spaces from Atlantis to the mainland, each \"water\" "
                   "or the tile on top", "A1")
    spaces, tiles = [], {}
    for p, entry in enumerate(path, start=1):
        where = f"space {p}"
        if entry is None or entry == "water":
            spaces.append({"tiles": [], "bridge": None})
            continue
        if HEIGHTS[p - 1] == 0:
            raise _bad(f"space {p} is the water tile laid with the path: it holds no tile", "A1")
        under = entry.pop("under", False) if isinstance(entry, dict) else False
        top = _face(entry, profile, where)
        if under is False or under is None:
            # One tile left: a single space's tile, or a stack's lower one (its top was taken).
            tid = tile_id(p, HEIGHTS[p - 1])
            tiles[tid] = top
            spaces.append({"tiles": [tid], "bridge": None})
            continue
        if HEIGHTS[p - 1] < 2:
            raise _bad(f"space {p} was laid with a single tile: nothing lies under it", "A1")
        tiles[tile_id(p, 1)] = top
        if under is True:
            spaces.append({"tiles": [tile_id(p, 1), None], "bridge": None})
        else:
            tiles[tile_id(p, 2)] = _face(under, profile, f"{where} (under)")
            spaces.append({"tiles": [tile_id(p, 1), tile_id(p, 2)], "bridge": None})
    return spaces, tiles


def _water_run(spaces: list, p: int) -> tuple[int, int]:
    first = last = p
    while first - 1 > ATLANTIS and not spaces[first - 2]["tiles"]:
        first -= 1
    while last + 1 < MAINLAND and not spaces[last]["tiles"]:
        last += 1
    return first, last


def _bridges(position: dict, spaces: list, names: list[str]) -> list[bool]:
    given = position.get("bridges", [None] * len(names))
    if not isinstance(given, list) or len(given) != len(names):
        raise _bad(f"'bridges' needs one entry per player ({len(names)}): null, a water space or \"built\"")
    built = []
    for seat, where in enumerate(given):
        if where is None:
            built.append(False)
            continue
        built.append(True)
        if where == MERGED:
            continue
        if type(where) is not int or not ATLANTIS < where < MAINLAND or spaces[where - 1]["tiles"]:
            raise _bad(f"{names[seat]}'s bridge must be on a water space, not on {where!r}", "A7")
        first, last = _water_run(spaces, where)
        for p in range(first, last + 1):
            if spaces[p - 1]["bridge"] is not None and spaces[p - 1]["bridge"] != seat:
                raise _bad(f"spaces {first}-{last} are one run of water: it holds one bridge, not "
                           f"{names[spaces[p - 1]['bridge']]}'s and {names[seat]}'s (a bridge covers the whole "
                           "run)", "A7")
            spaces[p - 1]["bridge"] = seat
    if any(w == MERGED for w in given) and all(w in (None, MERGED) for w in given):
        raise _bad("a bridge \"built\" into another's needs that other bridge on the path", "A7")
    return built


def validate_position(position: object) -> dict:
    """A complete state from a position in the game's words, or RuleError("invalid") saying why."""
    if not isinstance(position, dict):
        raise _bad("a position must be an object")
    if position.get("game", "atlantis") != "atlantis":
        raise _bad(f"this is an Atlantis position, not {position.get('game')!r}")
    position = {k: (dict(v) if isinstance(v, dict) else v) for k, v in position.items()}
    position["path"] = [dict(e) if isinstance(e, dict) else e for e in position.get("path") or []] \
        if isinstance(position.get("path"), list) else position.get("path")
    players = position.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise _bad("'players' must be a list of names", "Setup")
    names = [p.strip() for p in players]
    if not 2 <= len(names) <= 4:
        raise _bad(f"Atlantis is for 2 to 4 players, not {len(names)}", "Setup")
    if len({n.casefold() for n in names}) != len(names):
        raise _bad("player names must be different", "Setup")
    n = len(names)
    profile = validate_profile(position["profile"]) if position.get("profile") is not None else default_profile()
    first = _seat(position.get("first_player", 0), names, "first_player")
    if "turn" not in position:
        raise _bad("'turn' says whose turn it is (a name or a seat)")
    seat = _seat(position["turn"], names, "turn")

    spaces, tiles = _path(position, profile)

    citizens = []
    standing: dict[int, str] = {}
    for s, where in enumerate(_per_seat(position, "citizens", n)):
        if not isinstance(where, list) or len(where) != CITIZENS:
            raise _bad(f"{names[s]} has {CITIZENS} citizens: list where each one is", "Setup")
        places = [_place(w, f"{names[s]}'s citizen {c + 1}") for c, w in enumerate(where)]
        for c, p in enumerate(places):
            if not ATLANTIS < p < MAINLAND:
                continue
            if not spaces[p - 1]["tiles"]:
                raise _bad(f"{names[s]}'s citizen {c + 1} stands on water at space {p}: a citizen stands on a "
                           "tile", "Move")
            if p in standing:
                raise _bad(f"space {p} holds {standing[p]} and {names[s]}'s citizen {c + 1}: one citizen per "
                           "space", "A4")
            standing[p] = f"{names[s]}'s citizen {c + 1}"
        if all(p == MAINLAND for p in places):
            raise _bad(f"{names[s]} has brought all three citizens to the mainland: that ended the game", "End")
        citizens.append(places)

    built = _bridges(position, spaces, names)

    hands = [_count(h, f"{names[s]}'s hand") for s, h in enumerate(_per_seat(position, "hands", n))]
    total = cards_total(profile)
    discard = _count(position.get("discard", 0), "'discard'")
    draw_pile = position.get("draw_pile")
    if draw_pile is None:
        draw_pile = total - sum(hands) - discard
        if draw_pile < 0:
            raise _bad(f"the hands and discards hold {sum(hands) + discard} cards; the game has {total}", "A2")
    elif _count(draw_pile, "'draw_pile'") + sum(hands) + discard != total:
        raise _bad(f"hands {sum(hands)} + draw pile {draw_pile} + discards {discard} make "
                   f"{sum(hands) + draw_pile + discard} cards; the game has {total}", "A2")

    held = []
    for s, kept in enumerate(_per_seat(position, "held", n)):
        if not isinstance(kept, list):
            raise _bad(f"{names[s]}'s tiles must be a list of tiles, like [\"blue 5\"]")
        ids = []
        for i, face in enumerate(kept, start=1):
            tid = f"h{s + 1}.{i}"
            tiles[tid] = _face(face, profile, f"{names[s]}'s tile {i}")
            ids.append(tid)
        held.append(ids)

    laid = sum(HEIGHTS)
    in_play = sum(len(sp["tiles"]) for sp in spaces) + sum(map(len, held))
    if in_play > laid:
        raise _bad(f"{in_play} tiles on the path and in hand; the path had {laid}", "A1")
    # As when the table lays the path (A2), a tile's colour and value are checked, not how many
    # of each the box holds: the profile's counts are not confirmed.
    return {
        "game": "atlantis",
        "players": names,
        "first": first,
        "profile": profile,
        "path_mode": "position",
        "spaces": spaces,
        "tiles": tiles,
        "citizens": citizens,
        "held": held,
        "bridge_built": built,
        "cards": [{"hand": h, "dealt": h, "drawn": 0, "bought": 0, "played": 0, "paid": 0} for h in hands],
        "draw_pile": draw_pile,
        "discard": discard,
        "spent": [],
        "sold": [],
        "seat": seat,
        "step": {"t": "turn"},
        "settlement": [],
        "confirmed": [None] * n,
        "over": False,
        "result": None,
        "from_position": True,
    }


def to_position(state: dict) -> dict:
    """The position of a game at the start of a turn, in the game's words (validate_position
    reads it back; held tiles get new ids)."""
    if state["step"]["t"] != "turn":
        raise _bad("a position is taken at the start of a turn")
    face = lambda tid: dict(state["tiles"][tid])   # noqa: E731
    path = []
    for sp in state["spaces"]:
        if not sp["tiles"]:
            path.append("water")
            continue
        entry = face(sp["tiles"][0])
        if len(sp["tiles"]) > 1:
            entry["under"] = face(sp["tiles"][1]) if sp["tiles"][1] is not None else True
        path.append(entry)
    bridges = []
    for seat, built in enumerate(state["bridge_built"]):
        on = next((p for p, sp in enumerate(state["spaces"], start=1) if sp["bridge"] == seat), None)
        bridges.append(None if not built else on if on is not None else MERGED)
    return {"game": "atlantis", "players": list(state["players"]), "profile": state["profile"],
            "first_player": state["first"], "turn": state["seat"], "path": path,
            "citizens": [list(c) for c in state["citizens"]], "bridges": bridges,
            "hands": [c["hand"] for c in state["cards"]], "held": [[face(t) for t in h] for h in state["held"]],
            "discard": state["discard"], "draw_pile": state["draw_pile"]}


def position_events(state: dict) -> list:
    return [event("atlantis.position", "Setup", players=len(state["players"]),
                  hands=[c["hand"] for c in state["cards"]]),
            event("atlantis.turn", None, seat=state["seat"])]
