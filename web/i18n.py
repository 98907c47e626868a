"""The page's language: ?lang= (remembered in a cookie), else the cookie, else the browser's.

Every visible string comes from the catalogs: the frame's from the "ui" section of the shared
catalogs (companion/i18n/*.json), t("round_n", n=2); a game's from its own (companion/shelf.py),
which a page draws through the game's words.
"""

from __future__ import annotations

from flask import g, request

from companion.i18n import LANGUAGES, best_language, catalog, variant

COOKIE = "lang"


def current() -> str:
    lang = getattr(g, "lang", None)
    if lang:
        return lang
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        g.set_lang_cookie = asked
        lang = asked
    elif request.cookies.get(COOKIE) in LANGUAGES:
        lang = request.cookies[COOKIE]
    elif request.headers.get("Accept-Language"):
        lang = best_language(request.headers.get("Accept-Language"))
    else:
        from flask import current_app
        lang = current_app.config.get("LANGUAGE") if current_app.config.get("LANGUAGE") in LANGUAGES else "en"
    g.lang = lang
    return lang


def t(key: str, **params) -> str:
    group = catalog(current())["ui"]
    text = group.get(variant(group, key, params))
    if text is None:
        return key
    return text.format(**params) if params else text


def init_app(app) -> None:
    @app.context_processor
    def _helpers():
        return {"t": t, "lang": current(), "languages": [(code, catalog(code)["language"])
                                                                  for code in LANGUAGES]}

    @app.after_request
    def _remember(response):
        lang = getattr(g, "set_lang_cookie", None)
        if lang:
            response.set_cookie(COOKIE, lang, max_age=60 * 60 * 24 * 365, samesite="Strict", httponly=True)
        return response
