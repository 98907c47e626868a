"""The check page's sums: the engine's own scoring functions, with the reasons in words.

No game is needed and nothing changes. Input comes from a form (strings) or
JSON; anything not understood is a 400 with the field named, in the page's
language (the people typing the counts read it).
"""

from __future__ import annotations

from companion.games.atlandice import GAME
from companion.games.atlandice.empty_district import SECOND_TOKENS, TIE_FIRST_TOKENS, payout_by_name
from companion.games.atlandice.final_scoring import final_scoring
from companion.games.atlandice.names import RESOURCES
from companion.games.atlandice.table import breakdown
from companion.shelf import words_for

from .errors import ApiError
from .view import ui

MAX_SEATS = 5
MAX_COUNT = 99
MAX_NAME = 40      # a player's name, characters (the setup API takes no longer)


def refuse(lang: str, key: str, **params) -> ApiError:
    return ApiError(400, "invalid", ui(lang, key, **params))


def count(value: object, what: str, lang: str) -> int:
    if isinstance(value, str):
        value = value.strip() or "0"
        if not value.isdecimal():
            raise refuse(lang, "check_err_number", what=what, value=value)
        if len(value.lstrip("0")) > len(str(MAX_COUNT)):   # int() refuses 4,300 digits and more
            raise refuse(lang, "check_err_range", what=what, max=MAX_COUNT)
        value = int(value)
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise refuse(lang, "check_err_range", what=what, max=MAX_COUNT)
    return value


def clean_name(value: object, seat: int, lang: str) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        return f"P{seat + 1}"
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise refuse(lang, "check_err_name", seat=seat + 1, max=MAX_NAME)
    return value.strip()


def distinct(names, lang: str) -> None:
    """Names differ however they are written: "Anna" and "anna " are one player."""
    if len({n.casefold() for n in names}) != len(names):
        raise refuse(lang, "check_err_distinct")


def payout(counts: object, taker: object, lang: str) -> dict:
    """The empty-District payout for {name: count} (the order given is the seat order)."""
    if not isinstance(counts, dict) or not 2 <= len(counts) <= MAX_SEATS:
        raise refuse(lang, "check_err_counts", max=MAX_SEATS)
    names = [clean_name(name, i, lang) for i, name in enumerate(counts)]
    distinct(names, lang)
    clean = {name: count(n, name, lang) for name, n in zip(names, counts.values())}
    if taker is not None and not isinstance(taker, str):
        raise refuse(lang, "check_err_taker")
    if taker is not None and taker.strip():
        # the name as typed in the counts: "anna" is Anna
        taker = next((n for n in names if n.casefold() == taker.strip().casefold()), taker.strip())
    else:
        taker = None
    try:
        result = payout_by_name(clean, taker)
    except ValueError:       # the counts are whole numbers by now: the taker is not among the most
        raise refuse(lang, "check_err_taker_most", taker=taker) from None
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
        raise refuse(lang, "check_err_players", max=MAX_SEATS)
    neutral = False if neutral is None else neutral
    if type(neutral) is not bool:         # "false" is text, and text is true
        raise refuse(lang, "check_err_neutral")
    if depleted is None:
        depleted = []
    if not isinstance(depleted, list) or any(r not in RESOURCES for r in depleted):
        raise refuse(lang, "check_err_depleted", list=", ".join(RESOURCES))
    words = words_for(GAME, lang)
    names, stocks, tiles, tokens = [], [], [], []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise refuse(lang, "check_err_player", seat=i + 1)
        name = clean_name(p.get("name"), i, lang)
        stock = p.get("stock")
        stock = {} if stock is None else stock
        if not isinstance(stock, dict) or set(stock) - set(RESOURCES):
            raise refuse(lang, "check_err_stock", name=name, list=", ".join(RESOURCES))
        names.append(name)
        stocks.append({r: count(stock.get(r, 0), f"{name} ({words.word('resource', r)})", lang) for r in RESOURCES})
        tiles.append(count(p.get("tiles", 0), f"{name} ({ui(lang, 'check_what_tiles')})", lang))
        tokens.append(count(p.get("tokens", 0), f"{name} ({ui(lang, 'check_what_tokens')})", lang))
    distinct(names, lang)
    humans = len(names) - (1 if neutral else 0)
    if humans < 1:
        raise refuse(lang, "check_err_human")
    result = final_scoring(stocks, tiles, tokens, humans, depleted)
    return {"result": result, "names": names, "humans": humans,
            "breakdown": breakdown(result, names, words, humans)}
