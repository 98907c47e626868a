"""Remake docs/table.png: the table page mid-round, in headless Chromium.

    .venv/bin/python docs/make_table_screenshot.py
"""
import tempfile, threading
from pathlib import Path
import waitress
from playwright.sync_api import sync_playwright
from companion.game_profiles import load_profile
from companion.games.errors import RuleError
from companion.session import Session
from companion.store import GameStore
from web import create_app
tmp = Path(tempfile.mkdtemp())
shot = tmp / "full.png"
s = Session(GameStore(tmp / "g.sqlite3"), load_profile())
app = create_app({"INSTANCE_PATH": tmp / "i", "PAIRING_CODE": "123456"}, session=s)
srv = waitress.create_server(app, host="127.0.0.1", port=0, threads=8, channel_request_lookahead=1)
threading.Thread(target=srv.run, daemon=True).start()
url = f"http://127.0.0.1:{srv.effective_port}"
s.new_game({"players": ["Ana", "Bruno", "Eric"], "first_player": 0,
            "tops": {"jeweller": "J-swap", "library": "L-high", "inn": "I-clock", "works": "E2", "blacksmith": "B-even"}})
for inp in [{"type": "gate_roll", "dice": [3, 5, 1, 4, 6, 2, 5]}, {"type": "pick", "area": "works"},
            {"type": "resource", "resource": "tool"}, {"type": "resource", "resource": "tool"},
            {"type": "submarine", "area": "blacksmith"}, {"type": "pick", "area": "blacksmith"},
            {"type": "resource", "resource": "weapon"}, {"type": "resource", "resource": "weapon"},
            {"type": "roll", "value": 4}, {"type": "resource", "resource": "weapon"},
            {"type": "pick", "area": "jeweller"}, {"type": "resource", "resource": "gem"}]:
    try:
        s.submit(inp)
    except RuleError:       # a step with one way on: the companion took it by itself
        pass
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
    page = b.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(url + "/pair"); page.fill("input[name=code]", "123456"); page.click("#pair-form button[type=submit]")
    page.wait_for_selector(".pairstate.ok"); page.goto(url + "/"); page.wait_for_selector("#conn.online")
    page.screenshot(path=str(shot), full_page=True)
    b.close()
import cv2  # noqa: E402  (crop below the players: the history below is long)
image = cv2.imread(str(shot))
cv2.imwrite(str(Path(__file__).resolve().parent / "table.png"), image[:1700], [cv2.IMWRITE_PNG_COMPRESSION, 9])
