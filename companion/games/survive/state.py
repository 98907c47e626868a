"""The table as one plain value (JSON as is). Its keys:

    players       names, seat order (clockwise)
    colours       [[colour, ...] per seat]: one colour each; two each with 2 players, or one if chosen (S1)
    first         seat of the first player
    challenges    the Desafios chosen at setup (sorted list of 1-4)
    profile       the game profile (S3-S5)
    terrain       {terrain: tiles left on the island}
    revealed      {terrain: {back: n}} backs seen of the tiles removed ("red": red tiles, kind hidden)
    played        {red kind: n} red tiles played from the hands
    hands         [red tiles in hand per seat] (a count: the tablet is public)
    creatures     {creature: {"board": n, "supply": n, "gone": n}}
    boats         {"board": n, "supply": n, "gone": n}
    explorers     {colour: {"in_play": n, "saved": n, "lost": n}}
    step          setup | tile | moves | remove | reveal | whirlpool | roll | creature | values | over
    setup_step    1..8 while step is setup
    turn          {"seat", "number", "saved", "removed" (terrain), "face" (creature rolled),
                   "placed" (the creature a revealed tile placed this turn)}
    turns_taken   [turns finished per seat]
    volcano       True once the volcano was revealed
    ended_by      why the game ended (volcano, last_explorer, last_tile), None before
    to_value      colours whose saved explorers' values are still to enter
    values        {colour: [values entered]}
    shown         the numbers tapped so far for the colour asked (one tap per explorer)
    over, result  the game has ended; the final tally
"""

import marshal

from .errors import invalid
from .names import (BACKS, BOAT_TOKENS, BOATS_PER_COLOUR, CHALLENGES, CREATURE_TOKENS, CREATURES,
                    EXPLORERS_PER_COLOUR, ON_BOARD_AT_SETUP, RED_BACK, TERRAIN_TILES, TERRAINS)
from .profile import validate_profile

GAME = "survive"


def copy_state(state: dict) -> dict:
    # marshal round-trips plain data several times faster than copy.deepcopy.
    return marshal.loads(marshal.dumps(state))


def colours_per_seat(players: int) -> int:
    """Partida de Dois Jogadores: each player "poderá" play two colours; the default (S1)."""
    return 2 if players == 2 else 1


def colours_allowed(players: int) -> tuple[int, ...]:
    """How many colours a player may play: one or two with two players (S1), else one."""
    return (1, 2) if players == 2 else (1,)


def two_colours(state: dict) -> bool:
    """Each player plays two colours (a two-player game that chose so, S1)."""
    return any(len(cs) > 1 for cs in state["colours"])


SETUP_KEYS = {"game", "players", "first_player", "profile", "colours", "colours_each", "challenges"}


def new_state(setup: dict) -> dict:
    """The table before the setup walk.

    setup: {"players": [2-4 names], "first_player": seat, "profile": {...},
            "colours": [[colour, ...] per seat] (default: the profile's, in order),
            "colours_each": 1 or 2 (two players only; default 2, or as many as "colours" gives),
            "challenges": [1-4, ...] (default: none)}
    A "game": "survive" key is accepted (the record's first line names its game).
    """
    if not isinstance(setup, dict):
        raise invalid("the setup must be an object", key="setup_object")
    unknown = sorted(set(setup) - SETUP_KEYS)
    if unknown:     # a record's first line keeps what it is given: nothing that is not the setup
        raise invalid(f"setup: {', '.join(map(str, unknown))} is not part of a Survive setup", key="setup_unknown",
                      fields=", ".join(map(str, unknown)))
    if setup.get("game", GAME) != GAME:
        raise invalid(f"this setup is for {setup.get('game')!r}, not Survive", key="setup_game",
                      game=str(setup.get("game")))
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise invalid("setup: 'players' must be a list of names", key="setup_names")
    if not 2 <= len(players) <= 4:
        raise invalid(f"setup: Survive is for 2 to 4 players, not {len(players)}", "Preparação do Jogo", "setup_players",
                      n=len(players))
    names = [p.strip() for p in players]
    if len({n.casefold() for n in names}) != len(names):
        raise invalid("setup: player names must be different from each other", key="setup_distinct")
    first = setup.get("first_player", 0)
    if type(first) is not int or not 0 <= first < len(names):
        raise invalid(f"setup: 'first_player' must be a seat from 0 to {len(names) - 1}", key="setup_first",
                      last=len(names) - 1)
    profile = validate_profile(setup.get("profile"))
    colours = _colours(setup.get("colours"), len(names), profile, setup.get("colours_each"))
    challenges = _challenges(setup.get("challenges", []))
    playing = [c for seat in colours for c in seat]
    boats_out = BOATS_PER_COLOUR * len(playing)
    return {
        "players": names,
        "colours": colours,
        "first": first,
        "challenges": challenges,
        "profile": profile,
        "terrain": dict(TERRAIN_TILES),
        "revealed": {t: {k: 0 for k in BACKS + (RED_BACK,)} for t in TERRAINS},
        "played": {k: 0 for k in BACKS},
        "hands": [0] * len(names),
        "creatures": {c: {"board": ON_BOARD_AT_SETUP[c], "supply": CREATURE_TOKENS[c] - ON_BOARD_AT_SETUP[c],
                          "gone": 0} for c in CREATURES},
        "boats": {"board": boats_out, "supply": BOAT_TOKENS - boats_out, "gone": 0},
        "explorers": {c: {"in_play": EXPLORERS_PER_COLOUR, "saved": 0, "lost": 0} for c in playing},
        "step": "setup",
        "setup_step": 1,
        "turn": {"seat": first, "number": 0, "saved": 0, "removed": None, "face": None, "placed": None},
        "turns_taken": [0] * len(names),
        "volcano": False,
        "ended_by": None,
        "to_value": [],
        "values": {},
        "shown": [],
        "over": False,
        "result": None,
    }


def _colours(given: object, players: int, profile: dict, each: object = None) -> list[list[str]]:
    allowed = colours_allowed(players)
    if each is None:        # as many as the colours given say, else the default
        sizes = {len(s) for s in given} if isinstance(given, list) and all(isinstance(s, list) for s in given) else set()
        each = sizes.pop() if len(sizes) == 1 and next(iter(sizes)) in allowed else colours_per_seat(players)
    if type(each) is not int or each not in allowed:
        raise invalid(f"setup: 'colours_each' must be {' or '.join(map(str, allowed))} with {players} players",
                      "S1", "setup_colours_each", players=players)
    if given is None:
        box = profile["colours"]
        return [box[i * each:(i + 1) * each] for i in range(players)]
    flat = [c for seat in given for c in seat] if isinstance(given, list) and all(
        isinstance(s, list) for s in given) else None
    if (flat is None or len(given) != players or any(len(s) != each for s in given)
            or len(set(flat)) != len(flat) or any(c not in profile["colours"] for c in flat)):
        raise invalid(f"setup: 'colours' must give each player {each} different colour(s) of the box "
                      f"({', '.join(profile['colours'])})", "Preparação do Jogo", "setup_colours", each=each)
    return [list(s) for s in given]


def _challenges(given: object) -> list[int]:
    if not isinstance(given, list) or any(c not in CHALLENGES or type(c) is not int for c in given) \
            or len(set(given)) != len(given):
        raise invalid("setup: 'challenges' must list challenge numbers from 1 to 4", "Desafios",
                      "setup_challenges")
    if 2 in given and 4 in given:
        raise invalid("setup: challenges #2 and #4 each end the game their own way: choose one", "S10",
                      "setup_challenges_conflict")
    return sorted(given)


def seat_of(state: dict, colour: str) -> int:
    return next(s for s, cs in enumerate(state["colours"]) if colour in cs)


def playing_colours(state: dict) -> list[str]:
    return [c for seat in state["colours"] for c in seat]


def in_play(state: dict, seat: int) -> int:
    """Explorers of `seat`'s colours still on the board."""
    return sum(state["explorers"][c]["in_play"] for c in state["colours"][seat])


def explorers_on_board(state: dict) -> int:
    return sum(e["in_play"] for e in state["explorers"].values())
