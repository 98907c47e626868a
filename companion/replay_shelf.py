"""`companion replay` for a game of the shelf other than Atlandice: the events, the table
and the tally in words, from the game's own catalogs (companion/shelf.py).

The table is the game's public view (`view(state)`: counts anyone at the table may see);
the tally is its result: per seat, each colour's explorers saved and lost, their values
and points, the total, the winners.
"""

from __future__ import annotations

import json

from .game import Game
from .i18n import catalog
from .shelf import words_for


def render_events(game: Game, lang: str) -> str:
    words = words_for(game.game_id, lang)
    names = words.names(game.state)
    cli = catalog(lang)["cli"]
    lines = [f"1: {cli['setup']} ({', '.join(names)})"]
    lines += [f"   {words.event(ev, names)}" for ev in game.start_events]
    for entry in game.history:
        inp = entry["input"]
        fields = " ".join(_field(v) for k, v in inp.items() if k not in ("type", "source", "note") and v is not None)
        lines.append(f"{game.record.line_of(entry['index'])}: {inp['type']} {fields}".rstrip())
        lines += [f"   {words.event(ev, names)}" for ev in entry["events"]]
    return "\n".join(lines)


def _field(value: object) -> str:
    """An input's field in notation: a list as a,b,c; a mapping as key:a,b key:c."""
    if isinstance(value, dict):
        return " ".join(f"{k}:{_field(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def render_table(game: Game, lang: str, with_score: bool = True) -> str:
    words = words_for(game.game_id, lang)
    view = getattr(game.rules.module, "view", None)
    if view is None:
        return json.dumps(game.state, ensure_ascii=False, indent=1)
    v = view(game.state)
    names = words.names(game.state)
    page = words.page
    lines = [page("turn_n", n=v["turn"])]
    left = ", ".join(f"{words.word('terrain', t)} {n}" for t, n in v["terrain_left"].items())
    lines.append(f"{page('terrain_left')}: {left}")
    lines.append(page("volcano_odds", n=v["volcano_under_one_of"]) if v["volcano_under_one_of"] is not None
                 else page("volcano_found"))
    for creature, n in v["creatures"].items():
        lines.append(f"{words.word('creature', creature)}: {n['board']} {page('on_board')}, "
                     f"{n['supply']} {page('in_supply')}, {n['gone']} {page('gone')}")
    b = v["boats"]
    lines.append(f"{page('boats')}: {b['board']} {page('on_board')}, {b['supply']} {page('in_supply')}, "
                 f"{b['gone']} {page('gone')}")
    lines.append("")
    width = max(10, *(len(n) for n in names))
    for seat, name in enumerate(names):
        for colour in v["colours"][seat]:
            e = v["explorers"][colour]
            lines.append(f"{name:<{width}} {words.word('colour', colour):<10} {e['in_play']:>2} {page('in_play')}, "
                         f"{e['saved']:>2} {page('saved')}, {e['lost']:>2} {page('lost')}")
        lines[-1] += f"; {v['hands'][seat]} {page('hand')}"
    prompt = game.expected()
    if prompt["kind"] != "over":
        lines += ["", f"{catalog(lang)['cli']['next']}: {words.prompt(prompt, names)}"]
    if with_score or game.state["over"]:
        lines += [""] + _tally_lines(game, lang)
    return "\n".join(lines)


def render_score(game: Game, lang: str) -> str:
    return score_sheet(game, lang, _tally_lines(game, lang))


def score_sheet(game: Game, lang: str, lines: list[str]) -> str:
    """A score sheet's title (provisional before the end), then the game's own `lines`."""
    cli = catalog(lang)["cli"]
    title = cli["score_title"] + ("" if game.state["over"] else f" ({cli['provisional']})")
    return "\n".join([title, ""] + lines)


def _tally_lines(game: Game, lang: str) -> list[str]:
    """Each seat's colours: saved, lost, the values shown and the points; the total; the winners.
    Before the end: the explorers saved and lost so far (their values are still hidden)."""
    words = words_for(game.game_id, lang)
    page = words.page
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
            points = "" if line["points"] is None else f" = {line['points']} {page('points')}"
            lines.append(f"{names[s['seat']]:<{width}} {words.word('colour', line['colour']):<10} "
                         f"{line['saved']:>2} {page('saved')}, {line['lost']:>2} {page('lost')}{shown}{points}")
        if s["total"] is not None:
            lines.append(f"{'':<{width}} {page('total')}: {s['total']}")
    if result is not None:
        winners = [names[w] for w in result["winners"]]
        lines.append(page("winners_shared" if result["shared"] else "winner", names=", ".join(winners)))
    return lines
