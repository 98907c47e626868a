"""The page's server (waitress), with bounds on what idle connections can hold.

Waitress stops accepting once `connection_limit` connections are open, and
by default closes an idle one only after 120 s: a hundred connections that
send nothing would keep every tablet out. So:

- a connection that sends nothing for CHANNEL_TIMEOUT seconds is closed
  (checked every CLEANUP_INTERVAL seconds; a request being answered, such as
  a live stream, is never idle);
- one client address may hold at most PER_CLIENT connections (a browser
  opens six at most): more are closed as soon as they are accepted, so one
  machine cannot fill CONNECTION_LIMIT;
- poll() instead of select(), which fails beyond 1024 file descriptors.

    server = make_server(app, "0.0.0.0", 8000, threads=16)
    server.run()
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)

CONNECTION_LIMIT = 400
PER_CLIENT = 32
CHANNEL_TIMEOUT = 20
CLEANUP_INTERVAL = 2
HEADER_LIMIT = 32 * 1024  # bytes of request headers (a page's are under 2 KB)

LIMITS = {
    "connection_limit": CONNECTION_LIMIT,
    "channel_timeout": CHANNEL_TIMEOUT,
    "cleanup_interval": CLEANUP_INTERVAL,
    "asyncore_use_poll": True,
    "max_request_header_size": HEADER_LIMIT,
    # A page that closes gives its live-stream slot back at once (waitress.client_disconnected).
    "channel_request_lookahead": 1,
}


def make_server(app, host: str, port: int, threads: int, per_client: int = PER_CLIENT):
    """A waitress server for `app`, not yet running (OSError if it cannot listen)."""
    from waitress import create_server
    from waitress.server import BaseWSGIServer

    allow_open_files(CONNECTION_LIMIT + 100)
    server = create_server(app, host=host, port=port, threads=threads, ident="atlandice-companion", **LIMITS)
    # One listening socket, or several (a name with an IPv4 and an IPv6 address) in one map.
    for listener in [server] + list(getattr(server, "map", {}).values()):
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = _per_client(listener, listener.channel_class, per_client)
    return server


def _per_client(listener, channel_class, limit: int):
    """A channel factory that closes a client's connection beyond its `limit` at once."""
    def make(server, conn, addr, adj, map=None):
        client = addr[0] if isinstance(addr, tuple) and addr else addr
        held = sum(1 for ch in list(listener.active_channels.values()) if _client(ch) == client)
        if held >= limit:
            try:
                conn.close()
            except OSError:
                pass
            log.debug("refused a connection from %s: it holds %d already", client, held)
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
