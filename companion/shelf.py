"""The shelf at the edge: each game's catalogs and default profile read from its package,
and its events, prompts, options and refusals said in one language.

    words = words_for(game_id, "pt-BR")
    words.names(state)                 -> seat labels
    words.event(event, names)          -> a sentence, the rule named
    words.refusal(error_dict)          -> why an input was refused
    words.prompt(expected, names), words.option(option, kind, names)
    words.input(inp, kind, names)      -> an input the record keeps, as its button said it
    words.face(face), words.word(group, key), words.page(key, **params), words.game_name

The rules packages read no file (companion/games/ is pure); this module does, for them. The
shared catalogs (companion/i18n/) hold only the frame's and the session's words.
"""

from __future__ import annotations

import importlib
import json
import tomllib
from functools import cache
from pathlib import Path

from . import games
from .games import plural
from .i18n import DEFAULT_LANGUAGE, LANGUAGES

GAMES_DIR = Path(__file__).resolve().parent / "games"


def listing() -> list[dict]:
    """Every game on the shelf: its id and its names in each language (GET /api/games)."""
    return [{"id": g.id, "names": dict(g.names)} for g in games.shelf()]


def folder(game_id: str) -> Path:
    """A game's package folder: its catalogs (i18n/), and the page's templates/ and static/."""
    return Path(games.load(game_id).module.__file__).resolve().parent


def own_words(game_id: str):
    """A game's `words` module (its package's words.py)."""
    return importlib.import_module(games.load(game_id).package + ".words")


@cache
def catalog(game_id: str, lang: str) -> dict:
    """A game's own catalog (its package's i18n/<lang>.json), with what its words module adds
    from the rules (`complete(catalog, lang)`, when it has one)."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    path = folder(game_id) / "i18n" / f"{lang}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    complete = getattr(own_words(game_id), "complete", None)
    return complete(data, lang) if complete is not None else data


def default_profile(game_id: str) -> dict:
    """The profile a new game of `game_id` starts with: the package's own default
    (`default_profile()`, or its default_profile.toml, validated by it)."""
    module = games.load(game_id).module
    own = getattr(module, "default_profile", None)
    if own is not None:
        return own()
    if not hasattr(module, "validate_profile"):      # a game that keeps no profile
        return {}
    path = folder(game_id) / "default_profile.toml"
    return module.validate_profile(tomllib.loads(path.read_text(encoding="utf-8")))


class Words:
    """One game's words in one language: its catalog said by its package's `words` module
    (render(event, catalog, names); optionally refusal, prompt, label, face, page, names and
    complete: docs/games.md)."""

    def __init__(self, game_id: str, lang: str):
        self.game_id = game_id
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE

    @property
    def catalog(self) -> dict:
        return catalog(self.game_id, self.lang)

    @property
    def _words(self):
        return own_words(self.game_id)

    def names(self, state: dict | None) -> list[str]:
        if not state:
            return []
        own = getattr(self._words, "names", None)
        return list(own(state, self.catalog)) if own is not None else list(games.load(self.game_id).seat_names(state))

    def event(self, event, names):
        return self._words.render(event, self.catalog, names)

    def refusal(self, error, names: list[str] | None = None):
        """The game's own refusal words; the session's (no game, nothing to undo, stale...)
        from the shared catalog."""
        from .i18n import explain
        from .games.errors import RuleError
        if (error.get("key") or "") not in self.catalog.get("errors", {}):
            return explain(error, self.lang)
        exc = RuleError(error.get("error", "illegal"), error.get("message") or "", error.get("rule"),
                        error.get("key"), dict(error.get("params") or {}))
        try:
            text = self._words.refusal(exc, self.catalog, names or [])
        except (KeyError, IndexError, ValueError):   # a parameter the sentence cannot take
            return exc.message
        rule = error.get("rule")
        if rule:
            text += f" ({self.catalog.get('rules', {}).get(rule, rule)})"
        return text

    def prompt(self, expected, names):
        return self._words.prompt(expected, self.catalog, names)

    def option(self, option, kind, names, state=None):
        return self._words.label(option, kind, self.catalog, names, state=state)

    def input(self, inp: dict, kind: str, names: list[str], state: dict | None = None) -> str:
        """An input the record keeps, as its button said it (`kind`: the prompt it answered;
        `state`: the table it was entered at); an input no button words (an old record's), in
        notation."""
        try:
            return self.option(inp, kind, names, state)
        except (KeyError, IndexError, ValueError, TypeError):
            return " ".join(str(v) for k, v in inp.items() if k not in ("source", "note"))

    def face(self, face) -> str:
        """A face of the game's die in words."""
        own = getattr(self._words, "face", None)
        return own(face, self.catalog) if own is not None else str(face)

    def page(self, key: str, **params) -> str:
        """The page's sentence `key`: the game's own `page(catalog, key, **params)`, else its
        catalog's "page" group, its form chosen by a count where the catalog gives forms
        (companion/games/plural.py)."""
        own = getattr(self._words, "page", None)
        if own is not None:
            return own(self.catalog, key, **params)
        value = self.catalog["page"].get(key, key)
        # no params: the sentence as written, its {placeholders} left for the page's script
        return plural.say(value, params) if params else plural.form(value, params)

    def word(self, group: str, key: object) -> str:
        return self.catalog.get(group, {}).get(str(key), str(key))

    def setup_field(self, option: dict) -> dict:
        """A setup option (Rules.setup_options) in words: its legend, and each choice's label.
        Words are a page key (a choice's: the key's prefix, then the value) or [group, key]."""
        def say(spec, value=None):
            if isinstance(spec, (list, tuple)):
                return self.word(spec[0], spec[1] if len(spec) > 1 else value)
            return self.page(spec if value is None else f"{spec}{value}")
        return {"key": option["key"], "kind": option["kind"], "label": say(option["words"]),
                "group": self.page(option["group"]) if option.get("group") else None,
                "players": list(option.get("players", ())),
                "choices": [{"value": v, "text": say(option["choice_words"], v)} for v in option["among"]]}

    def setup_hint(self) -> str:
        """What the setup page says of the players (the game's own rule, such as a neutral seat)."""
        return self.page("setup_players_hint")

    @property
    def game_name(self) -> str:
        return games.load(self.game_id).names.get(self.lang) or games.load(self.game_id).names["en"]


@cache
def words_for(game_id: str, lang: str) -> Words:
    games.load(game_id)
    return Words(game_id, lang)
