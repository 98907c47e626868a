"""The tablet's session cookie: Flask's signed cookie, also read under an earlier name.

A tablet paired before the cookie was renamed holds its session (its pairing, its CSRF token)
under the old name. Any cookie this companion signed (the secret key kept in the instance
folder verifies it) is taken as the session when the current one is missing; the response
writes it under today's name and drops the old one, so the tablet stays paired."""

from __future__ import annotations

from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature


class TabletCookie(SecureCookieSessionInterface):
    def open_session(self, app, request):
        session = super().open_session(app, request)
        if session is None or self.get_cookie_name(app) in request.cookies:
            return session
        serializer = self.get_signing_serializer(app)
        max_age = int(app.permanent_session_lifetime.total_seconds())
        for name, value in request.cookies.items():
            try:
                data = serializer.loads(value, max_age=max_age)
            except BadSignature:
                continue
            if isinstance(data, dict):
                session = self.session_class(data)
                session.modified = True          # written again under today's name
                session.cookie_before = name
                break
        return session

    def save_session(self, app, session, response):
        super().save_session(app, session, response)
        before = getattr(session, "cookie_before", None)
        if before:
            response.delete_cookie(before, path=self.get_cookie_path(app), domain=self.get_cookie_domain(app))
