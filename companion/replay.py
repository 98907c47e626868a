"""`companion replay FILE`: apply a game record and print what happened, the score or a table.

A line that is not understood or breaks a rule stops the replay: exit status
2 and "FILE: line N: why" on stderr. Nothing is printed on stdout then.
A record whose setup or position has no board profile is replayed with the
installed one (the page's), and stderr says so. The record's first line names its
game (none named: Atlandice); the game's own text module (`Rules.text`: its notation,
table and score lines) says its table and score, the same frame around them for every game.
"""

import json
import sys

from . import games
from .game import Game, ReplayError
from .games.errors import RuleError
from .i18n import catalog, fill
from .record import Record, RecordError, decode
from .shelf import words_for


def main_replay(args) -> int:
    lang = getattr(args, "lang", None) or "en"
    try:
        record = Record.from_jsonl(decode(args.file.read_bytes()))     # not UTF-8: the line is named
        installed = getattr(args, "installed_profile", None) or _default_profile
        game_id = games.game_of(record.header)
        used = fill_in_profile(record.header, lambda: installed(game_id))
        game = Game(record)
    except (RecordError, ReplayError) as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2
    if used is not None:
        cli = catalog(lang)["cli"]
        print(f"{args.file}: " + fill(cli["profile_default"], {
            "name": used["name"], "state": cli["confirmed" if used.get("confirmed") else "unconfirmed"]}),
            file=sys.stderr)
    events, table, score = (getattr(args, k, False) for k in ("events", "table", "score"))
    if getattr(args, "json", False) or not (events or table or score):
        data = game.score() if score else {"version": game.version, "state": game.state,
                                           "expected": game.expected()}
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    words, cli = words_for(game.game_id, lang), catalog(lang)["cli"]
    parts = []
    if events:
        parts.append(render_events(game, words, cli))
    if table:
        parts.append(render_table(game, words, cli, with_score=score))
    elif score:
        parts.append(render_score(game, words, cli))
    print("\n\n".join(parts))
    return 0


def _default_profile(game_id: str) -> dict:
    """The game's own default profile; an unknown game: none (the replay says why, on line 1)."""
    from .shelf import default_profile
    try:
        return default_profile(game_id)
    except RuleError:
        return {}


def fill_in_profile(header: dict, installed=None) -> dict | None:
    """Give a setup or position without a board profile the installed one; return it, or None
    when the record has its own. `installed`: a function returning it (default: the game's own)."""
    start = header.get("setup", header.get("position"))
    if not isinstance(start, dict) or "profile" in start:
        return None
    if installed is None:
        game_id = games.game_of(header)
        installed = lambda: _default_profile(game_id)       # noqa: E731
    start["profile"] = installed()
    return start["profile"]


def render_events(game: Game, words, cli: dict) -> str:
    """Every input in the game's notation with what it did, in words, each ruling named."""
    names = words.names(game.state)
    notation = getattr(game.rules.text, "notation", plain_notation)
    lines = [f"1: {cli['setup'] if 'setup' in game.record.header else cli['position']} ({', '.join(names)})"]
    lines += [f"   {words.event(ev, names)}" for ev in game.start_events]
    for entry in game.history:
        lines.append(f"{game.record.line_of(entry['index'])}: {notation(entry['input'])}")
        lines += [f"   {words.event(ev, names)}" for ev in entry["events"]]
    return "\n".join(lines)


def plain_notation(inp: dict) -> str:
    """An input as a line, for a game with no notation of its own: its type, then its fields
    (a list as a,b,c; a mapping as key:a,b key:c)."""
    fields = " ".join(_field(v) for k, v in inp.items() if k not in ("type", "source", "note") and v is not None)
    return f"{inp['type']} {fields}".rstrip()


def _field(value: object) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}:{_field(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def render_table(game: Game, words, cli: dict, with_score: bool = True) -> str:
    """The game's table (its text module's table_lines), then its score sheet when asked or over."""
    lines = game.rules.text.table_lines(game, words, cli)
    if with_score or game.state["over"]:
        lines += [""] + game.rules.text.score_lines(game, words, cli)
    return "\n".join(lines)


def render_score(game: Game, words, cli: dict) -> str:
    """The score sheet: its title (provisional before the end), then the game's own lines."""
    title = cli["score_title"] + ("" if game.state["over"] else f" ({cli['provisional']})")
    return "\n".join([title, ""] + game.rules.text.score_lines(game, words, cli))
