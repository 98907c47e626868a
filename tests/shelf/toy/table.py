"""Toss's parts of the table page: the prompt's buttons, the points, the history, the tally."""

from companion.games.page import input_json


def final(state: dict, words, names: list[str]) -> dict:
    return {"rows": [{"name": n, "points": p} for n, p in zip(names, state["points"])],
            "winners": words.page("winner", names=", ".join(names[w] for w in state["result"]["winners"]))}


def table(snap: dict, words, rng=None) -> dict:
    state = snap["state"]
    names = words.names(state)
    expected = snap["expected"]
    buttons = [{"text": words.option(o, expected["kind"], names), "input": input_json(o)}
               for o in expected["options"]]
    return {"shelf_page": "toy/live.html", "names": names, "over": state["over"],
            "prompt": {"kind": expected["kind"], "title": words.prompt(expected, names), "buttons": buttons},
            "points": list(zip(names, state["points"])),
            "history": [line for e in snap.get("history", []) for line in
                        (words.event(ev, names) for ev in e["events"])][::-1],
            "tally": final(state, words, names) if state["result"] else None, "page": words.page}
