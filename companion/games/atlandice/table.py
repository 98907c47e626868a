"""What the table page draws for a game of Atlandice, from a session snapshot: plain data for
its templates (templates/live.html, templates/tally.html), the frame's parts aside (web/frame.py).

No rules live here: legality comes from the prompt's options, scores from the engine's
result and events; this only lays them out and puts them in the words of Atlandice's
catalogs (`words`, given by the caller).
"""

from __future__ import annotations

import math
import re

from ..page import input_json
from . import words as own
from .inputs import kind_of
from .names import AREAS, DISTRICT_RESOURCE, MARKET, RESOURCES, TILES, area_of_face
from .profile import SPACE_KINDS

SEAT_COLOURS = ("#1565c0", "#bf360c", "#2e7d32", "#6a1b9a", "#616161")
SEAT_DASHES = ("", "10 5", "3 5", "14 5 3 5", "6 6")

# The effect of each tile in icons: ("die", text) a die showing text, ("res", r) a
# resource shape, ("sym", name) a symbol, ("text", s) a few characters.
TILE_ICONS = {
    "J-odd": [("die", "1·3·5"), ("text", "+"), ("res", "gem")],
    "J-swap": [("res", "gem"), ("text", "⇄"), ("die", "?")],
    "J-visit": [("die", "6"), ("text", "→"), ("die", "?"), ("sym", "visit")],
    "L-high": [("die", "5·6"), ("text", "+"), ("die", "?")],
    "L-market": [("res", "book"), ("text", "→"), ("die", "6")],
    "L-second": [("text", "2×"), ("sym", "die"), ("text", "+"), ("res", "book")],
    "I-clock": [("die", "1-4"), ("text", "+1"), ("sym", "clock")],
    "I-supply": [("die", "6"), ("text", "→"), ("die", "?")],
    "I-change": [("sym", "die"), ("text", "→"), ("die", "?")],
    "E1": [("sym", "sub"), ("text", "→"), ("die", "?")],
    "E2": [("sym", "sub"), ("text", "→"), ("die", "?")],
    "E3": [("sym", "sub"), ("text", "→"), ("die", "?")],
    "B-even": [("die", "2·4·6"), ("text", "+"), ("res", "weapon")],
    "B-move": [("res", "weapon"), ("text", "→"), ("die", "?")],
    "B-six": [("die", "6"), ("text", "+"), ("die", "6")],
}

EXPLAIN_PREFIXES = ("empty.", "survey.", "donation.", "final.")


RULING = re.compile(r"R\d+$")   # a ruling's id in docs/rulings.md (the other rules are named in words)


def ruling(rule: str | None) -> str | None:
    """A ruling's id to show small beside its sentence (the sentence says the rule in words)."""
    return rule if rule and RULING.match(rule) else None


# --- the board ----------------------------------------------------------------

def board(state: dict, words) -> list[dict]:
    profile = state["profile"]
    depleted = state["depleted"]
    dice_at: dict[str, list[int]] = {a: [] for a in AREAS}
    for face in state["dice"]:
        dice_at[area_of_face(face, depleted)].append(face)
    areas = []
    for i, area in enumerate(AREAS):
        if area == MARKET:
            holding, top, below = state["market"], None, []
            icons = profile["icons"][MARKET]
            is_depleted = False
        else:
            d = state["districts"][area]
            holding, top, below = d["resources"], d["top"], d["below"]
            icons = profile["icons"][top] if top else 0
            is_depleted = DISTRICT_RESOURCE[area] in depleted
        areas.append({
            "id": area,
            "number": i + 1,
            "name": words.word("area", area),
            "resource": DISTRICT_RESOURCE.get(area),
            "tile": top,
            "tile_text": words.word("tile", top) if top else "",
            "tile_icons": TILE_ICONS.get(top, []),
            "clock_icons": icons,
            "resources": [{"r": r, "n": holding[r], "name": words.word("resources", r)}
                          for r in RESOURCES if holding[r]],
            "dice": sorted(dice_at[area]),
            "submarine": state["submarine"] == area,
            "stack_left": (1 if top else 0) + len(below) if area != MARKET else None,
            "depleted": is_depleted,
        })
    return areas


def dial(state: dict, words, size: int = 300) -> dict:
    """The clock as a dial: each space on a circle (start at the top, clockwise), and the hand."""
    track = state["profile"]["track"]
    n = len(track)
    c = size / 2
    radius = size * 0.40
    sweep = 330.0  # degrees: a gap between the end (waves) and the start (arrow)
    step = sweep / max(1, n - 1)
    r_space = max(5.0, min(15.0, radius * math.radians(step) * 0.45))
    spaces = []
    for i, kind in enumerate(track):
        angle = math.radians(-90 + i * step)
        x, y = c + radius * math.cos(angle), c + radius * math.sin(angle)
        if kind.startswith("survey:"):
            subject = kind.split(":", 1)[1]
            label = words.page("space_survey", subject=words.word("resources", subject)
                               if subject != "total" else words.word("words", "total"))
            icon = subject
        elif kind == "donation":
            label, icon = words.page("space_donation"), "donation"
        elif kind in ("start", "end"):
            label, icon = words.page("space_" + kind), kind
        else:
            label, icon = words.page("space_empty"), ""
        spaces.append({"i": i, "x": round(x, 1), "y": round(y, 1), "kind": kind, "icon": icon,
                       "label": f"{i}: {label}", "here": i == state["clock"]})
    here = spaces[min(state["clock"], n - 1)]
    hand_len = radius - r_space - 4
    ang = math.radians(-90 + state["clock"] * step)
    return {"size": size, "c": c, "r": radius, "r_space": round(r_space, 1), "spaces": spaces,
            "hand": {"x": round(c + hand_len * math.cos(ang), 1), "y": round(c + hand_len * math.sin(ang), 1)},
            "position": state["clock"], "end": n - 1, "here": here}


# --- the players --------------------------------------------------------------

def dice_this_round(history: list[dict]) -> dict[int, list[str]]:
    """Areas of the dice each seat received since the last gate roll (from the events)."""
    taken: dict[int, list[str]] = {}
    for entry in reversed(history):
        for ev in reversed(entry["events"]):
            if ev["key"] == "round.start":      # a new round: its dice are not rolled yet
                return taken
            if ev["key"] == "visit.pick":
                taken.setdefault(ev["params"]["who"], []).insert(0, ev["params"]["area"])
        if entry["input"].get("type") == "gate_roll":
            break
    return taken


def players(state: dict, expected: dict | None, history: list[dict], words) -> list[dict]:
    names = words.names(state)
    taken = dice_this_round(history)
    acting = expected.get("seat") if expected else None
    out = []
    for s, name in enumerate(names):
        neutral = state["neutral"] and s == len(state["players"])
        out.append({
            "seat": s,
            "name": name,
            "neutral": neutral,
            "colour": SEAT_COLOURS[4 if neutral else s % 4],
            "stock": [{"r": r, "n": state["stocks"][s][r], "name": words.word("resources", r),
                       "depleted": r in state["depleted"]} for r in RESOURCES],
            "held": sum(state["stocks"][s].values()),
            "tokens": state["tokens"][s],
            "tiles": [{"id": t, "name": words.word("tile", t)} for t in state["tiles"][s]],
            "vp": state["tokens"][s] + 3 * len(state["tiles"][s]),
            "dice": [{"area": a, "face": AREAS.index(a) + 1, "name": words.word("area", a)}
                     for a in taken.get(s, [])],
            "acting": acting == s,
            "first": state["first"] == s and not neutral,
        })
    return out


# --- the prompt: what the companion waits for ----------------------------------

def option_label(option: dict, expected: dict, state: dict, words, names: list[str]) -> dict:
    """A big button: words plus icons (both as the input's kind declares them), and the input it sends."""
    # Under the heading "Give to the Neutral player" the button says only the Area.
    kind = expected.get("kind", "")
    short = words.option(dict(option, **{"for": "self"}), kind, names) if option.get("for") == "neutral" else None
    return {"text": words.option(option, kind, names), "short": short, "icons": _icons(option),
            "input": input_json(option)}


def _icons(option: dict) -> list:
    """The kind's declared icons: each names a field ("pair.0": the pair's first), else is literal."""
    if option["type"] == "donate" and "give" in option:     # a count beside each resource given
        return [item for r, n in option["give"].items() for item in (("text", f"{n}×"), ("res", r))]
    if option["type"] == "donate" and option.get("all"):
        return []
    icons = []
    for icon, ref in kind_of(option["type"]).icons:
        name, _, index = ref.partition(".")
        if name not in option:
            icons.append((icon, ref))
            continue
        value = option[name]
        if value is not None and index:
            value = value[int(index)]
        if value is None:
            return []              # e.g. "done" at a Donation: words only
        icons.append((icon, str(AREAS.index(value) + 1) if icon == "die" else value))
    return icons


def _groups(expected: dict, state: dict, words, names: list[str]) -> list[dict]:
    kind = kind_of(expected["kind"])
    groups: list[dict] = []
    seen: dict = {}
    options = expected["options"]
    if expected["kind"] == "donate":
        # The whole table at once: "nobody (more) donates" first, then each player's gifts
        # (the first shape, a pair then "done" for one player, stays for older records and CONFIRM).
        options = sorted((o for o in options if "give" in o or o.get("all")), key=lambda o: not o.get("all"))
    for option in options:
        k = kind.group(option) if kind.group else None
        if k not in seen:
            label = own.group_label(option, words.catalog, names) if kind.group else ""
            seen[k] = {"key": k, "label": label, "options": []}
            groups.append(seen[k])
        seen[k]["options"].append(option_label(option, expected, state, words, names))
    defaults = {f.default for f in kind.fields if isinstance(f.default, str)}
    if len(groups) == 1 and groups[0]["key"] in defaults:
        groups[0]["label"] = ""    # all for the usual recipient: no heading needed
    return groups


def prompt(snap: dict, words) -> dict | None:
    expected = snap.get("expected")
    state = snap.get("state")
    if not expected or not state:
        return None
    names = words.names(state)
    kind = expected["kind"]
    ctx = expected.get("context") or {}
    seat = expected.get("seat")
    target = expected.get("for")
    title = words.prompt(expected, names)
    hints = []
    if ctx.get("tile") and kind not in ("reveal", "tile_taker"):
        hints.append(words.page("hint_tile", tile=words.word("tile", ctx["tile"])))
    if kind == "resource" and ctx.get("reason") == "submarine":
        hints.append(words.page("hint_submarine"))
    if kind == "roll":
        hints.append(words.page("hint_roll"))
    if kind == "gate_roll":
        hints.append(words.page("hint_gate_roll", count=expected["count"]))
    if kind == "tile_taker" and ctx.get("counts"):
        counts = ", ".join(f"{names[s]} {n}" for s, n in enumerate(ctx["counts"]) if s < len(names))
        hints.append(words.page("hint_tile_taker", resources=words.word("resources", ctx.get("resource", "")),
                                counts=counts))
    if kind == "pick" and state["neutral"] and target is not None:
        hints.append(words.page("hint_neutral"))
    if kind == "donate":
        hints.append(words.page("hint_donate"))
        hints.append(words.page("hint_donate_counts"))
    out = {"kind": kind, "title": title, "hints": hints, "seat": seat, "groups": [],
           "dice_entry": None, "faces": []}
    if kind == "gate_roll":
        out["dice_entry"] = {"count": expected["count"]}
    elif kind == "roll":
        out["faces"] = [option_label(o, expected, state, words, names) for o in expected["options"]]
    elif kind != "over":
        out["groups"] = _groups(expected, state, words, names)
    return out


def proposal(snap: dict, words) -> dict | None:
    """The step CONFIRM would enter, the dice read shown as faces; a problem with the dice read
    (the dice desk's) is said by the frame (web/view.py)."""
    p = snap.get("proposal")
    state = snap.get("state")
    if not p or not state:
        return None
    inp = p["input"]
    names = words.names(state)
    expected = snap.get("expected") or {}
    if inp["type"] == "gate_roll":
        text = " ".join(str(v) if v is not None else "?" for v in inp["dice"])
    elif inp["type"] == "roll":
        text = str(inp["value"]) if inp["value"] is not None else "?"
    else:
        text = option_label(inp, expected, state, words, names)["text"]
    return {"text": text, "source": p["source"], "problem": None, "input": input_json(inp)}


def reading(snap: dict) -> dict | None:
    r = snap.get("reading")
    if not r:
        return None
    dice = []
    for d in r.get("dice", []):
        dice.append({"value": d.get("value"), "unsure": d.get("value") is None,
                     "confidence": d.get("confidence")})
    return {"values": r.get("values", []), "dice": dice, "unsure": r.get("unsure", 0),
            "current": bool(r.get("current"))}


# --- the history, the explanations ------------------------------------------------

def history(snap: dict, words) -> list[dict]:
    state = snap.get("state")
    if not state:
        return []
    names = words.names(state)
    entries = []
    rnd = 1
    for entry in snap.get("history", []):
        for ev in entry["events"]:
            if ev["key"] == "gates.open":
                rnd = ev["params"].get("round", rnd)
        lines = [{"text": words.event(ev, names), "key": ev["key"], "rule": ev.get("rule"),
                  "code": ruling(ev.get("rule")), "explain": ev["key"].startswith(EXPLAIN_PREFIXES)} for ev in entry["events"]]
        entries.append({"index": entry["index"], "round": rnd, "type": entry["input"].get("type"),
                        "source": entry["input"].get("source"), "lines": lines,
                        "explain": any(line["explain"] for line in lines)})
    entries.reverse()
    return entries


def explanations(entries: list[dict]) -> list[dict]:
    """Every empty District, Survey, Donation and the final scoring: who got what and why."""
    out = []
    for entry in entries:
        lines = [line for line in entry["lines"] if line["explain"]]
        if lines:
            out.append({"index": entry["index"], "round": entry["round"], "lines": lines})
    return out


# --- the end ----------------------------------------------------------------------

TOKEN_SOURCES = ("survey", "donation", "empty_second", "empty_tied")


def token_sources(history: list[dict], tokens: list[int], names: list[str], words) -> list[dict]:
    """Each player's VP tokens by where they came from (Surveys, Donations, an empty District's
    second place, a tie for its tile), each with its payouts in words and their round; tokens
    that no payout in the history gave (a position typed in) make a line of their own."""
    seats = len(tokens)
    rows = {k: {"key": k, "label": words.page(f"bd_tokens_{k}"), "per_seat": [0] * seats, "lines": []}
            for k in TOKEN_SOURCES}
    rnd = 1
    for entry in history:
        for ev in entry["events"]:
            p, key = ev["params"], ev["key"]
            if key == "gates.open":
                rnd = p.get("round", rnd)
            got: dict = {}
            if key == "survey.result":
                got, source = {s: 1 for s in p.get("winners", [])}, "survey"
            elif key == "donation.pair":
                got, source = {p["seat"]: 1}, "donation"
            elif key == "donation.give":
                got, source = {p["seat"]: p["tokens"]}, "donation"
            elif key == "empty.tokens":
                got, source = {p["seat"]: p["tokens"]}, "empty_tied" if p.get("place") == "tied_first" else "empty_second"
            if not got:
                continue
            row = rows[source]
            for s, n in got.items():
                if isinstance(s, int) and s < seats:
                    row["per_seat"][s] += n
            row["lines"].append({"round": rnd, "text": words.event(ev, names)})
    out = [r for r in rows.values() if r["lines"]]
    rest = [tokens[s] - sum(r["per_seat"][s] for r in out) for s in range(seats)]
    if any(rest):
        out.append({"key": "other", "label": words.page("bd_tokens_other"), "per_seat": rest, "lines": []})
    return out


def breakdown(result: dict, names: list[str], words, humans: int, history: list[dict] | None = None) -> dict:
    """The final scoring, line by line, for the table to check (also the check page); with the
    game's `history`, the VP tokens by source."""
    seats = len(result["total"])
    rows = []
    for r in RESOURCES:
        line = result["resources"][r]
        cells = []
        for s in range(seats):
            place = "first" if s in line["first"] else "second" if s in line["second"] else ""
            cells.append({"count": line["counts"][s], "points": line["points"][s], "place": place})
        why, code = _resource_why(line, names, words)
        rows.append({"r": r, "name": words.word("resources", r), "depleted": line["depleted"],
                     "tied": line["tied"], "cells": cells, "why": why, "code": code})
    return {
        "names": names[:seats],
        "rows": rows,
        "majority": result["majority"],
        "tiles": result["tiles"],
        "tile_points": result["tile_points"],
        "tokens": result["tokens"],
        "token_sources": token_sources(history, result["tokens"], names, words) if history is not None else [],
        "total": result["total"],
        "winners": [names[s] for s in result["winners"]],
        "winner_seats": result["winners"],
        "humans": humans,
    }


def _resource_why(line: dict, names: list[str], words) -> tuple[str, str | None]:
    """Why a resource scored as it did, and the ruling that decided it (if one did)."""
    if line["depleted"]:
        return words.page("why_depleted"), None
    if not line["first"]:
        return words.page("why_nobody"), "R7"
    first = ", ".join(names[s] for s in line["first"])
    if line["tied"]:
        return words.page("why_tied", first=first), None
    if line["second"]:
        return words.page("why_first_second", first=first, second=", ".join(names[s] for s in line["second"])), None
    return words.page("why_first_only", first=first), "R7"


def vp_chart(state: dict, names: list[str], words, width: int = 640, height: int = 300) -> dict | None:
    """Each player's VP at the end of each round (tokens + 3 per tile), then the final totals."""
    rows = [list(r) for r in state.get("vp_history") or []]
    labels = [str(i + 1) for i in range(len(rows))]
    if state.get("result"):
        rows.append(list(state["result"]["total"]))
        labels.append(words.page("chart_final"))
    if not rows:
        return None
    seats = len(rows[0])
    top = max(1, max(max(r) for r in rows))
    left, right, bottom, head = 44, 16, 36, 14
    w, h = width - left - right, height - bottom - head
    xs = [left + (w * i / max(1, len(rows) - 1) if len(rows) > 1 else w / 2) for i in range(len(rows))]

    def y(v):
        return round(head + h - h * v / top, 1)

    ticks = sorted({0, top} | {round(top * k / 4) for k in range(1, 4)})
    lines = []
    for s in range(seats):
        neutral = state["neutral"] and s == len(state["players"])
        pts = [(round(xs[i], 1), y(rows[i][s])) for i in range(len(rows))]
        lines.append({"name": names[s], "colour": SEAT_COLOURS[4 if neutral else s % 4],
                      "dash": SEAT_DASHES[4 if neutral else s % 4],
                      "points": " ".join(f"{a},{b}" for a, b in pts), "dots": pts,
                      "final": rows[-1][s]})
    return {"width": width, "height": height, "left": left, "bottom": height - bottom, "right": width - right,
            "head": head, "lines": lines,
            "xlabels": [{"x": round(xs[i], 1), "text": labels[i]} for i in range(len(rows))],
            "yticks": [{"y": y(v), "text": v} for v in ticks]}


# --- the whole page, and the score sheet ---------------------------------------------

def table(snap: dict, words, rng=None) -> dict:
    """Atlandice's parts of the table page (the snapshot's game is Atlandice's)."""
    state = snap["state"]
    names = words.names(state)
    entries = history(snap, words)
    return {
        "shelf_page": "atlandice/live.html",
        "page": words.page,
        "reading": reading(snap),
        "proposal": proposal(snap, words),
        "names": names,
        "round": state["round"],
        "over": state["over"],
        "board": board(state, words),
        "dial": dial(state, words),
        "players": players(state, snap.get("expected"), snap.get("history", []), words),
        "prompt": prompt(snap, words),
        "history": entries,
        "history_round": entries[0]["round"] if entries else None,
        "explanations": explanations(entries),
        "latest": entries[0] if entries else None,
        "profile_confirmed": state["profile"].get("confirmed", False),
        "set_aside": [words.word("tile", t) for t in state["set_aside"]],
        "depleted": [words.word("resources", r) for r in state["depleted"]],
        "tally": sheet(state, state.get("result"), words, names, snap.get("history", []))
        if state.get("result") else None,
    }


def sheet(state: dict, result: dict, words, names: list[str], history: list[dict] | None) -> dict:
    """The score sheet (templates/tally.html): the final scoring line by line, the VP tokens
    by source (from the game's `history`, when given), and the VP chart."""
    return {"breakdown": breakdown(result, names, words, len(state["players"]), history),
            "chart": vp_chart(state, names, words)}


def final(state: dict, words, names: list[str]) -> dict:
    """The score sheet of a game over (its live page's final card)."""
    return sheet(state, state["result"], words, names, None)


def so_far(game, words, names: list[str]) -> dict:
    """A replayed game's score sheet at any step (the saved game's page): its scoring as it
    stands (provisional before the end) with the tokens' sources, the VP chart once over."""
    state = game.state
    return {"breakdown": breakdown(game.score(), names, words, len(state["players"]), list(game.history)),
            "chart": vp_chart(state, names, words) if state["over"] else None}


def players_at(game, words) -> list[dict]:
    """The players' table (stock, tiles, tokens) after a step of a replayed game."""
    return players(game.state, game.expected(), game.history, words)


def profile_editor(profile: dict, words) -> dict:
    """The board profile's own editor (R12): the clock track space by space and each tile's
    clock icons (its template saves it through POST /api/profile)."""
    return {"template": "atlandice/profile.html", "kinds": SPACE_KINDS, "page": words.page,
            "tiles": [{"id": tile, "name": words.word("tile", tile)} for tile in (*TILES, MARKET)]}
