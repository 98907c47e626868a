"""The check page's sums: the engine's own scoring functions, with the reasons in words.

No game is needed and nothing changes. Input comes from a form (strings) or
JSON; anything not understood is a 400 with the field named.
"""

from __future__ import annotations

from companion.rules.empty_district import SECOND_TOKENS, TIE_FIRST_TOKENS, payout_by_name
from companion.rules.final_scoring import final_scoring
from companion.rules.names import RESOURCES

from .errors import ApiError
from .view import breakdown, ui

MAX_SEATS = 5
MAX_COUNT = 99
MAX_NAME = 40      # a player's name, characters (the setup API takes no longer)


def count(value: object, what: str) -> int:
    if isinstance(value, str):
        value = value.strip() or "0"
        if not value.isdecimal():
            raise ApiError(400, "invalid", f"{what}: '{value}' is not a whole number")
        value = int(value)
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise ApiError(400, "invalid", f"{what}: must be a whole number from 0 to {MAX_COUNT}")
    return value


def clean_name(value: object, seat: int) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        return f"P{seat + 1}"
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise ApiError(400, "invalid", f"player {seat + 1}: the name must be text (at most {MAX_NAME} characters)")
    return value.strip()


def payout(counts: object, taker: object, lang: str) -> dict:
    """The empty-District payout for {name: count} (the order given is the seat order)."""
    if not isinstance(counts, dict) or not 2 <= len(counts) <= MAX_SEATS:
        raise ApiError(400, "invalid", f"'counts' must map 2 to {MAX_SEATS} names to their counts")
    clean = {}
    for i, (name, n) in enumerate(counts.items()):
        clean[clean_name(name, i)] = count(n, f"{name}")
    if len(clean) != len(counts):
        raise ApiError(400, "invalid", "each name must be different")
    if taker in ("", None):
        taker = None
    elif not isinstance(taker, str):
        raise ApiError(400, "invalid", "'taker' must be one of the names, or null")
    try:
        result = payout_by_name(clean, taker)
    except ValueError as exc:
        raise ApiError(400, "invalid", str(exc)) from None
    result["counts"] = clean
    result["why"] = payout_why(result, clean, lang)
    return result


def payout_why(result: dict, counts: dict, lang: str) -> list[str]:
    """The payout in sentences, each naming the rule that decided it."""
    if result["unclaimed"]:
        return [ui(lang, "check_unclaimed")]
    lines = []
    most = max(counts.values())
    if result["tied"]:
        lines.append(ui(lang, "check_tied", names=", ".join(result["first"]), count=most, tokens=TIE_FIRST_TOKENS,
                        taker=result["tile"]))
        lines.append(ui(lang, "check_no_second"))
    else:
        lines.append(ui(lang, "check_tile", name=result["tile"], count=most))
        if result["second"]:
            second = counts[result["second"][0]]
            lines.append(ui(lang, "check_second", names=", ".join(result["second"]), count=second,
                            tokens=SECOND_TOKENS))
        else:
            lines.append(ui(lang, "check_no_second_holder"))
    zero = [n for n, c in counts.items() if c == 0]
    if zero:
        lines.append(ui(lang, "check_zero", names=", ".join(zero)))
    return lines


def final(players: object, neutral: bool, depleted: object, lang: str) -> dict:
    """The final scoring breakdown and the winners, from typed stocks, tiles and tokens."""
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_SEATS:
        raise ApiError(400, "invalid", f"'players' must list 2 to {MAX_SEATS} players")
    if not isinstance(depleted, list) or any(r not in RESOURCES for r in depleted):
        raise ApiError(400, "invalid", f"'depleted' must list resources ({', '.join(RESOURCES)})")
    names, stocks, tiles, tokens = [], [], [], []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise ApiError(400, "invalid", f"player {i + 1}: must be an object")
        name = clean_name(p.get("name"), i)
        stock = p.get("stock") or {}
        if not isinstance(stock, dict) or set(stock) - set(RESOURCES):
            raise ApiError(400, "invalid", f"{name}: 'stock' maps resources to counts")
        names.append(name)
        stocks.append({r: count(stock.get(r, 0), f"{name} {r}") for r in RESOURCES})
        tiles.append(count(p.get("tiles", 0), f"{name} tiles"))
        tokens.append(count(p.get("tokens", 0), f"{name} VP tokens"))
    if len(set(n.casefold() for n in names)) != len(names):
        raise ApiError(400, "invalid", "each name must be different")
    humans = len(names) - (1 if neutral else 0)
    if humans < 1:
        raise ApiError(400, "invalid", "at least one player must be human")
    result = final_scoring(stocks, tiles, tokens, humans, depleted)
    return {"result": result, "names": names, "humans": humans,
            "breakdown": breakdown(result, names, lang, humans)}
