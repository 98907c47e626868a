"""What the table page draws for a game of Atlantis, from a session snapshot: plain data for
its templates (templates/live.html, tally.html, step.html), the frame's parts aside
(web/frame.py); words from Atlantis's catalogs (`words`, given by the caller).

No rules here: what may be done is the prompt's options and context (a turn's:
the citizens that can move, the tiles to give back, no_move) and, for a move, the
engine's `reach.next_step`: where each card takes a citizen, what its crossings
cost and which cards may follow. A move is asked for step by step (citizen, then
each card, then a bridge or not, taking the tile behind or leaving it), never as a
whole list of moves: `move_step` draws one step from the taps so far.
"""

from __future__ import annotations

import zlib

from ..page import input_json
from . import words as atl
from .path import MAINLAND
from .reach import next_step
from .score import score
from .taking import behind_after
from .view import laying, view


def _face(t: dict | None, catalog: dict) -> str:
    return atl.tile(t, catalog) if t else "?"


def prompt(expected: dict, state: dict, words, names: list[str], rng=None) -> dict:
    """The prompt's parts. The companion lays the path: the order is drawn with `rng`, the
    edge's randomness (the rules draw no random numbers), and kept as the shuffle input."""
    kind = expected["kind"]
    catalog = words.catalog
    context = expected["context"]
    out = {"kind": kind, "seat": expected["seat"], "title": words.prompt(expected, names)}
    if kind in ("lay", "reveal"):
        out["colours"] = [{"id": c, "name": atl.colour(c, catalog)} for c in state["profile"]["colours"]]
        out["values"] = list(state["profile"]["values"])
    elif kind == "shuffle":
        order = {}
        for half, size in context["sizes"].items():
            order[half] = list(range(size))
            rng.shuffle(order[half])
        out["input"] = input_json({"type": "shuffle", "order": order})
    elif kind == "turn":
        seat = expected["seat"]
        movable = set(context["movable"])
        listed = context["listed"]
        out["citizens"] = [{"citizen": c, "where": atl.place(p, catalog), "can": c in movable}
                           for c, p in enumerate(state["citizens"][seat])]
        out["buys"] = [{"text": words.page("buy", tile=_face(state["tiles"][o["tile"]], catalog),
                                           cards=state["tiles"][o["tile"]]["value"] // 2),
                        "input": input_json(o)} for o in listed if o["type"] == "buy"]
        out["no_move"] = next((input_json(o) for o in listed if o["type"] == "no_move"), None)
    elif kind == "pay":
        out.update(owed=context["owed"], hand=context["hand"],
                   tiles=[{"id": t["id"], "value": t["value"], "face": atl.tile(t, catalog)} for t in context["tiles"]])
    elif kind == "cards_left":
        counted = expected["options"][0]
        out.update(counted=counted["count"], input=input_json(counted), most=len(expected["options"]) - 1)
    return out


def move_step(state: dict, expected: dict, citizen: int, cards: list[str], words) -> dict | None:
    """One step of a move: the citizen and the cards tapped so far, where they took it, and
    what may come next (each colour's landing and crossing cost, or the ways to finish: a
    bridge or not, the tile behind taken or left, A9); None when no legal move begins so
    (a stale page, a forged request)."""
    if expected["kind"] != "turn":
        return None
    catalog = words.catalog
    seat = expected["seat"]
    found = next_step(state, seat, citizen, cards)
    if found is None:
        return None
    start = state["citizens"][seat][citizen]
    played = [{"colour": atl.colour(c, catalog), "to": atl.place(found["steps"][i], catalog)}
              for i, c in enumerate(cards)]
    out = {"citizen": citizen, "cards": cards, "from": atl.place(start, catalog), "played": played,
           "next": [], "finish": []}
    ends = found["route"]
    if ends is not None:
        behind = behind_after(state, seat, citizen, ends["to"])
        for bridge in found["bridges"]:
            cost = ends["cost"] - sum(g["cost"] for g in ends["gaps"] if g["first"] == bridge)
            gap = next((g for g in ends["gaps"] if g["first"] == bridge), None)
            text = (words.page("finish", cost=cost) if gap is None else
                    words.page("finish_bridge", first=gap["first"], last=gap["last"], cost=cost,
                                span=gap["last"] - gap["first"] + 1))
            move = {"type": "move", "citizen": citizen, "cards": list(cards), "bridge": bridge}
            if behind is None:
                out["finish"].append({"text": text, "input": input_json(move), "bridge": gap is not None})
                continue
            tile, where = atl.tile(state["tiles"][_top_id(state, behind)], catalog), atl.place(behind, catalog)
            out["finish"].append({"text": words.page("finish_and_take", finish=text, tile=tile, where=where),
                                  "input": input_json(move), "bridge": gap is not None})
            out["finish"].append({"text": words.page("finish_and_leave", finish=text, tile=tile, where=where),
                                  "input": input_json(dict(move, take=False)), "bridge": gap is not None,
                                  "leave": True})
        out["to"] = atl.place(ends["to"], catalog)
        return out
    for step in found["next"]:
        colour, landing, chain = step["colour"], step["to"], step["route"]
        if chain is None:
            text = words.page("card_on", colour=atl.colour(colour, catalog), to=atl.place(landing, catalog))
        else:
            bridged = [chain["cost"] - g["cost"] for g in chain["gaps"] if g["first"] in chain["bridges"]]
            key = "card_to_bridge" if bridged and min(bridged) < chain["cost"] else "card_to"
            text = words.page(key, colour=atl.colour(colour, catalog), to=atl.place(landing, catalog),
                              cost=chain["cost"], bridged=min(bridged) if bridged else 0)
        out["next"].append({"colour": colour, "text": text, "ends": chain is not None})
    return out


def _top_id(state: dict, position: int) -> str:
    return state["spaces"][position - 1]["tiles"][0]


def path(table: dict, words, names: list[str]) -> list[dict]:
    catalog = words.catalog
    cells = []
    for s in table["path"]:
        who = s["citizen"]
        cells.append({"position": s["position"], "colour": s["tile"]["colour"] if s["tile"] else None,
                      "value": s["tile"]["value"] if s["tile"] else None, "stack": s["stack"],
                      "water": s["water"], "bridge": s["bridge"], "unseen": s["stack"] and not s["tile"],
                      "citizen": who and {"seat": who["seat"], "n": who["citizen"] + 1},
                      "title": ", ".join(filter(None, [
                          atl.place(s["position"], catalog),
                          atl.tile(s["tile"], catalog) if s["tile"] else words.word("words", "water") if s["water"] else "?",
                          words.page("stack_under") if s["stack"] > 1 else "",
                          words.page("bridge_of", name=names[s["bridge"]]) if s["bridge"] is not None else "",
                          words.page("citizen_of", name=names[who["seat"]], n=who["citizen"] + 1) if who else ""]))})
    return cells


def seats(table: dict, words, names: list[str]) -> list[dict]:
    catalog = words.catalog
    acting = table["seat"] if table["step"]["t"] in ("turn", "pay", "reveal") else None
    return [{"seat": s, "name": names[s], "acting": s == acting,
             "citizens": [{"n": c + 1, "where": atl.place(p, catalog)} for c, p in enumerate(table["citizens"][s])],
             "tiles": [atl.tile(t, catalog) for t in table["held"][s]], "points": table["points"][s],
             "hand": table["hands"][s], "bridge": table["bridge_built"][s]}
            for s in range(len(names))]


def tally(result: dict, state: dict, words, names: list[str]) -> dict:
    catalog = words.catalog
    rows = []
    for line in result["scores"]:
        rows.append({"seat": line["seat"], "name": names[line["seat"]],
                     "tiles": [atl.tile(t, catalog) for t in line["tiles"]], "tile_points": line["tile_points"],
                     "cards": line["cards"], "payments": line["payments"], "total": line["total"],
                     "settled": [words.page("settled", n=p["citizen"] + 1, where=atl.place(p["from"], catalog),
                                            cost=p["cost"]) for p in line["settlement"]],
                     "winner": line["seat"] in result["winners"]})
    winners = [names[w] for w in result["winners"]]
    return {"rows": rows, "winners": words.page("winners_shared" if len(winners) > 1 else "winner",
                                                names=", ".join(winners), total=result["best"])}


def lay_out(state: dict, words, game_id: object = None) -> dict:
    """The path laid by the companion, to lay on the table with the tiles in hand: each space in
    the order a person lays them (from Atlantis on, A1), its lower tile first, then the one on top
    (A3), the water tile where it goes; `key` names this game's layout (the page keeps its ticks
    under it, static/table.js, and forgets them for a new game)."""
    catalog = words.catalog
    laid = {s["position"]: s["tiles"] for s in laying(state)}
    spaces = []

    def face(t: dict | None) -> dict | None:
        return {"colour": t["colour"], "face": atl.tile(t, catalog)} if t else None

    for position in range(1, MAINLAND):
        tiles = laid.get(position)
        spaces.append({"position": position, "where": atl.place(position, catalog), "water": not tiles,
                       "top": face(tiles[0]) if tiles else None,
                       "under": face(tiles[1]) if tiles and len(tiles) > 1 else None})
    said = ";".join(f"{p}:" + "/".join(f"{t['colour']} {t['value']}" if t else "?" for t in tiles)
                    for p, tiles in sorted(laid.items()))          # the same in every language
    key = f"{game_id}-{zlib.crc32(said.encode('utf-8')):08x}"
    return {"key": key, "spaces": spaces, "total": len(spaces),
            "tiles": sum((s["top"] is not None) + (s["under"] is not None) for s in spaces)}


def final(state: dict, words, names: list[str]) -> dict:
    """The score sheet of a game over (the live page's final card, a saved game's page)."""
    return tally(state["result"], state, words, names)


def so_far(game, words, names: list[str]) -> dict:
    """A replayed game's score sheet at any step (the saved game's page): the final one once
    over; before, as it stands (score.py: tiles held, cards in hand, nothing settled), with no
    winner but a line saying so."""
    state = game.state
    if state["over"]:
        return final(state, words, names)
    sheet = tally(score(state), state, words, names)
    return dict(sheet, rows=[dict(r, winner=False) for r in sheet["rows"]], winners=words.page("tally_so_far"),
                provisional=True)


def table(snap: dict, words, rng) -> dict:
    """The game's parts of the table page (`rng`: the edge's randomness, to lay the path)."""
    state = snap["state"]
    names = words.names(state)
    public = view(state)
    expected = snap.get("expected")
    entries = [{"index": e["index"], "lines": [words.event(ev, names) for ev in e["events"]]}
               for e in snap.get("history", [])][::-1]
    moved = any(e["input"]["type"] == "move" for e in snap.get("history", []))
    return {"shelf_page": "atlantis/live.html", "names": names, "over": state["over"],
            "prompt": prompt(expected, state, words, names, rng) if expected else None,
            "path": path(public, words, names),
            "on_atlantis": [[c + 1 for c in cs] for cs in public["on_atlantis"]],
            "home": [[c + 1 for c in cs] for cs in public["home"]],
            "seats": seats(public, words, names), "draw_pile": public["draw_pile"], "discard": public["discard"],
            "laying": lay_out(state, words, snap.get("game_id"))
                      if public["path_mode"] == "shuffle" and not moved else None,
            "history": entries, "latest": entries[0] if entries else None,
            "start": [words.event(ev, names) for ev in snap.get("start_events", [])],
            "profile_confirmed": public["profile_confirmed"],
            "tally": final(state, words, names) if state.get("result") else None,
            "page": words.page}


def step(state: dict, expected: dict, asked: dict, words) -> dict | None:
    """One step of a move asked step by step (GET /step, templates/step.html): `asked` holds the
    citizen and the cards tapped so far (`cards`: colours, comma-separated); None when they
    do not begin a legal move."""
    try:
        citizen = int(asked.get("citizen", ""))
    except ValueError:
        return None
    cards = [c for c in asked.get("cards", "").split(",") if c]
    return move_step(state, expected, citizen, cards, words)
