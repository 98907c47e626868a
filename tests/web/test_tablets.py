"""Pairings are kept server-side: unpairing or removing a tablet refuses every copy of its cookie at once."""

from companion.store import GameStore
from web import create_app

from .conftest import CODE, SETUP, XHR, post

LOCAL = {"REMOTE_ADDR": "127.0.0.1"}
TABLET = {"User-Agent": "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) "
                        "Chrome/120.0 Safari/537.36"}


def cookie_of(client) -> str:
    return client.get_cookie("companion").value


def with_cookie(app, value, name="companion"):
    c = app.test_client()
    c.set_cookie(name, value)
    return c


def can_change(client) -> bool:
    return post(client, "/api/game", SETUP).status_code == 201


def test_a_copy_of_the_cookie_stops_working_once_unpaired(app, paired):
    copy = with_cookie(app, cookie_of(paired))
    assert can_change(copy), "the copy works while the tablet is paired"
    assert post(paired, "/unpair").status_code == 200
    r = post(copy, "/api/game", SETUP)
    assert r.status_code == 403 and r.json["error"] == "not_paired"
    assert copy.get("/api/state").json["paired"] is False


def test_a_removed_tablet_stays_refused_after_a_restart(tmp_path, game_session):
    config = {"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance"}
    app = create_app(config, session=game_session)
    kept, removed = app.test_client(), app.test_client()
    for c in (kept, removed):
        assert post(c, "/pair", {"code": CODE}).status_code == 200
    cookies = cookie_of(kept), cookie_of(removed)
    gone = app.extensions["tablets"].listed()[0]["id"]
    assert post(app.test_client(), "/tablets/remove", {"tablet": gone}, environ_base=LOCAL).status_code == 200
    game_session.store.close()
    # A restart: the same games file and secret key, a new process.
    from companion.game_profiles import load_profile
    from companion.session import Session
    again = create_app(config, session=Session(GameStore(tmp_path / "g.sqlite3"), load_profile()))
    answers = [with_cookie(again, c).get("/api/state").json["paired"] for c in cookies]
    assert sorted(answers) == [False, True]
    assert len(again.extensions["tablets"].listed()) == 1


def test_a_cookie_from_before_tablets_were_kept_is_not_paired(app):
    # The old cookie said only {"paired": true}: it cannot be revoked, so it no longer counts.
    c = app.test_client()
    with c.session_transaction() as s:
        s["paired"] = True
    assert c.get("/api/state").json["paired"] is False
    with c.session_transaction() as s:
        s["device"] = "forged-secret"
    assert not can_change(c)


def test_the_tablets_page_lists_the_paired_tablets_and_removes_one_or_all(app):
    tablets = [app.test_client() for _ in range(3)]
    for i, c in enumerate(tablets):
        assert post(c, "/pair", {"code": CODE}, headers=TABLET,
                    environ_base={"REMOTE_ADDR": f"192.168.1.{20 + i}"}).status_code == 200
    page = app.test_client().get("/tablets", environ_base=LOCAL).get_data(as_text=True)
    assert page.count("Android · Chrome") == 3 and "192.168.1.21" in page and "last seen" in page
    listed = app.extensions["tablets"].listed()
    assert {d["address"] for d in listed} == {"192.168.1.20", "192.168.1.21", "192.168.1.22"}
    assert all(d["last_seen"] for d in listed)
    # Only the machine itself (loopback) may remove one.
    assert post(app.test_client(), "/tablets/remove", {"tablet": "all"},
                environ_base={"REMOTE_ADDR": "192.168.1.20"}).status_code == 403
    assert all(can_change(c) for c in tablets)
    first = next(d["id"] for d in listed if d["address"] == "192.168.1.20")
    assert post(app.test_client(), "/tablets/remove", {"tablet": first}, environ_base=LOCAL).json["removed"] == 1
    assert [c.get("/api/state").json["paired"] for c in tablets] == [False, True, True]
    assert post(app.test_client(), "/tablets/remove", {"tablet": first}, environ_base=LOCAL).status_code == 404
    assert post(app.test_client(), "/tablets/remove", {}, environ_base=LOCAL).status_code == 400
    assert post(app.test_client(), "/tablets/remove", {"tablet": "all"}, environ_base=LOCAL).json["removed"] == 2
    assert not any(c.get("/api/state").json["paired"] for c in tablets)
    page = app.test_client().get("/tablets?lang=pt-BR", environ_base=LOCAL).get_data(as_text=True)
    assert "Nenhum tablet pareado." in page


def test_the_tablets_page_removes_with_its_form(app, paired):
    here = app.test_client()
    page = here.get("/tablets", environ_base=LOCAL).get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    r = here.post("/tablets/remove", data={"tablet": "all", "csrf_token": token}, environ_base=LOCAL)
    assert r.status_code == 303
    assert paired.get("/api/state").json["paired"] is False


def test_pairing_again_replaces_the_old_pairing(app, paired):
    assert post(paired, "/pair", {"code": CODE}, headers=XHR).status_code == 200
    assert len(app.extensions["tablets"].listed()) == 1


def test_the_tablets_page_s_old_address_still_leads_there(app, paired):
    here = app.test_client()
    r = here.get("/device?lang=pt-BR", environ_base=LOCAL)
    assert r.status_code == 308 and r.headers["Location"].endswith("/tablets?lang=pt-BR")
    assert "Tablets pareados" in here.get("/device?lang=pt-BR", environ_base=LOCAL,
                                          follow_redirects=True).get_data(as_text=True)
    assert here.get("/device/qr.svg", environ_base=LOCAL).headers["Location"].endswith("/tablets/qr.svg")
    assert here.get("/device/else", environ_base=LOCAL).status_code == 404
    # A form of the page as it was (field `device`) is sent on (a browser posts it again there,
    # its fields kept) and still unpairs.
    page = here.get("/tablets", environ_base=LOCAL).get_data(as_text=True)
    form = {"device": "all", "csrf_token": page.split('name="csrf_token" value="')[1].split('"')[0]}
    r = here.post("/device/remove", data=form, environ_base=LOCAL)
    assert r.status_code == 308 and r.headers["Location"].endswith("/tablets/remove")
    assert here.post(r.headers["Location"], data=form, environ_base=LOCAL).status_code == 303
    assert paired.get("/api/state").json["paired"] is False


def test_a_tablet_paired_under_the_cookies_earlier_name_stays_paired(app, paired):
    """The cookie was renamed; a tablet holding its session under the old name keeps its pairing:
    the next response writes it under today's name and drops the old one. A cookie this
    companion did not sign, under any name, pairs nothing."""
    old = with_cookie(app, cookie_of(paired), name="atlandice")
    r = old.get("/api/state")
    assert r.json["paired"] is True
    assert old.get_cookie("companion") is not None and old.get_cookie("atlandice") is None
    assert can_change(old)
    forged = with_cookie(app, cookie_of(paired)[:-3] + "abc", name="atlandice")
    assert forged.get("/api/state").json["paired"] is False
    assert not can_change(forged)
