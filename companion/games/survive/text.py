"""Survive's replay text (`companion replay --table --score`): the public table and the tally.

The table is the game's public view (`view(state)`: counts anyone at the table may see);
the tally is its result: per seat, each colour's explorers saved and lost, their values
and points, the total, the winners. `words` is the game's (companion/shelf.py), `cli` the
command line's shared words; `game` a replayed game (companion/game.py).
"""

from . import words as own
from .view import view


def table_lines(game, words, cli: dict) -> list[str]:
    """The public table (counts anyone at the table may see), then what comes next."""
    v = view(game.state)
    names = words.names(game.state)
    page = _page(words)
    counted = _counted(words)
    lines = [page("turn_n", n=v["turn"])]
    left = ", ".join(f"{words.word('terrain', t)} {n}" for t, n in v["terrain_left"].items())
    lines.append(f"{page('terrain_left')}: {left}")
    lines.append(page("volcano_odds", n=v["volcano_under_one_of"]) if v["volcano_under_one_of"] is not None
                 else page("volcano_found"))
    for name, n in [*((words.word("creature", c), n) for c, n in v["creatures"].items()),
                    (page("boats"), v["boats"])]:
        to_place = f", {n['to_place']} {page('to_place')}" if n.get("to_place") else ""   # the setup walk
        lines.append(f"{name}: {n['board']} {page('on_board')}, {n['supply']} {page('in_supply')}, "
                     f"{n['gone']} {page('gone')}{to_place}")
    lines.append("")
    width = max(10, *(len(n) for n in names))
    for seat, name in enumerate(names):
        for colour in v["colours"][seat]:
            e = v["explorers"][colour]
            lines.append(f"{name:<{width}} {words.word('colour', colour):<10} {e['in_play']:>2} {page('in_play')}, "
                         f"{e['saved']:>2} {counted('saved_n', e['saved'])}, {e['lost']:>2} {counted('lost_n', e['lost'])}")
        lines[-1] += f"; {v['hands'][seat]} {counted('hand_n', v['hands'][seat])}"
    prompt = game.expected()
    if prompt["kind"] != "over":
        lines += ["", f"{cli['next']}: {words.prompt(prompt, names)}"]
    return lines


def score_lines(game, words, cli: dict) -> list[str]:
    """Each seat's colours: saved, lost, the values shown and the points; the total; the winners.
    Before the end: the explorers saved and lost so far (their values are still hidden)."""
    page = _page(words)
    counted = _counted(words)
    names = words.names(game.state)
    result = game.score()
    if result is None:
        seats = [{"seat": s, "total": None, "colours": [
            dict(game.state["explorers"][c], colour=c, values=[], points=None) for c in colours]}
            for s, colours in enumerate(game.state["colours"])]
    else:
        seats = result["seats"]
    width = max(10, *(len(n) for n in names))
    lines = []
    for s in seats:
        for line in s["colours"]:
            shown = f"; {page('values')}: " + " + ".join(map(str, line["values"])) if line["values"] else ""
            points = "" if line["points"] is None else f" = {line['points']} {counted('points_n', line['points'])}"
            lines.append(f"{names[s['seat']]:<{width}} {words.word('colour', line['colour']):<10} "
                         f"{line['saved']:>2} {counted('saved_n', line['saved'])}, "
                         f"{line['lost']:>2} {counted('lost_n', line['lost'])}{shown}{points}")
        if s["total"] is not None:
            lines.append(f"{'':<{width}} {page('total')}: {s['total']}")
    if result is not None:
        winners = [names[w] for w in result["winners"]]
        lines.append(page("winners_shared" if result["shared"] else "winner", names=", ".join(winners)))
    return lines


def _page(words):
    """The page's words, a count choosing the form where a line has forms ("1 point")."""
    return lambda key, **params: own.page(words.catalog, key, **params)


def _counted(words):
    """The word that follows a count, in its form for that count: 1 "perdido", 2 "perdidos"."""
    return lambda key, n: own.page(words.catalog, key, n=n)


def notation(inp: dict) -> str:
    """An input as one line: its type and fields; a yes/no field said by its name when true
    (`remove beach surrounded`) and left out when false (`remove beach`)."""
    parts = [str(inp["type"])]
    for key, value in inp.items():
        if key in ("type", "source", "note") or value is None or value is False:
            continue
        if value is True:
            parts.append(key)
        elif isinstance(value, list):
            parts.append(",".join(map(str, value)))
        else:
            parts.append(str(value))
    return " ".join(parts)
