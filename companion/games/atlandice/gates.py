"""Step 1, Open the Gates: the First Player rolls every die (a chance input, R1)."""

from .events import event
from .names import AREAS, area_of_face


def resolve_gate_roll(state: dict, task: dict, inp: dict, events: list) -> None:
    state["dice"] = sorted(inp["dice"])
    at = {a: 0 for a in AREAS}
    for f in state["dice"]:
        at[area_of_face(f, state["depleted"])] += 1
    events.append(event("gates.open", round=state["round"], dice=list(state["dice"]),
                        areas={a: n for a, n in at.items() if n},
                        rule="R8" if any(1 <= f <= 5 and area_of_face(f, state["depleted"]) == "market"
                                         for f in state["dice"]) else None))
    state["pending"].append({"t": "pick"})
