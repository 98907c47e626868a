"""Inputs: each kind declared once, here (like a chess move's notation on its class).

An input is a JSON object with a "type"; docs/record-format.md lists them.
Extra keys "source" (camera, corrected, hand, panel, auto, tablet) and "note" are kept in
the record and ignored by the rules.

Each `InputKind` says everything about its kind: its fields (each with its
domain, which also says how it is parsed, written and put in words), whether
it is chance (a physical roll, R1), the rule that asks for it, its English
words, why one is refused, which game events stand for its step when the
step was skipped, and how the page lays its options out (icons, groups).
The engine, the record, the page and the catalogs ask it.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Callable

from ..errors import RuleError, illegal, invalid
from .names import AREAS, MARKET, RESOURCES, TILES, area_of_face

META = ("source", "note")
REQUIRED = object()

# A field's domain: what its values are (and so how they are parsed and put in words).
DOMAINS = {
    "face": "a die face from 1 to 6",
    "faces": "the list of faces read",
    "area": ", ".join(AREAS),
    "resource": ", ".join(RESOURCES),
    "tile": ", ".join(TILES),
    "seat": "a seat number",
    "recipient": "self, neutral",
    "pair": "two resources, or null when done",
    "gift": "{resource: how many} given back at a Donation (an even number in all)",
    "flag": "true",
}
OMIT = object()    # a field that is left out when not given (an input shape of its own)


@dataclass(frozen=True)
class Field:
    name: str
    domain: str
    default: object = REQUIRED

    def parse(self, value: object, kind: str) -> object:
        d, what = self.domain, f"'{self.name}'" if self.name in ("for", "from", "to") else self.name
        if d == "face":
            return _face(value, "the roll" if kind == "roll" else what)
        if d == "faces":
            if not isinstance(value, list) or not value:
                raise invalid(f"a {kind} needs '{self.name}': {DOMAINS[d]}")
            return [_face(f, "each die") for f in value]
        if d in ("area", "resource", "tile"):
            return _one_of(value, {"area": AREAS, "resource": RESOURCES, "tile": TILES}[d], what)
        if d == "recipient":
            return _one_of(value, ("self", "neutral"), what)
        if d == "seat":
            if type(value) is not int or value < 0:
                raise invalid(f"seat must be a seat number, not {value!r}")
            return value
        if d == "pair":
            if value is None:
                return None
            if not isinstance(value, list) or len(value) != 2:
                raise invalid("a donation 'pair' must be two resources, or null when done")
            return sorted((_one_of(r, RESOURCES, "each donated resource") for r in value), key=RESOURCES.index)
        raise ValueError(f"unknown domain {d!r}")

    def write(self, value: object) -> list[str]:
        """The field in notation: its tokens."""
        if self.domain == "faces":
            return [str(f) for f in value]
        if self.domain == "pair":
            return ["none"] if value is None else list(value)
        return [str(value)]

    def read(self, tokens: list[str], kind: str) -> object:
        """The field's value from notation tokens (consumed from the front)."""
        if self.domain == "faces":
            faces = [_token_int(t) for t in tokens]
            tokens.clear()
            return self.parse(faces, kind)
        if self.domain == "pair":
            first = tokens.pop(0)
            return None if first == "none" else self.parse([first, tokens.pop(0) if tokens else ""], kind)
        token = tokens.pop(0)
        return self.parse(_token_int(token) if self.domain in ("face", "seat") else token, kind)


@dataclass(frozen=True)
class InputKind:
    name: str
    fields: tuple
    words: str                          # English: what the companion asks for ("a die to take")
    rule: str | None = None             # the rule that asks for it
    chance: bool = False                # a physical roll (R1): read by the camera or typed, never invented
    refuse: Callable | None = None      # (state, task, inp, legal) -> RuleError: why not allowed now
    skipped_by: tuple = ()              # events saying this step was skipped (no line expected then)
    icons: tuple = ()                   # the page's icons: (icon, field name or literal text)
    group: Callable | None = None       # option -> the group the page puts it in

    @property
    def field_names(self) -> tuple:
        return tuple(f.name for f in self.fields)

    def parse(self, inp: dict) -> dict:
        """A clean copy with only this kind's fields and the meta keys, or RuleError("invalid")."""
        out: dict = {"type": self.name}
        for f in self.fields:
            if f.name not in inp and f.default is OMIT:
                continue
            if f.name not in inp and f.default is REQUIRED:
                raise invalid(f"a {self.name} input needs '{f.name}'")
            out[f.name] = f.parse(inp.get(f.name, f.default), self.name)
        for key in META:
            if isinstance(inp.get(key), str):
                out[key] = inp[key]
        return out

    def notation(self, inp: dict) -> str:
        """Short text: the type, then the fields in order, a trailing default left out.

        'pick library', 'pick inn neutral', 'swap gem library book', 'donate none'."""
        tokens = [self.name]
        fields = [f for f in self.fields if f.default is not OMIT or f.name in inp]
        while fields and fields[-1].default is not REQUIRED and inp.get(fields[-1].name) == fields[-1].default:
            fields.pop()
        for f in fields:
            tokens += f.write(inp[f.name])
        return " ".join(tokens)

    def is_skipped_by(self, event: dict) -> bool:
        key = event["key"]
        return key in self.skipped_by or (key == "effect.skipped" and event["params"].get("kind") in
                                          (self.name, "same_kind" if self.name == "swap" else None))


def _face(value: object, what: str) -> int:
    if type(value) is not int or not 1 <= value <= 6:
        raise invalid(f"{what} must be a die face from 1 to 6, not {value!r}")
    return value


def _one_of(value: object, allowed: tuple, what: str) -> str:
    if value not in allowed:
        raise invalid(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def _token_int(token: str) -> object:
    return int(token) if token.isdecimal() else token


# --- why a well-formed input is not allowed now (the English text is declared in REFUSALS) ---

def refusal(key: str, rule: str | None = None, **params) -> RuleError:
    """A refusal from its key: the English message filled with the game's ids."""
    return illegal(plain(REFUSALS[key], params), rule, key, **params)


def _refuse_pick(state, task, inp, legal):
    area = inp["area"]
    if not any(area_of_face(f, state["depleted"]) == area for f in state["dice"]):
        return refusal("no_die_at", "Visit the Areas", area=area)
    if not state["neutral"] and inp["for"] == "neutral":
        return refusal("neutral_only_two", "Two players")
    if inp["for"] == "neutral":
        return refusal("neutral_given", "Two players")
    return refusal("neutral_due", "Two players")


def _refuse_resource(state, task, inp, legal):
    return refusal("no_resource_at", "Visit the Areas", resource=inp["resource"], area=task["area"])


def _refuse_tile_taker(state, task, inp, legal):
    return refusal("tile_taker_tied", "Empty District")


def _refuse_reveal(state, task, inp, legal):
    return refusal("reveal_not_left", "Empty District", tile=inp["tile"],
                   tiles=list(state["districts"][task["district"]]["below"]))


def _refuse_submarine(state, task, inp, legal):
    if inp["area"] == state["submarine"]:
        return refusal("submarine_same", "Engineering Works")
    return refusal("submarine_depleted", "R13")


def _refuse_donate(state, task, inp, legal):
    return refusal("donate_held", "Donation")


def _refuse_change_die(state, task, inp, legal):
    if inp["from"] == inp["to"]:
        return refusal("inn_same", "Inn")
    return refusal("inn_no_die", "Inn", face=inp["from"])


def _refuse_choice(rule: str) -> Callable:
    def refuse(state, task, inp, legal):
        shown = [{k: v for k, v in o.items() if k != "type"} for o in legal[:6]]
        if not legal:
            return refusal("none_possible", rule, what=inp["type"])
        return refusal("not_possible", rule, what=inp["type"], options=shown, more=len(legal) > 6)
    return refuse


class DonateKind(InputKind):
    """A Donation's input, in three shapes:

    - {"pair": [r, r]} or {"pair": null}: the player asked gives one pair, or is done (the
      first shape, kept: older records replay the same);
    - {"seat": s, "give": {r: n, ...}}: player `s` (any player still in this Donation) gives
      these back at once, a VP per pair: one tap per kind of resource, a count beside each;
    - {"all": true}: nobody (more) donates: the Donation is over for every player left."""

    def parse(self, inp: dict) -> dict:
        if "all" in inp:
            if inp["all"] is not True or any(k in inp for k in ("pair", "give", "seat")):
                raise invalid("a donation with 'all' ends the Donation: {\"type\": \"donate\", \"all\": true}")
            return self._meta(inp, {"type": self.name, "all": True})
        if "give" in inp:
            if "pair" in inp:
                raise invalid("a donation gives a 'pair' or a 'give', not both")
            seat = inp.get("seat")
            if type(seat) is not int or seat < 0:
                raise invalid("a donation's 'give' needs the 'seat' of the player who gives")
            give = inp["give"]
            if not isinstance(give, dict) or not give:
                raise invalid("'give' must be {resource: how many}, such as {\"gem\": 2}")
            clean = {}
            for r in RESOURCES:                  # in the game's order: one way to write a gift
                n = give.get(r)
                if r in give and (type(n) is not int or n < 1):
                    raise invalid(f"each count given must be a whole number from 1, not {n!r}")
                if n:
                    clean[r] = n
            unknown = [k for k in give if k not in RESOURCES]
            if unknown:
                _one_of(unknown[0], RESOURCES, "each donated resource")
            if sum(clean.values()) % 2:
                raise invalid("a donation gives resources back in pairs: an even number in all")
            return self._meta(inp, {"type": self.name, "seat": seat, "give": clean})
        if "seat" in inp:
            raise invalid("a donation's 'seat' goes with 'give'")
        return super().parse(inp)

    @staticmethod
    def _meta(inp: dict, out: dict) -> dict:
        for key in META:
            if isinstance(inp.get(key), str):
                out[key] = inp[key]
        return out

    def notation(self, inp: dict) -> str:
        if inp.get("all"):
            return "donate all"
        if "give" in inp:
            return " ".join(["donate", str(inp["seat"])] + [f"{r} {n}" for r, n in inp["give"].items()])
        return super().notation(inp)

    def read_notation(self, tokens: list[str]) -> dict | None:
        """The new shapes from notation ('donate all', 'donate 1 gem 2'), else None."""
        if tokens == ["all"]:
            return {"type": self.name, "all": True}
        if tokens and tokens[0].isdecimal():
            rest = tokens[1:]
            if len(rest) % 2 or not rest:
                raise invalid(f"'donate {' '.join(tokens)}': a resource and its count, each")
            return self.parse({"type": self.name, "seat": int(tokens[0]),
                               "give": {rest[i]: _token_int(rest[i + 1]) for i in range(0, len(rest), 2)}})
        return None


def _donate_group(o: dict) -> str:
    if o.get("all"):
        return "all"
    if "give" in o:
        return f"give/{o['seat']}"
    return "none" if o["pair"] is None else "pair"


def _declare(*kinds: InputKind) -> dict:
    return {k.name: k for k in kinds}


KINDS = _declare(
    InputKind("gate_roll", (Field("dice", "faces"),), "the gate roll", "Open the Gates", chance=True),
    InputKind("pick", (Field("area", "area"), Field("for", "recipient", "self")), "a die to take",
              "Visit the Areas", refuse=_refuse_pick, icons=(("die", "area"),), group=lambda o: o["for"]),
    InputKind("resource", (Field("resource", "resource"),), "a resource to take", "Visit the Areas",
              refuse=_refuse_resource, skipped_by=("visit.nothing_to_take",), icons=(("res", "resource"),)),
    InputKind("roll", (Field("value", "face"),), "a die roll", "Areas' effects", chance=True,
              icons=(("face", "value"),)),
    InputKind("swap", (Field("give", "resource"), Field("district", "area"), Field("take", "resource")),
              "a swap", "Jeweller", refuse=_refuse_choice("Jeweller"),
              icons=(("res", "give"), ("text", "⇄"), ("res", "take")), group=lambda o: o["district"]),
    InputKind("move", (Field("resource", "resource"), Field("to", "area")), "a resource to move",
              "Areas' effects", refuse=_refuse_choice("Areas' effects"),
              icons=(("res", "resource"), ("text", "→")), group=lambda o: o["resource"]),
    InputKind("take_from", (Field("area", "area"), Field("resource", "resource")),
              "a resource to take from another District", "Library", refuse=_refuse_choice("Library"),
              icons=(("res", "resource"),)),
    InputKind("submarine", (Field("area", "area"),), "where the Submarine goes", "Engineering Works",
              refuse=_refuse_submarine, icons=(("sym", "sub"), ("text", "→"), ("die", "area"))),
    InputKind("change_die", (Field("from", "face"), Field("to", "face")), "a die to change", "Inn",
              refuse=_refuse_change_die, icons=(("face", "from"), ("text", "→"), ("face", "to")),
              group=lambda o: o["from"]),
    InputKind("tile_taker", (Field("seat", "seat"),), "who takes the tile", "Empty District",
              refuse=_refuse_tile_taker),
    InputKind("reveal", (Field("tile", "tile"),), "the revealed tile", "Empty District",
              refuse=_refuse_reveal, skipped_by=("empty.reveal", "empty.depleted"), icons=(("tile", "tile"),)),
    DonateKind("donate", (Field("pair", "pair"), Field("seat", "seat", OMIT), Field("give", "gift", OMIT),
                          Field("all", "flag", OMIT)),
               "a donation", "Donation", refuse=_refuse_donate,
               skipped_by=("donation.cannot",), icons=(("res", "pair.0"), ("text", "+"), ("res", "pair.1")),
               group=_donate_group),
)

def skipped_step(error, last_events: list[dict]) -> dict | None:
    """The event of the last step that stood for a line of the refused kind (nothing left to
    take, no donation possible, one tile left...), when the refusal is of a line not needed."""
    kind = KINDS.get(error.params.get("given")) if error.key == "wrong_kind" else None
    if kind is None:
        return None
    return next((ev for ev in last_events if kind.is_skipped_by(ev)), None)


class _Fields(Mapping):
    """type -> its field names, read from the declarations (the record format's table)."""

    def __getitem__(self, name: str) -> tuple:
        return KINDS[name].field_names

    def __iter__(self):
        return iter(KINDS)

    def __len__(self) -> int:
        return len(KINDS)


FIELDS = _Fields()

# The English text of every refusal of an input (the catalogs translate the same keys;
# companion/i18n takes English from here). {area_at}: "at the <Area>"; {options}: the choices.
REFUSALS = {
    "game_over": "The game is over: nothing more can be entered.",
    "wrong_kind": "The companion expects {expected} now, not {given}.",
    "not_needed": "This line ({given}) is not needed here. {skipped} The companion expects {expected} now.",
    "dice_count": "{want} dice are in play, but {got} were entered: look for a die off the tray or two "
                  "dice stacked, and read again.",
    "no_die_at": "There is no die {area_at}: you cannot visit an Area where there is no die.",
    "neutral_only_two": "There is a Neutral player only in a 2-player game.",
    "neutral_given": "You have already given the Neutral player a die this round.",
    "neutral_due": "Your third die must go to the Neutral player: each player gives it exactly one die "
                   "per round.",
    "no_resource_at": "There is no {resource} {area_at}.",
    "tile_taker_tied": "Only a player tied for the most can take the tile.",
    "reveal_not_left": "{tile} is not one of the tiles left in that stack: {tiles}.",
    "submarine_same": "The Submarine must move to another Area.",
    "submarine_depleted": "The Submarine cannot go to a depleted District.",
    "donate_held": "You can only donate two resources you hold.",
    "inn_same": "The die must get another value.",
    "inn_no_die": "No die showing {face} lies on the board.",
    "not_possible": "That choice is not possible now ({what}); possible: {options}.",
    "none_possible": "Nothing of the kind is possible now ({what}).",
}


def kind_of(name: str) -> InputKind:
    return KINDS[name]


def is_chance(name: str) -> bool:
    """A physical roll (R1): the camera reads it, the companion never invents it."""
    return name in KINDS and KINDS[name].chance


def describe_kind(name: str) -> str:
    return KINDS[name].words if name in KINDS else "nothing (the game is over)" if name == "over" else name


def notation(inp: dict) -> str:
    return KINDS[inp["type"]].notation(inp)


def from_notation(text: str) -> dict:
    """An input from its notation ('pick inn neutral'), or RuleError("invalid")."""
    tokens = text.split()
    if not tokens or tokens[0] not in KINDS:
        raise invalid(f"unknown input {text!r}; known: {', '.join(KINDS)}")
    kind = KINDS[tokens.pop(0)]
    if isinstance(kind, DonateKind) and (shaped := kind.read_notation(tokens)) is not None:
        return shaped
    inp: dict = {"type": kind.name}
    try:
        for f in kind.fields:
            if f.default is OMIT:
                continue
            if tokens:
                inp[f.name] = f.read(tokens, kind.name)
            elif f.default is REQUIRED:
                raise invalid(f"a {kind.name} input needs '{f.name}'")
    except IndexError:
        raise invalid(f"{text!r}: a field is missing") from None
    if tokens:
        raise invalid(f"{text!r}: too many words ({' '.join(tokens)})")
    return kind.parse(inp)


def normalize(inp: object) -> dict:
    """A clean copy of `inp` with only known keys, or RuleError("invalid")."""
    if not isinstance(inp, dict):
        raise invalid("an input must be a JSON object with a 'type'")
    kind = inp.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        raise invalid(f"unknown input type {kind!r}; known: {', '.join(KINDS)}")
    return KINDS[kind].parse(inp)


def describe_refusal(state: dict, task: dict, inp: dict, legal: list) -> RuleError:
    """Why a well-formed input is not allowed now, naming the rule."""
    return KINDS[inp["type"]].refuse(state, task, inp, legal)


# --- the English message: the template filled with the game's ids --------------------------

def plain(template: str, params: dict) -> str:
    """`template` with its {placeholders} in plain English (ids for names); never fails."""
    values: dict = {}
    for k, v in params.items():
        if k in ("area", "district", "source", "to") and isinstance(v, str):
            where = "the Black Market" if v == MARKET else f"the {v}"
            values.update({k: v, f"{k}_at": f"at {where}", f"{k}_from": f"from {where}",
                           f"{k}_into": f"to {where}"})
        elif k in ("expected", "given", "what"):
            values[k] = describe_kind(v)
        elif k == "options" and isinstance(v, list):
            values[k] = "; ".join(" ".join(str(x) for x in o.values()) for o in v) + (" …" if params.get("more") else "")
        elif isinstance(v, list):
            values[k] = ", ".join(str(x) for x in v)
        else:
            values[k] = v
    return template.format_map(_Unknown(values))


class _Unknown(dict):
    def __missing__(self, key: str) -> str:
        return "?"
