"""The game record: a header and the inputs, one JSON object per line (like PGN).

    {"format": "atlandice-record", "version": 1, "game": <game id>, "setup": {...}, "meta": {...}}
    {"type": "gate_roll", "dice": [1, 4, 4, 6, 2, 5, 3], "source": "camera"}
    {"type": "pick", "area": "inn", "for": "self"}
    ...

The header names its game on the shelf (companion/games/; a header without
"game" is the shelf's first game's, as written before there was a shelf) and holds either a
`setup` (a fresh game) or a `position` (any table, by the game's `validate_position`). docs/record-format.md documents every line.
"""

import json
import re
from dataclasses import dataclass, field

from . import games, json_text

FORMAT = "atlandice-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read: says which line and why (`key` and `params`: the
    same reason as data, for the page to say in its language)."""

    def __init__(self, line: int, message: str, key: str, params: dict | None = None,
                 detail: str | None = None):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message
        self.key = key
        self.params = params or {}
        self.detail = detail      # a JSON parser's own (English) words


@dataclass
class Record:
    header: dict
    inputs: list = field(default_factory=list)
    # The file line of each input, when read from a file (for error messages).
    lines: list | None = field(default=None, compare=False, repr=False)

    @classmethod
    def new(cls, setup: dict | None = None, position: dict | None = None, meta: dict | None = None,
            game: str | None = None) -> "Record":
        if (setup is None) == (position is None):
            raise ValueError("a record starts from a setup or from a position")
        header = {"format": FORMAT, "version": VERSION, "game": game or games.DEFAULT}
        header["setup" if setup is not None else "position"] = setup if setup is not None else position
        if meta:
            header["meta"] = meta
        return cls(header)

    def line_of(self, index: int) -> int:
        """The file line of input `index` (0-based): the header is line 1."""
        return self.lines[index] if self.lines else index + 2

    def to_jsonl(self) -> str:
        lines = [json.dumps(self.header, ensure_ascii=False, sort_keys=False)]
        lines += [json.dumps(i, ensure_ascii=False) for i in self.inputs]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_jsonl(cls, text: str) -> "Record":
        """Parse; RecordError(line, why) for a line that is not JSON or a header that is wrong.

        Whether each input is legal is for the replay to say (Game.replay)."""
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if not lines:
            raise RecordError(1, "the record is empty: its first line must be the header", "record_empty")
        parsed = []
        for n, line in lines:
            try:
                parsed.append((n, json_text.loads(line)))
            except json_text.JSONTextError as exc:
                if exc.key == "json_syntax":
                    raise RecordError(n, exc.message, "record_json", detail=exc.detail) from None
                raise RecordError(n, exc.message, exc.key, exc.params) from None
        n, header = parsed[0]
        check_header(header, n)
        for n, inp in parsed[1:]:
            if not isinstance(inp, dict):
                raise RecordError(n, "an input must be a JSON object with a 'type'", "record_input")
        return cls(header, [inp for _, inp in parsed[1:]], [n for n, _ in parsed[1:]])


def decode(raw: bytes) -> str:
    """A record file's bytes as text: UTF-8, or RecordError naming the first line that is not
    (never a name quietly turned into U+FFFD)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise RecordError(line, "this line is not UTF-8 text", "record_encoding") from None


def check_header(header: object, line: int = 1) -> None:
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RecordError(line, f"the first line must be the header, with \"format\": \"{FORMAT}\"",
                          "record_header", {"format": FORMAT})
    if header.get("version") != VERSION:
        raise RecordError(line, f"record version {header.get('version')!r} is not supported (this companion reads version {VERSION})",
                          "record_version", {"version": json.dumps(header.get("version")), "supported": VERSION})
    if ("setup" in header) == ("position" in header):
        raise RecordError(line, "the header needs either a 'setup' or a 'position'", "record_start")


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?")


def record_date(header: dict) -> str | None:
    """The date a record's header gives for its game (meta "created", else "date": ISO, a day
    at least), as the text it starts with; None when it gives none."""
    meta = header.get("meta") if isinstance(header, dict) else None
    if not isinstance(meta, dict):
        return None
    for key in ("created", "date"):
        value = meta.get(key)
        found = _DATE.match(value) if isinstance(value, str) else None
        if found:
            return found.group(0).replace(" ", "T")
    return None
