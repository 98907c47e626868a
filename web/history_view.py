"""What the history pages draw, from the games' summaries: plain data for the templates.

No statistics live here: the test is companion.history.dice_fairness's, the players'
records companion.history.players'; this lays them out and puts them in words.
"""

from __future__ import annotations

from companion import games
from companion.history.dice_fairness import fairness
from companion.shelf import words_for

from .view import ui


def known(gid: str) -> bool:
    """Whether `gid` is a game of the shelf (a record may name one this companion lacks)."""
    return gid in {g.id for g in games.shelf()}


def game_name(lang: str, gid: str) -> str:
    """The game's name as the shelf registers it; a game not on the shelf by its id."""
    return words_for(gid, lang).game_name if known(gid) else gid


def face_word(lang: str, gid: str, face: object) -> str:
    """A face of the game's die in the game's own words."""
    return words_for(gid, lang).face(face) if known(gid) else str(face)


def p_text(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"= {p:.2g}"


def verdict(test: dict, gid: str, lang: str) -> str:
    if test["verdict"] == "too_few":
        return ui(lang, "dice_too_few", n=test["n"], need=test["min_rolls"])
    if test["verdict"] == "fair":
        return ui(lang, "dice_fair", p=p_text(test["p"]))
    return ui(lang, "dice_more" if test["more"] else "dice_less", face=face_word(lang, gid, test["face"]),
              p=p_text(test["p"]))


def dice(gid: str, rolls: dict, readings: dict, lang: str, width: int = 360, height: int = 150) -> dict:
    """A game's (or every game's) face counts as bars with the fair line, the test's verdict in
    words, and the camera's track record."""
    test = fairness(rolls)
    top = max([1, *rolls.values(), test["expected"]])
    n = len(rolls)
    gap, base, head = 8, height - 22, 14
    bar = (width - gap * (n + 1)) / n
    bars = []
    for i, (face, count) in enumerate(rolls.items()):
        h = (base - head) * count / top
        bars.append({"x": round(gap + i * (bar + gap), 1), "y": round(base - h, 1), "w": round(bar, 1),
                     "h": round(h, 1), "count": count, "face": face_word(lang, gid, face),
                     "cx": round(gap + i * (bar + gap) + bar / 2, 1),
                     "strays": test["verdict"] == "unusual" and face == test["face"]})
    fair_y = round(base - (base - head) * test["expected"] / top, 1)
    read = readings.get("camera", 0) + readings.get("corrected", 0)
    return {"game": gid, "name": game_name(lang, gid), "n": test["n"], "test": test,
            "verdict": verdict(test, gid, lang), "unusual": test["verdict"] == "unusual",
            "chart": {"width": width, "height": height, "base": base, "bars": bars, "fair_y": fair_y,
                      "label": ui(lang, "dice_chart", game=game_name(lang, gid))},
            "readings": dict(readings), "camera_read": read,
            "camera_right": round(100 * readings.get("camera", 0) / read) if read else None}


def dice_over(summaries: list[dict], lang: str) -> list[dict]:
    """Every game's rolls and readings added up, per game of the shelf."""
    totals: dict[str, tuple[dict, dict]] = {}
    for s in summaries:
        if not s["faces"]:
            continue
        rolls, readings = totals.setdefault(s["game"], ({f: 0 for f in s["faces"]}, {}))
        for face, n in s["rolls"].items():
            rolls[face] += n
        for source, n in s["readings"].items():
            readings[source] = readings.get(source, 0) + n
    return [dice(gid, rolls, readings, lang) for gid, (rolls, readings) in totals.items()]


def game_row(s: dict, lang: str) -> dict:
    """One line of the games list."""
    seats = []
    for seat, name in enumerate(s["players"]):
        seats.append({"name": name, "score": s["scores"][seat] if s["scores"] is not None else None,
                      "winner": seat in s["winners"]})
    imported = bool(s.get("imported"))
    return {"id": s["id"], "game": s["game"], "game_name": game_name(lang, s["game"]),
            # a loaded record: the date it gives (none: unknown), and when it was loaded here
            "date": date_text(s.get("played") or "") if imported else date_text(s["created"]),
            "imported": imported, "loaded": date_text(s["created"]) if imported else None, "seats": seats, "over": s["over"], "error": s["error"],
            "unreadable": unreadable_text(s.get("unreadable"), lang),
            "shared": len(s["winners"]) > 1, "winners": [s["players"][w] for w in s["winners"]],
            "inputs": s["inputs"], "resumable": resumable(s)}


def unreadable_text(why: dict | None, lang: str) -> str | None:
    """Why a game's rows cannot be read from the games file ({"line", "key", "params"}), in words."""
    if not why:
        return None
    from companion.i18n import catalog, fill
    ui = catalog(lang)["ui"]
    reason = fill(ui.get(f"err_{why['key']}", why["key"]), why.get("params") or {})
    return fill(ui["err_record_line"], {"line": why["line"], "why": reason})


def resumable(s: dict) -> bool:
    """An unfinished game of the shelf whose record replays: the session resumes any such game."""
    return not s["over"] and not s["error"] and known(s["game"])


def date_text(iso: str) -> str:
    """'2026-11-22 14:00' (UTC, as the store keeps it)."""
    return iso[:16].replace("T", " ") if iso else ""


def score_chart(scores: list, width: int = 220, height: int = 60) -> dict | None:
    """A player's scores, game after game, as a small line."""
    if not scores:
        return None
    top = max(1, max(scores))
    pad = 6
    step = (width - 2 * pad) / max(1, len(scores) - 1)
    pts = [(round(pad + i * step if len(scores) > 1 else width / 2, 1),
            round(height - pad - (height - 2 * pad) * v / top, 1)) for i, v in enumerate(scores)]
    return {"width": width, "height": height, "points": " ".join(f"{x},{y}" for x, y in pts), "dots": pts,
            "best": max(scores), "last": scores[-1]}


def extra_lines(gid: str, line: dict, lang: str) -> list[dict]:
    """What the game adds to a player's record (its PLAYER_LINES), in its words: each line's
    heading and items, a game's mean ("average") or the count, the most first ("total")."""
    if not (line["extra"] and line["played"] and known(gid)):
        return []
    words, out = words_for(gid, lang), []
    for name, how in games.load(gid).player_lines.items():
        sums = line["extra"].get(name) or {}
        if how["how"] == "average":
            items = [(k, round(n / line["played"], 1)) for k, n in sums.items()]
        else:
            items = sorted(((k, n) for k, n in sums.items() if n), key=lambda kv: (-kv[1], str(kv[0])))
        if items:
            out.append({"line": name, "how": how["how"], "shapes": bool(how.get("shapes")),
                        "title": words.page("players_" + name),
                        "rows": [{"key": k, "n": n, "name": words.word(how["group"], k)} for k, n in items]})
    return out


def player_cards(records: list[dict], lang: str) -> list[dict]:
    cards = []
    for p in records:
        games = []
        for gid, line in p["games"].items():
            games.append(dict(line, name=game_name(lang, gid), extra_lines=extra_lines(gid, line, lang),
                              chart=score_chart(line["scores"])))
        cards.append({"key": p["key"], "name": p["name"], "spellings": p["spellings"], "games": games})
    return cards
