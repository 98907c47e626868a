"""The page's server: idle connections are bounded, so a page still loads while many sit open."""

import contextlib
import errno
import http.client
import select
import socket
import threading
import time

import pytest

from web import server as page_server
from web.server import make_server

IDLE = 150


@contextlib.contextmanager
def serving(app, **kw):
    srv = make_server(app, "127.0.0.1", 0, threads=4, **kw)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        from waitress import wasyncore
        srv.trigger.pull_trigger(lambda: wasyncore.close_all(srv._map))  # in the server's own loop
        srv.task_dispatcher.shutdown(timeout=2)
        thread.join(5)


def loads(port: int, path: str = "/") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def idle_connections(port: int, count: int, source: str) -> list[socket.socket]:
    """`count` connections that send nothing, from the loopback address `source`."""
    out = []
    for _ in range(count):
        s = socket.socket()
        s.settimeout(5)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        out.append(s)
    return out


def closed_by_server(sockets, wait: float, expected: int) -> int:
    """How many of `sockets` the server closed, waiting up to `wait` seconds for `expected` of them."""
    deadline = time.monotonic() + wait
    left, shut = list(sockets), 0
    while left and shut < expected and time.monotonic() < deadline:
        ready, _, _ = select.select(left, [], [], max(0.0, deadline - time.monotonic()))
        for s in ready:
            left.remove(s)
            try:
                shut += s.recv(1) == b""
            except OSError:
                shut += 1
    return shut


def test_idle_connections_are_bounded():
    srv = make_server(lambda env, start: [], "127.0.0.1", 0, threads=1)
    try:
        adj = srv.adj
        assert adj.connection_limit >= 2 * IDLE, "waitress's default (100) lets ~99 idle connections lock the page"
        assert adj.channel_timeout <= 30 and adj.cleanup_interval <= 5, "an idle connection goes within half a minute"
        assert adj.asyncore_use_poll and adj.channel_request_lookahead == 1
        assert adj.max_request_header_size <= 64 * 1024
    finally:
        srv.close()


def test_a_page_loads_while_many_idle_connections_are_open(app):
    try:
        socket.socket().bind(("127.0.0.2", 0))
    except OSError:
        pytest.skip("no 127.0.0.2 here: the idle connections need a loopback address of their own")
    with serving(app) as srv:
        port = int(srv.effective_port)
        idle = idle_connections(port, IDLE, "127.0.0.2")
        try:
            assert loads(port) == 200, "the page loads with 150 idle connections open"
            # One address holds at most PER_CLIENT: the others were closed at once.
            assert closed_by_server(idle, 10, IDLE - page_server.PER_CLIENT) == IDLE - page_server.PER_CLIENT
            assert loads(port, "/api/state") == 200
        finally:
            for s in idle:
                s.close()


def test_idle_connections_are_closed_after_the_channel_timeout(app, monkeypatch):
    monkeypatch.setitem(page_server.LIMITS, "channel_timeout", 1)
    monkeypatch.setitem(page_server.LIMITS, "cleanup_interval", 1)
    with serving(app) as srv:
        idle = idle_connections(int(srv.effective_port), 5, "127.0.0.1")
        try:
            assert closed_by_server(idle, 10, 5) == 5
        finally:
            for s in idle:
                s.close()


def slow_heads(port: int, count: int, source: str) -> list[socket.socket]:
    """`count` connections from `source` that begin a request head and never end it."""
    out = []
    for _ in range(count):
        s = socket.socket()
        s.settimeout(5)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        out.append(s)
    return out


def test_a_request_head_that_trickles_in_is_closed_at_its_deadline(app, monkeypatch):
    """A header line every few seconds is never idle: once, such connections were held for ever."""
    monkeypatch.setattr(page_server, "HEAD_DEADLINE", 2, raising=False)
    monkeypatch.setitem(page_server.LIMITS, "cleanup_interval", 1)
    with serving(app) as srv:
        port = int(srv.effective_port)
        (s,) = slow_heads(port, 1, "127.0.0.1")
        began, closed = time.monotonic(), False
        try:
            while time.monotonic() - began < 8 and not closed:
                try:
                    s.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    closed = True
                    break
                ready, _, _ = select.select([s], [], [], 0.5)
                if ready:
                    try:
                        closed = s.recv(1) == b""
                    except OSError:
                        closed = True
            assert closed and time.monotonic() - began < 6       # well before the 20 s idle timeout
            assert loads(port, "/api/state") == 200
        finally:
            s.close()


def test_the_last_connections_are_kept_for_paired_tablets(app, monkeypatch):
    """14 addresses x 30 slow connections once filled the server: the table answered 0 of 5 reads."""
    try:
        socket.socket().bind(("127.0.0.9", 0))
    except OSError:
        pytest.skip("no 127.0.0.9 here: the clients need loopback addresses of their own")
    from .conftest import CODE, XHR

    tablet = app.test_client()
    assert tablet.post("/pair", json={"code": CODE}, headers=XHR,
                       environ_base={"REMOTE_ADDR": "127.0.0.9"}).status_code == 200
    monkeypatch.setitem(page_server.LIMITS, "connection_limit", 40)
    monkeypatch.setattr(page_server, "RESERVED", 10, raising=False)
    with serving(app) as srv:
        port = int(srv.effective_port)
        held = []
        try:
            for i in range(6):                            # 6 addresses x 8: more than the server takes
                held += slow_heads(port, 8, f"127.0.0.{20 + i}")
            time.sleep(0.5)
            reads = 0
            for _ in range(5):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=("127.0.0.9", 0))
                try:
                    conn.request("GET", "/api/state")
                    reads += conn.getresponse().status == 200
                except OSError:
                    pass
                finally:
                    conn.close()
            assert reads == 5
        finally:
            for s in held:
                s.close()


def _listening_on_both(app, tries: int = 5):
    """(server on "::", its port): a port free on 127.0.0.1 may be taken on the other family,
    or by another process before the server binds it, so a taken one is tried again."""
    for _ in range(tries):
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            port = free.getsockname()[1]
        try:
            return make_server(app, "::", port, threads=2), port
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
    pytest.fail(f"no port free for both IPv4 and IPv6 in {tries} tries")


def test_host_all_ipv6_serves_ipv4_too(app):
    """`server.host = "::"` listened on IPv6 only, while the addresses it printed were IPv4."""
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    srv, port = _listening_on_both(app)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        for host in ("127.0.0.1", "::1"):
            conn = http.client.HTTPConnection(host, port, timeout=5)
            try:
                conn.request("GET", "/api/state")
                assert conn.getresponse().status == 200, host
            finally:
                conn.close()
    finally:
        from waitress import wasyncore
        from waitress.server import BaseWSGIServer
        trigger = next(x.trigger for x in srv.map.values() if isinstance(x, BaseWSGIServer))   # two listeners
        trigger.pull_trigger(lambda: wasyncore.close_all(srv.map))
        srv.task_dispatcher.shutdown(timeout=2)
        thread.join(5)
