"""The page's server (waitress), with bounds on what idle connections can hold.

Waitress stops accepting once `connection_limit` connections are open, and
by default closes an idle one only after 120 s: a hundred connections that
send nothing would keep every tablet out. So:

- a connection that sends nothing for CHANNEL_TIMEOUT seconds is closed
  (checked every CLEANUP_INTERVAL seconds; a request being answered, such as
  a live stream, is never idle);
- a request's head (request line and headers) must arrive whole within
  HEAD_DEADLINE seconds of its first byte, however steadily it trickles in
  (a header line every few seconds is never idle): else the connection is closed;
- one client address may hold at most PER_CLIENT connections (a browser
  opens six at most): more are closed as soon as they are accepted, so one
  machine cannot fill CONNECTION_LIMIT;
- the last RESERVED connections are kept for paired tablets (the addresses
  the paired tablets were last seen at) and the machine itself (loopback):
  a few machines together cannot fill CONNECTION_LIMIT either;
- poll() instead of select(), which fails beyond 1024 file descriptors;
- host "::" serves IPv6 and IPv4 both (waitress alone would listen on IPv6
  only, while the addresses printed are IPv4).

    server = make_server(app, "0.0.0.0", 8000, threads=16)
    server.run()
"""

from __future__ import annotations

import logging
import socket
import threading
import time

log = logging.getLogger(__name__)

CONNECTION_LIMIT = 400
PER_CLIENT = 32
CHANNEL_TIMEOUT = 20
CLEANUP_INTERVAL = 2
HEADER_LIMIT = 32 * 1024  # bytes of request headers (a page's are under 2 KB)
HEAD_DEADLINE = 10        # seconds for a request's whole head, from its first byte
RESERVED = 40             # connections only paired tablets' addresses and loopback may take
PAIRED_REFRESH = 5.0      # seconds the paired tablets' addresses are remembered before asked again
LOOPBACK = ("127.0.0.1", "::1", "::ffff:127.0.0.1")

OUTBUF = 1024 * 1024

LIMITS = {
    "connection_limit": CONNECTION_LIMIT,
    "channel_timeout": CHANNEL_TIMEOUT,
    "cleanup_interval": CLEANUP_INTERVAL,
    "asyncore_use_poll": True,
    "max_request_header_size": HEADER_LIMIT,
    # A page that closes gives its live-stream slot back at once (waitress.client_disconnected).
    "channel_request_lookahead": 1,
    # What a connection sent is kept in its buffer until the buffer reaches this size (waitress's
    # default, 16 MB, held up to 16 MB per live page: 160-375 MB for ten tablets); past it a new
    # buffer is begun and the old one dropped once sent. Also how much may wait for a slow client.
    "outbuf_high_watermark": OUTBUF,
}


def make_server(app, host: str, port: int, threads: int, per_client: int | None = None,
                trusted=None, head_deadline: float | None = None, reserved: int | None = None):
    """A waitress server for `app`, not yet running (OSError if it cannot listen).

    `trusted(address)`: whether a client may take the last `reserved` connections (default: the
    addresses of the app's paired tablets, and loopback)."""
    from waitress import create_server
    from waitress.server import BaseWSGIServer

    allow_open_files(CONNECTION_LIMIT + 100)
    trusted = trusted or paired_addresses(app)
    per_client = PER_CLIENT if per_client is None else per_client
    head_deadline = HEAD_DEADLINE if head_deadline is None else head_deadline
    reserved = RESERVED if reserved is None else reserved
    where = {"host": host, "port": port}
    if host == "::" and _ipv6_works():
        where = {"listen": f"0.0.0.0:{port} [::]:{port}"}     # both: the addresses printed are IPv4
    server = create_server(app, threads=threads, ident="atlandice-companion", **where, **LIMITS)
    # One listening socket, or several (a name with an IPv4 and an IPv6 address) in one map.
    for listener in [server] + list(getattr(server, "map", {}).values()):
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = _per_client(listener, _head_timed(listener.channel_class), per_client,
                                                 trusted, reserved)
            _close_slow_heads(listener, head_deadline)
    return server


def _ipv6_works() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM):
            return True
    except OSError:
        return False


def paired_addresses(app):
    """trusted(address) for make_server: loopback, or an address a paired tablet was last seen
    at (read from the app's tablets at most every PAIRED_REFRESH seconds, only when asked: near
    the connection limit)."""
    tablets = getattr(app, "extensions", {}).get("tablets")
    kept = {"at": -PAIRED_REFRESH, "addresses": frozenset()}
    lock = threading.Lock()

    def trusted(address: str) -> bool:
        if address in LOOPBACK:
            return True
        if tablets is None:
            return False
        now = time.monotonic()
        with lock:
            if now - kept["at"] >= PAIRED_REFRESH:
                try:
                    kept["addresses"] = frozenset(d["address"] for d in tablets.listed() if d.get("address"))
                except Exception:     # the games file unreadable: the reserve keeps loopback only
                    log.warning("could not read the paired tablets' addresses", exc_info=True)
                kept["at"] = now
            return address in kept["addresses"] or _unmapped(address) in kept["addresses"]
    return trusted


def _unmapped(address: str) -> str:
    return address[7:] if address.startswith("::ffff:") else address


def _head_timed(channel_class):
    """The channel, noting when the head of the request it is reading began (None: not reading one)."""
    class HeadTimed(channel_class):
        head_began = None

        def received(self, data):
            if data and self.head_began is None:
                self.head_began = time.time()
            out = super().received(data)
            request = self.request
            if request is None or request.headers_finished:
                self.head_began = None
            return out
    return HeadTimed


def _close_slow_heads(listener, deadline: float) -> None:
    """Besides waitress's own clean-up (idle connections): close a connection whose request head
    has been arriving for more than `deadline` seconds."""
    idle = listener.maintenance

    def maintenance(now):
        idle(now)
        for channel in list(listener.active_channels.values()):
            began = getattr(channel, "head_began", None)
            if began is not None and now - began > deadline and not channel.requests:
                log.debug("closed a connection from %s: its request head took over %s s", _client(channel),
                          deadline)
                channel.will_close = True
    listener.maintenance = maintenance


def _per_client(listener, channel_class, limit: int, trusted=lambda address: False, reserved: int = 0):
    """A channel factory that closes at once a client's connection beyond its `limit`, and one
    from an untrusted address when only the last `reserved` connections are left."""
    def make(server, conn, addr, adj, map=None):
        client = addr[0] if isinstance(addr, tuple) and addr else addr
        held = sum(1 for ch in list(listener.active_channels.values()) if _client(ch) == client)
        why = None
        if held >= limit:
            why = f"it holds {held} already"
        elif len(listener._map) >= adj.connection_limit - reserved and not trusted(client):
            why = "the last connections are kept for paired tablets"
        if why:
            try:
                conn.close()
            except OSError:
                pass
            log.debug("refused a connection from %s: %s", client, why)
            return None
        return channel_class(server, conn, addr, adj, map=map)
    return make


def _client(channel):
    addr = getattr(channel, "addr", None)
    return addr[0] if isinstance(addr, tuple) and addr else addr


def allow_open_files(needed: int) -> None:
    """Raise the soft limit on open files to `needed` when the hard limit allows (a Pi's is 1024)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
