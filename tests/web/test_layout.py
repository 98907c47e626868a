"""The table at the three sizes it is played on: the prompt's choices and the action bar on screen.

A landscape tablet (1280x800), a portrait one (800x1280) and a phone (390x844): every choice
of the prompt and every button of the action bar (UNDO, REDO, READ, CONFIRM) lies inside the
viewport and is not covered (the element at its centre is itself), on arrival and after an
input; the final table never scrolls sideways. The same for a game of Survive, each kind of
step once and its tally, in English and Brazilian Portuguese. Every word fits, in both languages
at the three sizes, on the tables of all three games: no button clips its text, neither the page
nor a column scrolls sideways, no word breaks mid-word. The camera's picture is never under the
action bar. Every card of every table can be scrolled to, at its end too. Keyboard: focus follows the game, Enter outside a text field throws nothing.
"""

from __future__ import annotations

import random

import pytest

from companion.game_profiles import load_profile
from companion.games.atlandice.simulate import random_input as atlandice_input
from companion.games.atlantis.simulate import random_input as atlantis_input
from companion.games.survive.simulate import random_input as survive_input
from companion.session import Session
from companion.store import GameStore
from web import create_app

from .fakes import FakeCamera, annotate, reader, tiny_png
from .test_accessibility import mid_game
from .test_browser import (CODE, browser, finished_record, serve, server, tablet, version,  # noqa: F401
                           wait_version_change)

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (800, 1280), (390, 844)]
LANGS = ["en", "pt-BR"]
CHOICES = "#prompt [data-input], #dice-entry [data-face], #slots .slot, #dice-enter"
BAR = "#panel .pbtn"

# Each element matched: inside the viewport and the topmost thing at its centre.
OFF_SCREEN = """sel => Array.from(document.querySelectorAll(sel)).filter(function (el) {
  var r = el.getBoundingClientRect();
  var inside = r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  var hit = inside && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(inside && hit && (hit === el || el.contains(hit)));
}).map(function (el) { var r = el.getBoundingClientRect();
  return (el.getAttribute('data-input') || el.getAttribute('data-face') || el.id || el.className) + ' at ' +
    Math.round(r.left) + ',' + Math.round(r.top); })"""


# Every word fits: the page and no part of it scrolls sideways, no button's text is wider than
# the button (scrollWidth > clientWidth: clipped or spilling), no word is split over two lines
# (a word: between spaces, hyphens, slashes and dashes, where a line may break).
FITS = """() => {
  var out = [], de = document.documentElement;
  function shown(el) { var r = el.getBoundingClientRect(); return r.width > 1 && r.height > 1; }
  function name(el) { return (el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' + el.className) +
    ' "' + el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40) + '"'; }
  if (de.scrollWidth > de.clientWidth) out.push('the page scrolls sideways: ' + de.scrollWidth + ' > ' + de.clientWidth);
  document.querySelectorAll('body *').forEach(function (el) {
    if (!shown(el)) return;
    var x = getComputedStyle(el).overflowX, over = el.scrollWidth - el.clientWidth;
    if (over > 0 && (x === 'auto' || x === 'scroll')) out.push('scrolls sideways: ' + name(el) + ' by ' + over);
    else if (over > 0 && el.matches('button, .button, .pbtn')) out.push('clipped: ' + name(el) + ' by ' + over);
  });
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), n, m, word = /[^\\s\\-\\/\u2013\u2014]{2,}/g;
  while ((n = walker.nextNode())) {
    var el = n.parentElement;
    if (!el || el.closest('svg, script, style') || !shown(el)) continue;
    word.lastIndex = 0;
    while ((m = word.exec(n.nodeValue))) {
      var r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      var tops = new Set(Array.from(r.getClientRects()).filter(function (b) { return b.width > 0; })
                         .map(function (b) { return Math.round(b.top); }));
      if (tops.size > 1) out.push('broken mid-word: "' + m[0] + '" in ' + name(el));
    }
  }
  return out;
}"""


def open_table(browser, url, size, lang="en", **kw):  # noqa: F811
    return tablet(browser, url, size=size, lang="en-GB" if lang == "en" else lang, **kw)


def assert_fits(page, at):
    assert page.evaluate(FITS) == [], at


def assert_on_screen(page, selector, at):
    assert page.locator(selector).count() > 0, (at, selector)
    assert page.evaluate(OFF_SCREEN, selector) == [], at


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_choices_and_the_action_bar_stay_on_screen(browser, server, size, lang):  # noqa: F811
    url, session = server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    page = open_table(browser, url, size, lang)
    assert_on_screen(page, CHOICES, "gate roll")
    assert_on_screen(page, BAR, "gate roll")
    before = version(page)
    for face in [1, 2, 3, 4, 5, 6, 2]:
        page.click(f"#dice-entry [data-face='{face}']")
    page.click("#dice-enter")
    wait_version_change(page, before)
    for step in range(4):                     # picks and resources, each after an input
        assert_on_screen(page, CHOICES, f"after input {step}")
        assert_on_screen(page, BAR, f"after input {step}")
        before = version(page)
        page.locator("#prompt [data-input]").first.click()
        wait_version_change(page, before)
    mid_game(session)                         # two players: the Neutral player's choices too
    page.wait_for_function("v => document.getElementById('live').getAttribute('data-version') === v",
                           arg=str(session.game.version))
    assert_on_screen(page, CHOICES, "two players, a pick")
    assert_on_screen(page, BAR, "two players, a pick")
    assert not page.errors


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("humans", [2, 4])
def test_the_final_table_never_scrolls_sideways(browser, server, size, humans):  # noqa: F811
    url, session = server
    session.load_record(finished_record(humans=humans)[0])
    page = open_table(browser, url, size)
    page.wait_for_selector("#final .breakdown")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    assert page.evaluate("() => { var s = document.querySelector('#final .scroll'); "
                         "return s.scrollWidth - s.clientWidth; }") <= 0
    assert_on_screen(page, BAR, "final")
    # the history is folded to the last round: the page stays short
    assert page.locator("#history-earlier").count() == 1
    assert not page.evaluate("() => document.getElementById('history-earlier').open")


def test_enter_outside_a_text_field_throws_nothing(browser, server):  # noqa: F811
    url, session = server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    page = open_table(browser, url, SIZES[0])
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for key in ("Enter", "Space", "ArrowDown", "Escape", "1"):
        page.keyboard.press(key)
    page.goto(url + "/check")
    page.keyboard.press("Enter")
    assert page.errors == []


def test_focus_follows_the_game_by_keyboard(browser, server):  # noqa: F811
    """After an input the focus is on the new prompt's first choice, never back on <body>."""
    url, session = server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}, 0)
    page = open_table(browser, url, SIZES[0])
    page.wait_for_selector("#prompt [data-input]")
    page.focus("#prompt [data-input]")
    before = version(page)
    page.keyboard.press("Enter")
    wait_version_change(page, before)
    page.wait_for_function("() => document.activeElement !== document.body")
    assert page.evaluate("() => document.activeElement === document.querySelector('#prompt [data-input]')")
    # UNDO by keyboard: the game moved back, focus is again on a choice of the prompt shown
    page.focus("#panel [data-button=undo]")
    before = version(page)
    page.keyboard.press("Enter")
    wait_version_change(page, before)
    page.wait_for_function("() => document.activeElement !== document.body")
    assert page.evaluate("() => !!document.activeElement.closest('#prompt, #panel')")
    # the skip link, first on the page, leads to the prompt
    page.reload()
    page.wait_for_selector("#conn.online")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.className") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "prompt"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_survive_choices_and_action_bar_stay_on_screen(browser, server, size, lang):  # noqa: F811
    url, session = server
    session.new_game({"players": ["Ana", "Bruno", "Caio", "Dora"], "first_player": 0, "challenges": []},
                     game="survive")
    page = open_table(browser, url, size, lang)
    assert_on_screen(page, CHOICES, "Survive setup")
    assert_on_screen(page, BAR, "Survive setup")
    for step in range(8):                        # the setup walk, by taps
        before = version(page)
        page.locator("#prompt [data-input]").first.click()
        wait_version_change(page, before)
    assert_on_screen(page, CHOICES, "Survive, the first turn")
    rng = random.Random(4)
    seen = set()
    while session.game.expected()["kind"] != "over" and len(seen) < 5:
        prompt = session.game.expected()
        if prompt["kind"] not in seen and prompt["options"]:   # each kind of step once, with its choices
            seen.add(prompt["kind"])
            page.wait_for_function("v => document.getElementById('live').getAttribute('data-version') === v",
                                   arg=str(session.game.version))
            assert_on_screen(page, CHOICES, f"Survive, {prompt['kind']}")
            assert_on_screen(page, BAR, f"Survive, {prompt['kind']}")
        session.submit(survive_input(rng, prompt), session.game.version)
    assert len(seen) == 5
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    while session.game.expected()["kind"] != "over":              # to the tally
        session.submit(survive_input(rng, session.game.expected()), session.game.version)
    page.wait_for_selector("#final .tally")
    assert_on_screen(page, BAR, "Survive, the tally")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    assert page.evaluate("() => { var s = document.querySelector('#final .scroll'); "
                         "return s.scrollWidth - s.clientWidth; }") <= 0
    assert page.locator("#history-earlier").count() == 1            # the history folded: the page stays short
    assert not page.errors


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_game_profile_page_never_scrolls_sideways(browser, server, size):  # noqa: F811
    url, _ = server
    page = open_table(browser, url, size)
    for lang in ("en", "pt-BR"):
        page.goto(f"{url}/profile/atlantis?lang={lang}")
        page.wait_for_selector("#game-profile-form")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0], ("atlantis", lang)
        page.goto(f"{url}/profile/survive?lang={lang}")
        page.wait_for_selector("#game-profile-form")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0], lang
        # the widest field, the table of tile backs, fits whole: its last column is reachable without scrolling it
        assert page.evaluate("() => { var s = document.querySelector('#field-backs .scroll'); "
                             "return s.scrollWidth - s.clientWidth; }") <= 0, lang


GAMES = [   # (game, setup, a random legal input from the session's game)
    ("atlandice", {"players": ["Anna", "Bruno", "Eric"], "first_player": 0},
     lambda rng, game: atlandice_input(rng, game.expected())),
    ("survive", {"players": ["Ana", "Bruno", "Caio", "Dora"], "first_player": 0, "challenges": []},
     lambda rng, game: survive_input(rng, game.expected())),
    ("atlantis", {"players": ["Ana", "Bruno"], "first_player": 0},
     lambda rng, game: atlantis_input(rng, game.state)),
]


def wait_shown(page, session):
    page.wait_for_function("v => document.getElementById('live').getAttribute('data-version') === v",
                           arg=str(session.game.version))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_word_fits_on_the_tables_of_all_three_games(browser, server, size, lang):  # noqa: F811
    """A whole game of each, looked at on the first prompt of each kind and at its end."""
    url, session = server
    page = open_table(browser, url, size, lang)
    for game, setup, random_input in GAMES:
        session.new_game(dict(setup), game=game)
        rng = random.Random(5)
        seen = set()
        for _ in range(2000):
            prompt = session.game.expected()
            if prompt["kind"] == "over":
                break
            if prompt["kind"] not in seen:
                seen.add(prompt["kind"])
                wait_shown(page, session)
                assert_fits(page, (game, prompt["kind"], session.game.version))
            session.submit(random_input(rng, session.game), session.game.version)
        assert session.game.expected()["kind"] == "over", game
        wait_shown(page, session)
        assert_fits(page, (game, "over"))
    if size[0] <= 600:                             # the phone's menu, opened: its links wrap, whole
        page.click("label[for=nav-toggle]")
        assert page.locator("header.top nav a").first.is_visible()
        assert_fits(page, "the menu")
        assert page.evaluate(OFF_SCREEN, "header.top nav a") == []
    assert not page.errors


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_connection_status_fits_offline_and_with_every_live_connection_in_use(browser, server, size, lang):  # noqa: F811
    """The header's status says more than "online" when the stream is lost or refused: it wraps in
    the header, the page never scrolls sideways (a lost stream under load did that on a tablet)."""
    url, session = server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    lost = open_table(browser, url, size, lang, home=False)
    lost.route("**/api/events*", lambda route: route.abort())       # the stream never gets through
    lost.goto(url + "/")
    lost.wait_for_selector("#conn.offline")
    assert_fits(lost, "offline")
    watchers = [open_table(browser, url, size, lang) for _ in range(4)]   # the server's 4 live slots
    refused = open_table(browser, url, size, lang, home=False)
    refused.goto(url + "/")
    refused.wait_for_selector("#conn.busy")
    assert_fits(refused, "busy")
    assert not lost.errors and not refused.errors and not any(w.errors for w in watchers)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_part_of_every_table_can_be_scrolled_to(browser, server, size):  # noqa: F811
    """Each card of each game's table (its history and its record's link too) comes on screen when
    scrolled to, mid-game and at the end with the final card above the columns; the bar stays."""
    url, session = server
    page = open_table(browser, url, size)
    for game, setup, random_input in GAMES:
        session.new_game(dict(setup), game=game)
        rng = random.Random(6)
        for at in ("mid-game", "over"):
            for _ in range(40 if at == "mid-game" else 2000):
                if session.game.expected()["kind"] == "over":
                    break
                session.submit(random_input(rng, session.game), session.game.version)
            wait_shown(page, session)
            cards = page.evaluate("() => Array.from(document.querySelectorAll('#live .card[id]')).map(e => e.id)")
            assert "history" in cards, (game, at, cards)
            for card in cards + ["history a[download]"]:
                sel = "#" + card
                page.locator(sel).first.scroll_into_view_if_needed()
                box = page.evaluate("s => { var r = document.querySelector(s).getBoundingClientRect(); "
                                    "return [r.top, r.bottom, window.innerHeight]; }", sel)
                assert box[0] < box[2] and box[1] > 0, (game, at, card, box)
            page.evaluate("() => document.querySelectorAll('.col-act, .col-table').forEach(c => c.scrollTop = 0)")
            assert_on_screen(page, BAR, (game, at))
    assert not page.errors


@pytest.fixture
def camera_server(tmp_path):
    """The app on waitress with a camera that reads 1 2 3 4 5 6 2 and a picture as large as a real one."""
    store = GameStore(tmp_path / "g.sqlite3")
    session = Session(store, load_profile(), camera=FakeCamera([[1, 2, 3, 4, 5, 6, 2]]), reader=reader,
                      annotate=annotate, encode_png=lambda frame: tiny_png(640, 480))
    app = create_app({"PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance", "SSE_HEARTBEAT": 15},
                     session=session)
    with serve(app) as url:
        yield url, session
    store.close()


# What covers the given element's corners (inset 3px): [] when it is on top at all four.
COVERED = """sel => { var el = document.querySelector(sel), r = el.getBoundingClientRect(), out = [];
  [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]]
  .forEach(function (p) { var hit = document.elementFromPoint(p[0], p[1]);
    if (hit !== el) out.push(Math.round(p[0]) + ',' + Math.round(p[1]) + ': ' + (hit ? (hit.id || hit.className || hit.tagName) : 'outside')); });
  return out; }"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_camera_picture_is_never_under_the_action_bar(browser, camera_server, size, lang):  # noqa: F811
    url, session = camera_server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    page = open_table(browser, url, size, lang)
    page.click("#panel [data-button=read]")
    page.wait_for_selector("#reading img.camera-img")
    # brought into view (by whatever scrolls), the whole picture shows, the action bar beside it;
    # tried again while the table is still being redrawn (a redraw's picture loads afresh)
    shown = ("() => { var img = document.querySelector('#reading img.camera-img');"
             " if (!img || !img.complete) return false; img.scrollIntoView({block: 'nearest'});"
             " return (" + COVERED + ")('#reading img.camera-img').length === 0; }")
    try:
        page.wait_for_function(shown, timeout=5000)
    except Exception:
        pass
    assert page.evaluate(COVERED, "#reading img.camera-img") == []
    assert_on_screen(page, BAR, "a reading")
    assert_fits(page, "a reading")
    if size[0] >= 1000:   # the landscape tablet: the bar covers no part of the prompt, as it arrives
        page.reload()
        page.wait_for_selector("#reading img.camera-img")
        assert page.evaluate("() => document.getElementById('prompt').getBoundingClientRect().bottom"
                             " <= document.getElementById('panel').getBoundingClientRect().top")
    assert not page.errors


def test_a_redrawn_landscape_table_keeps_its_columns_where_they_were_scrolled(browser, camera_server):  # noqa: F811
    """A reading (the table redrawn, no step taken) leaves each scrolled column where the reader put it."""
    url, session = camera_server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    rng = random.Random(3)
    for _ in range(60):
        session.submit(atlandice_input(rng, session.game.expected()), session.game.version)
    page = open_table(browser, url, (1280, 800))
    wait_shown(page, session)
    at = page.evaluate("() => { var c = document.querySelector('.col-table'); c.scrollTop = c.scrollHeight; "
                       "return c.scrollTop; }")
    assert at > 50   # the column does scroll at this point of the game
    change = page.evaluate("() => document.getElementById('live').getAttribute('data-change')")
    session.press("read")
    page.wait_for_function("c => document.getElementById('live').getAttribute('data-change') !== c", arg=change)
    page.wait_for_selector("#reading")
    assert page.evaluate("() => document.querySelector('.col-table').scrollTop") == at
    assert not page.errors


def test_the_prompt_stays_scrolled_on_the_camera_picture_until_the_step_changes(browser, camera_server):  # noqa: F811
    """Scrolled down to READ's picture, a redraw at the same step (the camera, a tablet) keeps the
    prompt there and the picture as it was (the same address); a new step shows its prompt from the top."""
    url, session = camera_server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    page = open_table(browser, url, (1280, 800))
    page.click("#panel [data-button=read]")
    page.wait_for_function("() => { var i = document.querySelector('#reading img.camera-img'); return i && i.complete; }")
    src = page.evaluate("() => document.querySelector('#reading img.camera-img').getAttribute('src')")
    at = page.evaluate("() => { var c = document.querySelector('#prompt'); c.scrollTop = c.scrollHeight; return c.scrollTop; }")
    assert at > 50   # the picture makes the prompt scroll
    for _ in range(2):
        change = page.evaluate("() => document.getElementById('live').getAttribute('data-change')")
        session.notify()
        page.wait_for_function("c => document.getElementById('live').getAttribute('data-change') !== c", arg=change)
        assert page.evaluate("() => document.querySelector('#prompt').scrollTop") == at
        assert page.evaluate("() => document.querySelector('#reading img.camera-img').getAttribute('src')") == src
    session.confirm()
    wait_shown(page, session)
    assert page.evaluate("() => document.querySelector('#prompt').scrollTop") == 0
    assert not page.errors
