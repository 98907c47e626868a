"""Atlandice's check page (the shelf's `check` part): an empty District's payout and the final
scoring from typed counts, with the reasons in words. No game is needed and nothing changes;
the sums are the engine's own (empty_district.py, final_scoring.py).

    payout(counts, taker, words)             -> the payout, and why in sentences
    final(players, neutral, depleted, words) -> the final scoring's breakdown and winners
    form(args, words)                        -> the page's form read back, its sums or its refusals

Input comes from a form (strings) or JSON; anything not understood is a RuleError("invalid")
whose key and params are a line of the catalog's "page" group (the people typing the counts
read it: `words.page(error.key, **error.params)`).
"""

from __future__ import annotations

from ..errors import RuleError, invalid
from .empty_district import SECOND_TOKENS, TIE_FIRST_TOKENS, payout_by_name
from .final_scoring import final_scoring
from .names import RESOURCES
from .table import breakdown

TEMPLATE = "atlandice/check.html"
MAX_SEATS = 5
MAX_COUNT = 99
MAX_NAME = 40      # a player's name, characters (the setup takes no longer)


def refuse(key: str, **params) -> RuleError:
    return invalid(f"check: {key}", key=key, **params)


def count(value: object, what: str) -> int:
    if isinstance(value, str):
        value = value.strip() or "0"
        if not value.isdecimal():
            raise refuse("check_err_number", what=what, value=value)
        if len(value.lstrip("0")) > len(str(MAX_COUNT)):   # int() refuses 4,300 digits and more
            raise refuse("check_err_range", what=what, max=MAX_COUNT)
        value = int(value)
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise refuse("check_err_range", what=what, max=MAX_COUNT)
    return value


def clean_name(value: object, seat: int) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        return f"P{seat + 1}"
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise refuse("check_err_name", seat=seat + 1, max=MAX_NAME)
    return value.strip()


def distinct(names) -> None:
    """Names differ however they are written: "Anna" and "anna " are one player."""
    if len({n.casefold() for n in names}) != len(names):
        raise refuse("check_err_distinct")


def payout(counts: object, taker: object, words) -> dict:
    """The empty-District payout for {name: count} (the order given is the seat order)."""
    if not isinstance(counts, dict) or not 2 <= len(counts) <= MAX_SEATS:
        raise refuse("check_err_counts", max=MAX_SEATS)
    names = [clean_name(name, i) for i, name in enumerate(counts)]
    distinct(names)
    clean = {name: count(n, name) for name, n in zip(names, counts.values())}
    if taker is not None and not isinstance(taker, str):
        raise refuse("check_err_taker")
    if taker is not None and taker.strip():
        # the name as typed in the counts: "anna" is Anna
        taker = next((n for n in names if n.casefold() == taker.strip().casefold()), taker.strip())
    else:
        taker = None
    try:
        result = payout_by_name(clean, taker)
    except ValueError:       # the counts are whole numbers by now: the taker is not among the most
        raise refuse("check_err_taker_most", taker=taker) from None
    result["counts"] = clean
    result["why"] = payout_why(result, clean, words)
    return result


def payout_why(result: dict, counts: dict, words) -> list[str]:
    """The payout in sentences, each naming the rule that decided it."""
    page = words.page
    if result["unclaimed"]:
        return [page("check_unclaimed")]
    lines = []
    most = max(counts.values())
    if result["tied"]:
        lines.append(page("check_tied", names=", ".join(result["first"]), count=most, tokens=TIE_FIRST_TOKENS,
                          taker=result["tile"]))
        lines.append(page("check_no_second"))
    else:
        lines.append(page("check_tile", name=result["tile"], count=most))
        if result["second"]:
            second = counts[result["second"][0]]
            lines.append(page("check_second", names=", ".join(result["second"]), count=second,
                              tokens=SECOND_TOKENS))
        else:
            lines.append(page("check_no_second_holder"))
    zero = [n for n, c in counts.items() if c == 0]
    if zero:
        lines.append(page("check_zero", names=", ".join(zero)))
    return lines


def final(players: object, neutral: bool, depleted: object, words) -> dict:
    """The final scoring breakdown and the winners, from typed stocks, tiles and tokens."""
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_SEATS:
        raise refuse("check_err_players", max=MAX_SEATS)
    neutral = False if neutral is None else neutral
    if type(neutral) is not bool:         # "false" is text, and text is true
        raise refuse("check_err_neutral")
    if depleted is None:
        depleted = []
    if not isinstance(depleted, list) or any(r not in RESOURCES for r in depleted):
        raise refuse("check_err_depleted", list=", ".join(RESOURCES))
    names, stocks, tiles, tokens = [], [], [], []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise refuse("check_err_player", seat=i + 1)
        name = clean_name(p.get("name"), i)
        stock = p.get("stock")
        stock = {} if stock is None else stock
        if not isinstance(stock, dict) or set(stock) - set(RESOURCES):
            raise refuse("check_err_stock", name=name, list=", ".join(RESOURCES))
        names.append(name)
        stocks.append({r: count(stock.get(r, 0), f"{name} ({words.word('resource', r)})") for r in RESOURCES})
        tiles.append(count(p.get("tiles", 0), f"{name} ({words.page('check_what_tiles')})"))
        tokens.append(count(p.get("tokens", 0), f"{name} ({words.page('check_what_tokens')})"))
    distinct(names)
    humans = len(names) - (1 if neutral else 0)
    if humans < 1:
        raise refuse("check_err_human")
    result = final_scoring(stocks, tiles, tokens, humans, depleted)
    return {"result": result, "names": names, "humans": humans,
            "breakdown": breakdown(result, names, words, humans)}


def form(args: dict, words) -> dict:
    """The check page's form (GET arguments) read back: which sum was asked, its result, or
    why it was refused (in words), for templates/check.html."""
    seats = range(MAX_SEATS)
    out = {"args": args, "seats": seats, "resources": RESOURCES, "payout": None, "final": None, "errors": []}
    try:
        if args.get("do") == "payout":
            rows = [(args.get(f"name{i}", "").strip() or f"P{i + 1}", args.get(f"count{i}", "0"))
                    for i in seats if args.get(f"name{i}", "").strip() or args.get(f"count{i}", "").strip()]
            # a dict would keep only the last of two rows with one name
            distinct([name for name, _ in rows])
            out["payout"] = payout(dict(rows), args.get("taker") or None, words)
        elif args.get("do") == "final":
            players = []
            for i in seats:
                name = args.get(f"name{i}", "").strip()
                fields = [args.get(f"{r}{i}", "") for r in RESOURCES] + [args.get(f"tiles{i}", ""),
                                                                         args.get(f"tokens{i}", "")]
                if name or any(f.strip() for f in fields):
                    players.append({"name": name, "stock": {r: args.get(f"{r}{i}", "0") for r in RESOURCES},
                                    "tiles": args.get(f"tiles{i}", "0"), "tokens": args.get(f"tokens{i}", "0")})
            depleted = [r for r in RESOURCES if args.get(f"depleted_{r}") == "1"]
            out["final"] = final(players, args.get("neutral") == "1", depleted, words)
    except RuleError as exc:
        out["errors"].append(words.page(exc.key, **exc.params))
    return out
