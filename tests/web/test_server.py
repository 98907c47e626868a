"""The page's server: idle connections are bounded, so a page still loads while many sit open."""

import contextlib
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
