"""Who may talk to the page, and who may change the game.

Three checks, in this order, before any route runs:

1. Host (DNS rebinding): the Host header must name this machine: an IP
   literal (a page whose origin is an address cannot be rebound), localhost,
   the machine's hostname (and hostname.local), or one of ALLOWED_HOSTS.
   Anything else gets 400 before routing.
2. Cross-site requests: every POST must carry `X-Requested-With:
   XMLHttpRequest` (a header a foreign page cannot send without a CORS
   preflight we never grant) or the form's CSRF token, and its Origin (or,
   when absent, its Referer) must be this very host. Else 403.
3. Pairing: routes that change the game need a paired tablet (a signed
   session cookie set by POST /pair, naming a tablet the games file still
   lists: web/tablets.py). Else 403. Reading is open to anyone on the network.
"""

from __future__ import annotations

import functools
import ipaddress
import secrets
import socket
from urllib.parse import urlsplit

from flask import current_app, g, request, session

from .errors import ApiError, said

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


def machine_names() -> set[str]:
    """This machine's names (lower case): hostname, its FQDN and hostname.local."""
    names = set(LOCAL_NAMES)
    try:
        host = socket.gethostname().lower()
    except OSError:
        return names
    if host:
        names |= {host, host + ".local", host.split(".")[0], host.split(".")[0] + ".local"}
    return names


def host_name(host_header: str) -> str:
    """The name part of a Host header: 'Pi.local:8000' -> 'pi.local', '[::1]:80' -> '::1'."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def host_allowed(host_header: str | None, allowed: set[str]) -> bool:
    if not host_header:
        return False
    name = host_name(host_header)
    if not name or any(c in name for c in "/\\@ \t"):
        return False
    if is_ip(name) or name in allowed:
        return True
    # ".example.lan" in ALLOWED_HOSTS allows example.lan and every name under it.
    return any(a.startswith(".") and (name == a[1:] or name.endswith(a)) for a in allowed)


def check_host() -> None:
    allowed = current_app.extensions["allowed_hosts"]
    if not host_allowed(request.host, allowed):
        raise ApiError(400, "bad_host", "unexpected Host header: this companion answers only to its own "
                               "addresses and names (add yours to web.allowed_hosts)")


def csrf_token() -> str:
    """The form token of this browser session (for HTML forms posted without JS)."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def _same_origin(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == request.host.lower()


def check_csrf() -> None:
    if request.method in SAFE_METHODS:
        return
    origin = request.headers.get("Origin")
    referer = request.headers.get("Referer")
    if origin and origin != "null":
        if not _same_origin(origin):
            raise ApiError(403, "csrf", "cross-site request refused (Origin is not this page)")
    elif origin == "null":
        raise ApiError(403, "csrf", "cross-site request refused (opaque Origin)")
    elif referer and not _same_origin(referer):
        raise ApiError(403, "csrf", "cross-site request refused (Referer is not this page)")
    if request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return
    form_token = request.form.get("csrf_token", "") if request.mimetype in (
        "application/x-www-form-urlencoded", "multipart/form-data") else ""
    token = session.get("csrf")
    if token and form_token and secrets.compare_digest(form_token, token):
        return
    raise ApiError(403, "csrf", "cross-site request refused: send the header X-Requested-With: "
                           "XMLHttpRequest (or the form's csrf_token)")


def paired_tablet() -> str | None:
    """The id of the paired tablet asking, or None (looked up once per request: a removed
    tablet is refused from its next request on). Its cookie keeps the secret under "device",
    as every tablet paired so far has it."""
    if "device" not in g:
        g.device = current_app.extensions["tablets"].check(session.get("device"), request.remote_addr or "")
    return g.device


def is_paired() -> bool:
    return paired_tablet() is not None


def paired_required(view):
    """Only a paired tablet may change the game (anyone may watch)."""
    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        if not is_paired():
            raise ApiError(403, "not_paired", said("err_not_paired"))
        return view(*args, **kwargs)
    return wrapper
