"""Who may talk to the page (Host), from where (CSRF), and who may change the game (pairing)."""

import pytest

from web import create_app
from web.security import host_allowed, host_name

from .conftest import CODE, SETUP, XHR, post


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "192.168.1.20",
                                  "10.0.0.7:8000"])
def test_own_names_and_addresses_are_answered(client, host):
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example.com", "evil.example.com:8000", "localhost.evil.com",
                                  "127.0.0.1.nip.io", "user@localhost"])
def test_unexpected_host_headers_are_refused_before_routing(client, host):
    for path in ("/api/state", "/", "/no/such/page"):
        r = client.get(path, headers={"Host": host})
        assert r.status_code == 400
    r = client.get("/api/state", headers={"Host": host})
    assert r.json["error"] == "bad_host"


def test_allowed_hosts_from_the_config(tmp_path, game_session):
    app = create_app({"TESTING": True, "ALLOWED_HOSTS": ["table.lan", ".home.arpa"],
                      "INSTANCE_PATH": tmp_path / "i"}, session=game_session)
    c = app.test_client()
    assert c.get("/api/state", headers={"Host": "table.lan:8000"}).status_code == 200
    assert c.get("/api/state", headers={"Host": "pi.home.arpa"}).status_code == 200
    assert c.get("/api/state", headers={"Host": "table.lan.evil.com"}).status_code == 400


def test_host_parsing():
    assert host_name("Pi.Local:8000") == "pi.local"
    assert host_name("[::1]:80") == "::1"
    assert host_allowed("10.1.2.3:99", set())
    assert not host_allowed("", {"localhost"})
    assert not host_allowed(None, {"localhost"})


def test_posts_without_the_custom_header_or_token_are_refused(paired, game_session):
    r = paired.post("/api/game", json=SETUP)
    assert r.status_code == 403 and r.json["error"] == "csrf"
    assert game_session.game is None


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example.com"}, {"Origin": "null"},
                                     {"Referer": "http://evil.example.com/page"},
                                     {"Origin": "http://localhost:9999"}])
def test_cross_site_posts_are_refused_even_with_the_header(paired, game_session, headers):
    r = post(paired, "/api/game", SETUP, headers=headers)
    assert r.status_code == 403 and r.json["error"] == "csrf"
    assert game_session.game is None


def test_same_origin_posts_pass(paired, game_session):
    r = post(paired, "/api/game", SETUP, headers={"Origin": "http://localhost", "Referer": "http://localhost/setup"})
    assert r.status_code == 201
    assert game_session.game is not None


def test_forms_pass_with_their_csrf_token(client):
    page = client.get("/pair").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    r = client.post("/pair", data={"code": CODE, "csrf_token": token})
    assert r.status_code == 303
    assert client.get("/api/state").json["paired"] is True
    r = client.post("/pair", data={"code": CODE, "csrf_token": "forged"})
    assert r.status_code == 403


def test_watchers_cannot_change_the_game(client, game_session):
    for url, data in [("/api/game", SETUP), ("/api/input", {"input": {"type": "gate_roll", "dice": [1] * 7},
                                                             "version": 0}),
                      ("/api/undo", {}), ("/api/redo", {}), ("/api/confirm", {}), ("/api/read", {}),
                      ("/api/resume", {}), ("/api/profile", {}), ("/api/record", {"record": "x"})]:
        r = post(client, url, data)
        assert r.status_code == 403, url
        assert r.json["error"] == "not_paired"
    assert game_session.game is None
    assert client.get("/api/state").status_code == 200, "anyone may watch"


def test_pairing_with_the_right_code(client):
    assert client.get("/api/state").json["paired"] is False
    r = post(client, "/pair", {"code": "000000"})
    assert r.status_code == 403 and r.json["error"] == "bad_code"
    r = post(client, "/pair", {"code": CODE})
    assert r.status_code == 200 and r.json["paired"] is True
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/api/state").json["paired"] is True
    r = post(client, "/unpair")
    assert r.status_code == 200
    assert client.get("/api/state").json["paired"] is False


def test_pairing_needs_a_code(client):
    assert post(client, "/pair", {}).status_code == 400
    assert post(client, "/pair", {"code": 5}).status_code == 400


def test_a_generated_code_is_shown_only_on_the_machine(tmp_path, game_session):
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "i"}, session=game_session)
    pairing = app.extensions["pairing"]
    assert not pairing.fixed
    c = app.test_client()
    # The tablet: the code appears nowhere, and it does not work until a window opens.
    assert pairing.code not in c.get("/pair").get_data(as_text=True)
    assert c.get("/tablets", environ_base={"REMOTE_ADDR": "192.168.1.30"}).status_code == 403
    assert c.get("/tablets/qr.svg", environ_base={"REMOTE_ADDR": "192.168.1.30"}).status_code == 403
    r = c.get("/tablets?lang=pt-BR", environ_base={"REMOTE_ADDR": "192.168.1.30"}, headers={"Accept": "application/json"})
    assert r.json["message"] == "Esta página é só para a tela do próprio companheiro."
    assert post(c, "/pair", {"code": pairing.code}).status_code == 403
    # The machine itself (hold CONFIRM = open_window; or the tablets' page at /tablets, loopback only).
    code = pairing.open_window()
    page = c.get("/tablets", environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_data(as_text=True)
    assert code in page
    qr = c.get("/tablets/qr.svg", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert post(c, "/pair", {"code": code}).status_code == 200
    r = post(c, "/tablets/window", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert r.status_code == 200 and pairing.is_open()


def test_debug_is_never_on(tmp_path, game_session):
    app = create_app({"DEBUG": True, "INSTANCE_PATH": tmp_path / "i"}, session=game_session)
    assert app.debug is False and app.config["DEBUG"] is False


def test_the_secret_key_is_made_once_and_kept(tmp_path, game_session):
    a = create_app({"INSTANCE_PATH": tmp_path / "i"}, session=game_session)
    b = create_app({"INSTANCE_PATH": tmp_path / "i"}, session=game_session)
    assert a.config["SECRET_KEY"] == b.config["SECRET_KEY"]
    assert len(a.config["SECRET_KEY"]) >= 32
    assert (tmp_path / "i" / "secret_key").stat().st_mode & 0o077 == 0


def test_security_headers(client):
    r = client.get("/")
    assert "default-src 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_the_tablets_page_shows_the_network_address_not_localhost(tmp_path, game_session):
    # The tablets' page on the Pi's own screen asks on localhost; the tablet must be sent to the machine's network address.
    from web import create_app
    app = create_app({"INSTANCE_PATH": tmp_path / "i", "PUBLIC_URLS": ["http://192.168.1.20:8000/"]},
                     session=game_session)
    code = app.extensions["pairing"].open_window()
    c = app.test_client()
    page = c.get("/tablets", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert b"http://192.168.1.20:8000/" in page.data
    from web.pages import _public_urls  # the QR code's link is built from it
    with app.test_request_context("/tablets/qr.svg", base_url="http://localhost:8000"):
        assert _public_urls()[0] == "http://192.168.1.20:8000/"
    assert c.get("/tablets/qr.svg", environ_base={"REMOTE_ADDR": "127.0.0.1"}).status_code == 200
    assert code


def test_a_client_guessing_codes_waits_while_the_tables_tablet_pairs(app):
    guesser, tablet = app.test_client(), app.test_client()
    away = {"REMOTE_ADDR": "192.168.1.66"}
    for _ in range(5):
        assert post(guesser, "/pair", {"code": "000000"}, environ_base=away).status_code == 403
    r = post(guesser, "/pair", {"code": CODE}, environ_base=away)
    assert r.status_code == 429 and r.json["error"] == "pair_wait" and r.headers["Retry-After"] == "60"
    assert "wait 60 seconds" in r.json["message"]
    r = post(tablet, "/pair", {"code": CODE}, environ_base={"REMOTE_ADDR": "192.168.1.20"})
    assert r.status_code == 200 and r.json["paired"] is True


def test_the_tablets_page_shows_a_code_at_once(tmp_path, game_session):
    """Looking at the tablets' page (loopback only) is being at the machine: the code is there, no button first."""
    app = create_app({"INSTANCE_PATH": tmp_path / "i"}, session=game_session)
    pairing = app.extensions["pairing"]
    assert not pairing.is_open()
    c = app.test_client()
    page = c.get("/tablets", environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_data(as_text=True)
    assert pairing.is_open() and f'id="tablets-code">{pairing.code}<' in page
    code = pairing.code
    again = c.get("/tablets", environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_data(as_text=True)
    assert pairing.code == code and code in again, "a reload keeps the open window's code"
    assert c.get("/tablets", environ_base={"REMOTE_ADDR": "192.168.1.30"}).status_code == 403
