"""The Donation on the table page: "Nobody (more) donates" first, then each player's gifts, a
count beside each resource; one tap ends it (issue 43 item 2)."""

from __future__ import annotations

import json
import re


from tests.games.atlandice.conftest import pick, profile, table, take  # noqa: F401
from .conftest import post


def at_donation(game_session, profile):
    game = table(profile, 3, dice=[2, 6], picks_done=5, clock=5 - profile["icons"]["L-high"],
                 tops={"library": "L-high"}, submarine="inn", first=1,
                 stocks={0: {"tool": 1}, 1: {"book": 3}, 2: {"weapon": 2, "tool": 2}})
    game_session.game, game_session.game_id = game, game_session.store.create(game.record.header)
    game_session.submit(pick("market"), game.version)
    game_session.submit(take("gem"), game.version)
    assert game.expected()["kind"] == "donate"


def buttons(page: str) -> list[tuple[str, dict]]:
    found = re.findall(r'<button type="button" class="option" data-input="([^"]+)">(.*?)</button>', page, re.S)
    return [(re.sub(r"<[^>]+>", "", label).strip(), json.loads(inp.replace("&#34;", '"'))) for inp, label in found]


def test_the_donation_prompt_is_the_whole_tables_and_ends_in_one_tap(paired, game_session, profile):
    at_donation(game_session, profile)
    page = paired.get("/live?lang=en").get_data(as_text=True)
    shown = buttons(page)
    assert shown[0] == ("Nobody (more) donates", {"type": "donate", "all": True})
    assert ("2 Books", {"type": "donate", "seat": 1, "give": {"book": 2}}) in [(t.replace("2×", "").strip(), i) for t, i in shown] or \
        any(i == {"type": "donate", "seat": 1, "give": {"book": 2}} for _, i in shown)
    assert all("pair" not in i for _, i in shown), "one player's pair, then done: not offered on the page"
    assert "Eric gives back" in page and "Bruno gives back" in page
    assert 'class="icon-txt">2×</span>' in page                       # the count beside the resource
    pt = paired.get("/live?lang=pt-BR").get_data(as_text=True)
    assert "Ninguém (mais) doa" in pt and "devolve" in pt
    version = game_session.game.version
    r = post(paired, "/api/input?lang=en", {"input": {"type": "donate", "all": True}, "version": version})
    assert r.status_code == 200 and game_session.game.expected()["kind"] == "gate_roll"
    assert "Nobody more donates: the Donation is over." in r.json["text"]
