"""Atlandice's replay text (`companion replay --events --table --score`): each input in its
notation, the table (round, clock, stocks, Districts, Market) and the score sheet. `words`
is Atlandice's (companion/shelf.py), `cli` the command line's shared words (its catalog's
"cli" adds the words of Atlandice's sheet: clock, Submarine, tokens...); `game` a replayed
game (companion/game.py).
"""

from .inputs import notation
from .names import AREAS, DISTRICTS, RESOURCES

__all__ = ["notation", "score_lines", "table_lines"]


def table_lines(game, words, cli: dict) -> list[str]:
    cli = {**cli, **words.catalog["cli"]}
    state = game.state
    names = words.names(state)
    width = max(10, *(len(n) for n in names))
    lines = [f"{cli['round']} {state['round']} · {cli['clock']} {state['clock']}/{len(state['profile']['track']) - 1}"
             f" · {cli['submarine']}: {words.word('area', state['submarine'])}"]
    short = [words.word("resources", r)[:5] for r in RESOURCES]
    header = f"{'':<{width}} " + " ".join(f"{s:>6}" for s in short) + f" {cli['tokens']:>12} {cli['tiles']:>6}"
    lines += ["", header]
    for seat, name in enumerate(names):
        stock = state["stocks"][seat]
        lines.append(f"{name:<{width}} " + " ".join(f"{stock[r]:>6}" for r in RESOURCES)
                     + f" {state['tokens'][seat]:>12} {len(state['tiles'][seat]):>6}")
    lines.append("")
    for d in DISTRICTS:
        x = state["districts"][d]
        held = ", ".join(f"{n} {words.word('resource', r)}" for r, n in x["resources"].items() if n) or "-"
        top = x["top"] or cli["depleted"]
        lines.append(f"{words.word('area', d):<18} {top:<9} {held}")
    market = ", ".join(f"{n} {words.word('resource', r)}" for r, n in state["market"].items() if n) or "-"
    lines.append(f"{words.word('area', AREAS[-1]):<18} {'':<9} {market}")
    prompt = game.expected()
    if prompt["kind"] != "over":
        who = names[prompt["seat"]] if prompt.get("seat") is not None else ""
        lines += ["", f"{cli['next']}: {words.word('kinds', prompt['kind'])} {who}".rstrip()]
    return lines


def score_lines(game, words, cli: dict) -> list[str]:
    """One column per player: each resource's count and points, tile points, tokens, total, winners."""
    cli = {**cli, **words.catalog["cli"]}
    state = game.state
    names = words.names(state)
    score = game.score()
    labels = {r: words.word("resources", r) + (f" ({cli['depleted']})" if score["resources"][r]["depleted"] else "")
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
