"""A game is its record: the state is derived by replaying the inputs.

Undo is a replay without the last input; redo puts it back. Game keeps the
state in memory (replay is fast, see benchmarks/engine_speed.py) and knows
nothing of storage: companion/session.py saves each input before it is
acknowledged. The record's header names its game on the shelf (companion/games/;
none named: the shelf's first), and Game asks that game for its rules.
"""

from . import games
from .record import Record
from .games.errors import RuleError


class ReplayError(ValueError):
    """A record line the rules refuse: which line and why."""

    def __init__(self, line: int, error: RuleError):
        super().__init__(f"line {line}: {error}")
        self.line = line
        self.error = error


def initial_state(header: dict, rules: games.Rules | None = None) -> tuple[dict, list]:
    rules = rules or games.load(games.game_of(header))
    if "setup" in header:
        return rules.start(rules.new_state(header["setup"]))
    return rules.start(rules.from_position(header["position"]))


class Game:
    def __init__(self, record: Record, redo: list | None = None):
        self.record = Record(dict(record.header), [], record.lines)
        self.redo_stack: list = list(redo or [])
        try:
            self.rules = games.load(games.game_of(self.record.header))
            self._start, self._start_events = initial_state(self.record.header, self.rules)
        except RuleError as exc:
            raise ReplayError(1, exc) from None
        self.state = self.rules.copy_state(self._start)
        self.history: list[dict] = []
        for i, inp in enumerate(record.inputs):
            try:
                self._push(inp)
            except RuleError as exc:
                raise ReplayError(record.line_of(i), exc) from None

    @classmethod
    def new(cls, setup: dict, meta: dict | None = None, game: str = games.DEFAULT) -> "Game":
        return cls(Record.new(setup=setup, meta=meta, game=game))

    @classmethod
    def from_position(cls, position: dict, meta: dict | None = None, game: str = games.DEFAULT) -> "Game":
        return cls(Record.new(position=position, meta=meta, game=game))

    @classmethod
    def from_jsonl(cls, text: str) -> "Game":
        return cls(Record.from_jsonl(text))

    @property
    def version(self) -> int:
        """How many inputs are applied: a page sends it back with its input (stale pages are refused)."""
        return len(self.record.inputs)

    @property
    def game_id(self) -> str:
        """The id of the game on the shelf this record is of."""
        return self.rules.id

    @property
    def names(self) -> list[str]:
        return self.rules.seat_names(self.state)

    @property
    def start_events(self) -> list[dict]:
        return self._start_events

    def expected(self) -> dict:
        return self.rules.expected(self.state)

    def score(self) -> dict | None:
        """The final tally with its breakdown (provisional before the end, where the game can say)."""
        return self.rules.score(self.state)

    def check(self, inp: object) -> tuple[dict, list, dict]:
        """Apply to a copy: (new state, events, the clean input); RuleError leaves all as it was."""
        state = self.rules.copy_state(self.state)
        events = self._apply_in_place(state, inp)
        return state, events, self.rules.normalize(inp)

    def commit(self, state: dict, events: list, clean: dict, keep_redo: bool = False) -> None:
        """Adopt what `check` computed (call once it is saved)."""
        self.state = state
        self.record.inputs.append(clean)
        self.history.append({"index": len(self.record.inputs) - 1, "input": clean, "events": events})
        if not keep_redo:
            self.redo_stack.clear()

    def apply(self, inp: object) -> list[dict]:
        state, events, clean = self.check(inp)
        self.commit(state, events, clean)
        return events

    def _push(self, inp: object) -> None:
        """Replay one input in place (no copy: a refused one stops the whole replay anyway)."""
        clean = self.rules.normalize(inp)
        events = self._apply_in_place(self.state, clean)
        self.commit(self.state, events, clean, keep_redo=True)

    def _apply_in_place(self, state: dict, inp: object) -> list[dict]:
        try:
            return self.rules.apply_in_place(state, inp)
        except RuleError as exc:
            raise self._not_needed(exc) from None

    def _not_needed(self, exc: RuleError) -> RuleError:
        """A line of a kind the last step skipped (nothing to take, no donation possible, one
        tile left...): say that no such line is needed here, and why."""
        last = self.history[-1]["events"] if self.history else self._start_events
        skipped = self.rules.skipped_step(exc, last)
        if skipped is None:
            return exc
        from .shelf import words_for       # the English words of the event that stood for the step
        params = dict(exc.params, skipped=skipped, names=self.names)
        message = words_for(self.rules.id, "en").refusal({"key": "not_needed", "params": params})
        return RuleError("illegal", message, exc.rule, "not_needed", params)

    def undo(self) -> dict:
        """Take back the last input (replay without it); returns the input taken back."""
        return self.take_back(1)[0]

    def take_back(self, count: int) -> list[dict]:
        """Take back the last `count` inputs in one replay; returns them in record order.

        They go on the redo stack latest first, so REDO puts back the earliest first."""
        if not 1 <= count <= len(self.record.inputs):
            raise RuleError("illegal", "nothing to undo")
        taken = self.record.inputs[-count:]
        self._replay(self.record.inputs[:-count])
        self.redo_stack.extend(reversed(taken))
        return taken

    def redo(self) -> list[dict]:
        if not self.redo_stack:
            raise RuleError("illegal", "nothing to redo")
        inp = self.redo_stack[-1]
        state, events, clean = self.check(inp)
        self.redo_stack.pop()
        self.commit(state, events, clean, keep_redo=True)
        return events

    def _replay(self, inputs: list) -> None:
        self.state = self.rules.copy_state(self._start)
        self.record.inputs = []
        self.history = []
        for inp in inputs:
            self._push(inp)
