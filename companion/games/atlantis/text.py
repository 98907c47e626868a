"""Atlantis's replay text (`companion replay --events --table --score`): the path, the
players and the score, from Atlantis's own catalogs; each input's line in its notation
(citizens counted from 1). `words` is the game's (companion/shelf.py), `cli` the command
line's shared words; `game` a replayed game (companion/game.py).
"""

from . import words as atl
from .view import view
from .words import notation

__all__ = ["notation", "score_lines", "table_lines"]


def table_lines(game, words, cli: dict) -> list[str]:
    """The path's top tiles (never an unseen lower one), who stands where, each player's hand,
    tiles and bridge, then what comes next."""
    cat, page = words.catalog, words.page
    names = words.names(game.state)
    v = view(game.state)
    lines = [page("path_title")]
    for s in v["path"]:
        what = atl.tile(s["tile"], cat) if s["tile"] else (words.word("words", "water") if s["water"] else "?")
        extra = [page("stack_under")] if s["stack"] > 1 else []
        if s["bridge"] is not None:
            extra.append(page("bridge_of", name=names[s["bridge"]]))
        if s["citizen"]:
            extra.append(page("citizen_of", name=names[s["citizen"]["seat"]], n=s["citizen"]["citizen"] + 1))
        lines.append(f"{s['position']:>3} {what}" + (f" ({'; '.join(extra)})" if extra else ""))
    for key, group in (("on_atlantis", v["on_atlantis"]), ("on_mainland", v["home"])):
        there = [f"{names[s]} {', '.join(str(c + 1) for c in cs)}" for s, cs in enumerate(group) if cs]
        lines.append(f"{page(key)}: {'; '.join(there) or cat['words']['nobody']}")
    lines.append(f"{page('draw_pile', n=v['draw_pile'])} · {page('discard', n=v['discard'])}")
    lines.append("")
    width = max(10, *(len(n) for n in names))
    for seat, name in enumerate(names):
        tiles = ", ".join(atl.tile(t, cat) for t in v["held"][seat])
        lines.append(f"{name:<{width}} {page('cards')} {v['hands'][seat]}, {page('tiles')} {v['points'][seat]}"
                     + (f" ({tiles})" if tiles else "") + ", "
                     + page("bridge_built" if v["bridge_built"][seat] else "bridge_ready"))
        lines.append(f"{'':<{width}} " + " · ".join(f"{c + 1}: {atl.place(p, cat)}"
                                                      for c, p in enumerate(v["citizens"][seat])))
    prompt = game.expected()
    if prompt["kind"] != "over":
        lines += ["", f"{cli['next']}: {words.prompt(prompt, names)}"]
    return lines


def score_lines(game, words, cli: dict) -> list[str]:
    """Each player's tiles + cards - crossings settled = total, each settlement, the winners.
    Before the end: the tiles held and the cards in hand so far (nothing is settled yet)."""
    cat, page = words.catalog, words.page
    names = words.names(game.state)
    width = max(10, *(len(n) for n in names))
    result = game.score()
    lines = []
    if result is None or result.get("provisional"):
        v = view(game.state)
        for seat, name in enumerate(names):
            lines.append(f"{name:<{width}} {page('tiles')} {v['points'][seat]} + {page('cards')} {v['hands'][seat]}")
        return lines
    for s in result["scores"]:
        lines.append(f"{names[s['seat']]:<{width}} {page('tiles')} {s['tile_points']} + {page('cards')} {s['cards']}"
                     f" - {page('crossings')} {s['payments']} = {page('total')}: {s['total']}")
        if s["tiles"]:
            lines.append(f"{'':<{width}} {page('tiles')}: " + ", ".join(atl.tile(t, cat) for t in s["tiles"]))
        for p in s["settlement"]:
            lines.append(f"{'':<{width}} " + page("settled", n=p["citizen"] + 1, where=atl.place(p["from"], cat),
                                                  cost=p["cost"]))
    winners = ", ".join(names[w] for w in result["winners"])
    lines.append(page("winners_shared" if len(result["winners"]) > 1 else "winner", names=winners,
                      total=result["best"]))
    return lines
