"""`companion replay FILE`: apply a game record and print the state, the score or a table.

A line that is not understood or breaks a rule stops the replay: exit status
2 and "FILE: line N: why" on stderr. Nothing is printed on stdout then.
"""

import json
import sys

from .game import Game, ReplayError
from .i18n import catalog, seat_labels, word
from .record import RecordError
from .rules.final_scoring import score_state
from .rules.names import AREAS, DISTRICTS, RESOURCES


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
    try:
        game = Game.from_jsonl(text)
    except (RecordError, ReplayError) as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2
    lang = getattr(args, "lang", None) or "en"
    if args.table:
        print(render_table(game, lang, with_score=args.score))
    elif args.score:
        print(json.dumps(score_of(game.state), ensure_ascii=False, indent=1))
    else:
        print(json.dumps({"version": game.version, "state": game.state, "expected": game.expected()},
                         ensure_ascii=False, indent=1))
    return 0


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
        lines += ["", f"{cli['next']}: {prompt['kind']} {who}".rstrip()]
    if with_score or state["over"]:
        score = score_of(state)
        lines += ["", f"{cli['resource']:<{width}} " + " ".join(f"{n[:8]:>8}" for n in names)]
        for r in RESOURCES:
            line = score["resources"][r]
            label = word(lang, "resources", r) + (f" ({cli['depleted']})" if line["depleted"] else "")
            lines.append(f"{label:<{width}} " + " ".join(f"{c:>3} {p:>+3} " for c, p in zip(line["counts"], line["points"])))
        for key, values in ((cli["tile_points"], score["tile_points"]), (cli["tokens"], score["tokens"]),
                            (cli["total"], score["total"])):
            lines.append(f"{key:<{width}} " + " ".join(f"{v:>8}" for v in values))
        winners = " ".join(names[s] for s in score["winners"])
        lines.append(f"{cli['winners']}: {winners}" + ("" if state["over"] else " (…)"))
    return "\n".join(lines)
