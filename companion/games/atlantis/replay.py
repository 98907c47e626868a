"""Replay a record: the setup and its inputs, in order, through the engine.

    state, history = replay(setup, inputs)   # history: [{"index", "input", "events"}]

A refused input raises its RuleError with the record's line number in `params["line"]`
(the setup is line 1).
"""

from .engine import apply, start
from .setup import new_state


def replay(setup: dict, inputs: list) -> tuple[dict, list[dict]]:
    state, events = start(new_state(setup))
    history = [{"index": 0, "input": None, "events": events}]
    for index, inp in enumerate(inputs, start=1):
        try:
            state, events = apply(state, inp)
        except Exception as error:
            if hasattr(error, "params"):
                error.params["line"] = index + 1
            raise
        history.append({"index": index, "input": inp, "events": events})
    return state, history
