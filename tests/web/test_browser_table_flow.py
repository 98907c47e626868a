"""At the table, in a real headless Chromium: what is shown is what is entered.

The dice of a roll are one proposal kept by the companion: a die corrected on
one tablet shows on every tablet and is what any CONFIRM enters; a later READ
replaces the row; UNDO says what it took back.
"""

from __future__ import annotations

import pytest

from companion.game_profiles import load_profile
from companion.session import Session
from companion.store import GameStore
from web import create_app

from .fakes import FakeCamera, annotate, encode_png, reader
from .test_browser import CODE, browser, serve, tablet, version, wait_version_change  # noqa: F401

pytestmark = pytest.mark.browser
PLAYERS = {"players": ["Anna", "Bruno", "Eric"], "first_player": 0,
           "tops": {"jeweller": "J-odd", "library": "L-high", "inn": "I-clock", "works": "E1",
                    "blacksmith": "B-even"}}


@pytest.fixture
def camera_table(tmp_path):
    """The app on waitress with a fake camera; `shots` is what the next READs see, in order."""
    store = GameStore(tmp_path / "g.sqlite3")
    camera = FakeCamera([[0]])
    session = Session(store, load_profile(), camera=camera, reader=reader, annotate=annotate,
                      encode_png=encode_png)
    app = create_app({"PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance", "SSE_HEARTBEAT": 0.5},
                     session=session)
    with serve(app) as url:
        yield url, session, camera
    store.close()


def row(page) -> list[str]:
    return [page.inner_text(f"#slots [data-slot='{i}']").strip() for i in range(7)]


def wait_row(page, values: list[str]):
    page.wait_for_function("want => { var s = document.querySelectorAll('#slots .slot'); var got = [];"
                           " for (var i = 0; i < s.length; i++) { got.push(s[i].textContent.trim()); }"
                           " return got.join(',') === want; }", arg=",".join(values), timeout=5000)


@pytest.mark.parametrize("how", ["button", "key", "panel"])
def test_confirm_enters_the_corrected_dice_shown_on_every_tablet(browser, camera_table, how):
    url, session, camera = camera_table
    camera.frames = [[1, 2, 3, 4, 5, 6, 2]]
    session.new_game(PLAYERS)
    a = tablet(browser, url)
    b = tablet(browser, url, paired=False)
    a.click("#panel [data-button=read]")
    wait_row(a, ["1", "2", "3", "4", "5", "6", "2"])
    a.click("#slots [data-slot='2']")
    a.click("#dice-entry [data-face='5']")
    wait_row(a, ["1", "2", "5", "4", "5", "6", "2"])
    wait_row(b, ["1", "2", "5", "4", "5", "6", "2"])            # the other tablet shows the correction
    a.wait_for_selector("#proposal:has-text('1 2 5 4 5 6 2')")
    assert a.locator("#reading .read-die").all_inner_texts() == list("1234562")   # the camera's own, as read
    before = version(a)
    if how == "button":
        a.click("#panel [data-button=confirm]")
    elif how == "key":
        a.keyboard.press("c")
    else:
        session.press("confirm")
    wait_version_change(a, before)
    assert session.game.record.inputs[0]["dice"] == [1, 2, 5, 4, 5, 6, 2]
    assert not a.errors and not b.errors


def test_a_later_read_replaces_the_row(browser, camera_table):
    url, session, camera = camera_table
    camera.frames = [[4], [1, 5, 4, 6, 3, 5, 2]]
    session.new_game(PLAYERS)
    a = tablet(browser, url)
    a.click("#panel [data-button=read]")                         # a picture of one die
    wait_row(a, ["4", "", "", "", "", "", ""])
    assert a.is_disabled("#panel [data-button=confirm]") and a.is_disabled("#dice-enter")
    a.click("#panel [data-button=read]")
    wait_row(a, ["1", "5", "4", "6", "3", "5", "2"])
    before = version(a)
    a.click("#dice-enter")
    wait_version_change(a, before)
    assert session.game.record.inputs[0] == {"type": "gate_roll", "dice": [1, 5, 4, 6, 3, 5, 2], "source": "camera"}
    assert not a.errors


def test_dice_typed_in_by_hand_are_entered_as_shown(browser, camera_table):
    url, session, camera = camera_table
    session.new_game(PLAYERS)
    a = tablet(browser, url)
    for face in (6, 5, 4, 3, 2, 1, 1):                           # tapped quickly, one after another
        a.click(f"#dice-entry [data-face='{face}']")
    wait_row(a, ["6", "5", "4", "3", "2", "1", "1"])
    before = version(a)
    a.click("#dice-enter")
    wait_version_change(a, before)
    assert session.game.record.inputs[0] == {"type": "gate_roll", "dice": [6, 5, 4, 3, 2, 1, 1], "source": "hand"}


@pytest.mark.parametrize("how, lang, says", [
    ("button", "en-GB", "Undone: Anna takes a die at the Library; Anna takes a Book from the Library."),
    ("key", "en-GB", "Undone: Anna takes a die at the Library"),
    ("panel", "pt-BR", "Desfeito: Anna pega um dado na Biblioteca"),
])
def test_undo_says_what_it_took_back(browser, camera_table, how, lang, says):
    url, session, camera = camera_table
    session.new_game(PLAYERS)
    session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})
    a = tablet(browser, url, lang=lang)
    before = version(a)
    a.click("#prompt [data-input*='library']")                   # the Book goes with it: the only one there
    wait_version_change(a, before)
    before = version(a)
    if how == "button":
        a.click("#panel [data-button=undo]")
    elif how == "key":
        a.keyboard.press("u")
    else:
        session.press("undo")
    wait_version_change(a, before)
    assert session.game.version == 1
    assert says in a.inner_text("#undone")
    assert not a.errors
