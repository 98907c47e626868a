"""What the table page draws for a game of Survive, from a session snapshot: plain data for
its templates (templates/live.html, templates/tally.html), the frame's parts aside (web/frame.py).

No rules here: the options are the prompt's, the counts the game's public view
(view.py: never which tile a player holds), the tally its result; this lays them out and
puts them in the words of Survive's catalogs (`words`, given by the caller).
"""

from __future__ import annotations

from ..page import input_json
from . import words as own
from .view import view

LOSSES = ("lost", "boat_lost")     # taps that take a piece off the board, at any step
HISTORY_SHOWN = 10                 # the latest inputs shown; the earlier ones folded (the page stays short)


def _button(option: dict, kind: str, words, names: list[str], default: dict | None = None) -> dict:
    return {"text": words.option(option, kind, names), "type": option["type"],
            "input": input_json(option), "default": option == default}


def prompt(expected: dict, words, names: list[str]) -> dict:
    """The prompt's options as buttons, the losses apart; the prompt's `default` (what CONFIRM
    enters when the table has nothing else to say) is the first and main button."""
    kind = expected["kind"]
    default = expected.get("default")
    ahead = expected["context"].get("ahead")      # step 3's tile, its back tapped early (engine AHEAD)
    early = [o for o in expected["options"] if ahead and kind != "reveal" and o["type"] == "reveal"]
    main = [o for o in expected["options"] if o["type"] not in LOSSES and o not in early]
    if default in main:
        main.remove(default)
        main.insert(0, default)
    losses = [o for o in expected["options"] if o["type"] in LOSSES]
    groups = []
    if main:
        buttons = [_button(o, kind, words, names, default) for o in main]
        shown = expected["context"].get("shown") or [] if kind == "values" else []
        for button, option in zip(buttons, main):
            if option["type"] == "value":       # one tap per explorer: how many show this number so far
                button["count"] = shown.count(option["value"])
        groups.append({"key": "main", "label": "", "options": buttons})
    if early:
        groups.append({"key": "ahead", "label": words.page("ahead_reveal", terrain=words.word("terrain", ahead["terrain"])),
                       "options": [_button(o, "reveal", words, names) for o in early]})
    if losses:
        groups.append({"key": "losses", "label": words.page("group_losses"),
                       "options": [_button(o, kind, words, names) for o in losses]})
    return {"kind": kind, "seat": expected["seat"], "title": words.prompt(expected, names),
            "chance": bool(expected.get("chance")), "groups": groups}


def _page(words):
    """The page's words from Survive's catalog, a count choosing the form where a line has
    forms ("under the last mountain"); the page's templates call it as v.page."""
    return lambda key, **params: own.page(words.catalog, key, **params)


def counts(table: dict, words, names: list[str]) -> dict:
    """The public counts: supplies, creatures, boats, each colour's explorers, the volcano's odds."""
    page, word = _page(words), words.word
    odds = table["volcano_under_one_of"]
    # during the setup walk, the pieces not yet on the board: a column of its own while any is left
    to_place = any(n.get("to_place") for n in [*table["creatures"].values(), table["boats"]])
    return {
        "to_place": to_place,
        "terrain": [{"id": t, "name": word("terrain", t), "n": n} for t, n in table["terrain_left"].items()],
        "volcano": page("volcano_odds", n=odds) if odds is not None else page("volcano_found"),
        "creatures": [{"id": c, "name": word("creature", c), **n} for c, n in table["creatures"].items()],
        "boats": dict(table["boats"], name=page("boats")),
        "seats": [{"seat": s, "name": names[s], "hand": table["hands"][s],
                   "acting": table["seat"] == s and not table["over"] and table["step"] != "setup",
                   "colours": [{"id": c, "name": word("colour", c), **table["explorers"][c]}
                               for c in table["colours"][s]]}
                  for s in range(len(names))],
        "challenges": [page(f"challenge_{n}") for n in table["challenges"]],
    }


def tally(result: dict, words, names: list[str]) -> dict:
    rows = []
    for s in result["seats"]:
        for line in s["colours"]:
            rows.append({"seat": s["seat"], "name": names[s["seat"]], "colour": words.word("colour", line["colour"]),
                         "colour_id": line["colour"],
                         "saved": line["saved"], "lost": line["lost"],
                         "values": " + ".join(map(str, line["values"])), "points": line["points"]})
    winners = [names[w] for w in result["winners"]]
    return {"rows": rows, "totals": [{"seat": s["seat"], "name": names[s["seat"]], "total": s["total"],
                                      "winner": s["seat"] in result["winners"]} for s in result["seats"]],
            "counted": result["counted"],
            "winners": words.page("winners_shared" if result["shared"] else "winner", names=", ".join(winners))}


def final(state: dict, words, names: list[str]) -> dict:
    """The score sheet of a game over (the live page's final card, a saved game's page)."""
    return tally(state["result"], words, names)


def history(snap: dict, words, names: list[str]) -> list[dict]:
    entries = [{"index": entry["index"], "source": entry["input"].get("source"),
                "lines": [words.event(ev, names) for ev in entry["events"]]}
               for entry in snap.get("history", [])]
    entries.reverse()
    return entries


def table(snap: dict, words, rng=None) -> dict:
    """The game's parts of the table page (`rng`: the edge's randomness, unused here)."""
    state = snap["state"]
    names = words.names(state)
    public = view(state)
    expected = snap.get("expected")
    entries = history(snap, words, names)
    return {"shelf_page": "survive/live.html", "names": names, "over": state["over"],
            "turn": public["turn"], "setup_step": state.get("setup_step") if state["step"] == "setup" else None,
            "prompt": prompt(expected, words, names) if expected else None,
            "counts": counts(public, words, names), "history": entries,
            "latest": entries[0] if entries else None, "history_shown": HISTORY_SHOWN,
            "start": [words.event(ev, names) for ev in snap.get("start_events", [])],
            "profile_confirmed": public["profile_confirmed"], "profile_note": words.word("profile", "unconfirmed"),
            "tally": final(state, words, names) if state.get("result") else None,
            "page": _page(words)}
