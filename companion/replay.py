"""`companion replay FILE`: apply a game record and print what happened, the score or a table.

A line that is not understood or breaks a rule stops the replay: exit status
2 and "FILE: line N: why" on stderr. Nothing is printed on stdout then.
A record whose setup or position has no board profile is replayed with the
installed one (the page's), and stderr says so. The record's first line names its
game (none named: Atlandice); another game's record is said by companion/replay_shelf.py.
"""

import json
import sys

from . import games
from .game import Game, ReplayError
from .i18n import catalog, fill, render, seat_labels, word
from .record import Record, RecordError
from .games.atlandice import RuleError
from .games.atlandice.inputs import notation
from .games.atlandice.final_scoring import score_state
from .games.atlandice.names import AREAS, DISTRICTS, RESOURCES


def score_of(state: dict) -> dict:
    """The final scoring breakdown; before the end, what it would be now (marked provisional)."""
    if state["over"]:
        return dict(state["result"], provisional=False)
    return dict(score_state(state), provisional=True)


def main_replay(args) -> int:
    try:
        text = args.file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        print(f"{args.file}: not a text file", file=sys.stderr)
        return 2
    lang = getattr(args, "lang", None) or "en"
    try:
        record = Record.from_jsonl(text)
        installed = getattr(args, "installed_profile", None)
        game_id = games.game_of(record.header)
        if game_id != games.DEFAULT:       # the game's own default profile (a known game, or line 1 says why not)
            installed = _shelf_profile(game_id)
        used = fill_in_profile(record.header, installed)
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
    if game.game_id == "atlantis":
        from . import replay_atlantis as text
    elif game.game_id != games.DEFAULT:
        from . import replay_shelf as text
    else:
        text = None
    parts = []
    if text is not None:
        if events:
            parts.append(text.render_events(game, lang))
        if table:
            parts.append(text.render_table(game, lang, with_score=score))
        elif score:
            parts.append(text.render_score(game, lang))
        print("\n\n".join(parts))
        return 0
    if events:
        parts.append(render_events(game, lang))
    if table:
        parts.append(render_table(game, lang, with_score=score))
    elif score:
        parts.append(render_score(game, lang))
    print("\n\n".join(parts))
    return 0


def _shelf_profile(game_id: str):
    def load() -> dict:
        from .shelf import default_profile
        try:
            return default_profile(game_id)
        except RuleError:      # an unknown game: the replay says so, on line 1
            return {}
    return load


def fill_in_profile(header: dict, installed=None) -> dict | None:
    """Give a setup or position without a board profile the installed one; return it, or None
    when the record has its own. `installed`: a function returning it (default: the shipped one)."""
    start = header.get("setup", header.get("position"))
    if not isinstance(start, dict) or "profile" in start:
        return None
    if installed is None:
        from .board_profile import load_profile
        installed = load_profile
    start["profile"] = installed()
    return start["profile"]


def render_events(game: Game, lang: str) -> str:
    """Every input in notation with what it did, in words, each ruling named."""
    names = seat_labels(game.names, game.state["neutral"], lang)
    cli = catalog(lang)["cli"]
    header = game.record.header
    lines = [f"1: {cli['setup'] if 'setup' in header else cli['position']} ({', '.join(names)})"]
    lines += [f"   {render(ev, lang, names)}" for ev in game.start_events]
    for entry in game.history:
        inp = entry["input"]
        lines.append(f"{game.record.line_of(entry['index'])}: {notation(inp)}")
        lines += [f"   {render(ev, lang, names)}" for ev in entry["events"]]
    return "\n".join(lines)


def render_score(game: Game, lang: str) -> str:
    """The score sheet for people: one column per player, the resources, tiles, tokens, total."""
    state = game.state
    cli = catalog(lang)["cli"]
    names = seat_labels(game.names, state["neutral"], lang)
    title = cli["score_title"] + ("" if state["over"] else f" ({cli['provisional']})")
    return "\n".join([title, ""] + _score_lines(state, names, lang))


def render_table(game: Game, lang: str, with_score: bool = True) -> str:
    state = game.state
    cat = catalog(lang)
    cli = cat["cli"]
    names = seat_labels(game.names, state["neutral"], lang)
    width = max(10, *(len(n) for n in names))
    lines = [f"{cli['round']} {state['round']} · {cli['clock']} {state['clock']}/{len(state['profile']['track']) - 1}"
             f" · {cli['submarine']}: {word(lang, 'area', state['submarine'])}"]
    short = [word(lang, "resources", r)[:5] for r in RESOURCES]
    header = f"{'':<{width}} " + " ".join(f"{s:>6}" for s in short) + f" {cli['tokens']:>12} {cli['tiles']:>6}"
    lines += ["", header]
    for seat, name in enumerate(names):
        stock = state["stocks"][seat]
        lines.append(f"{name:<{width}} " + " ".join(f"{stock[r]:>6}" for r in RESOURCES)
                     + f" {state['tokens'][seat]:>12} {len(state['tiles'][seat]):>6}")
    lines.append("")
    for d in DISTRICTS:
        x = state["districts"][d]
        held = ", ".join(f"{n} {word(lang, 'resource', r)}" for r, n in x["resources"].items() if n) or "-"
        top = x["top"] or cli["depleted"]
        lines.append(f"{word(lang, 'area', d):<18} {top:<9} {held}")
    market = ", ".join(f"{n} {word(lang, 'resource', r)}" for r, n in state["market"].items() if n) or "-"
    lines.append(f"{word(lang, 'area', AREAS[-1]):<18} {'':<9} {market}")
    prompt = game.expected()
    if prompt["kind"] != "over":
        who = names[prompt["seat"]] if prompt.get("seat") is not None else ""
        lines += ["", f"{cli['next']}: {word(lang, 'kinds', prompt['kind'])} {who}".rstrip()]
    if with_score or state["over"]:
        lines += [""] + _score_lines(state, names, lang)
    return "\n".join(lines)


def _score_lines(state: dict, names: list[str], lang: str) -> list[str]:
    cli = catalog(lang)["cli"]
    score = score_of(state)
    labels = {r: word(lang, "resources", r) + (f" ({cli['depleted']})" if score["resources"][r]["depleted"] else "")
              for r in RESOURCES}
    rows = [cli["resource"], cli["tile_points"], cli["tokens"], cli["total"], *labels.values()]
    width = max(len(x) for x in rows)     # the longest label sets the first column
    cw = max(8, *(len(n) for n in names))  # and the longest name the others
    lines = [f"{cli['resource']:<{width}} " + " ".join(f"{n:>{cw}}" for n in names)]
    for r in RESOURCES:
        line = score["resources"][r]
        lines.append(f"{labels[r]:<{width}} " + " ".join(f"{f'{c} {p:+d}':>{cw}}" for c, p in zip(line["counts"], line["points"])))
    for key, values in ((cli["tile_points"], score["tile_points"]), (cli["tokens"], score["tokens"]),
                        (cli["total"], score["total"])):
        lines.append(f"{key:<{width}} " + " ".join(f"{v:>{cw}}" for v in values))
    winners = ", ".join(names[s] for s in score["winners"])
    lines.append(f"{cli['winners']}: {winners}" + ("" if state["over"] else " (…)"))
    return lines
