"""The table's history: every game kept (each replayable step by step and downloadable), each
player's record, the dice's fairness, and the export. Everything is read from the store's
records (through companion.history); nothing here is stored but the players' merged names.
"""

from __future__ import annotations

import itertools
from datetime import datetime, timezone

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, url_for

from companion import merged_names
from companion.history.export import games_csv, record_name, records_zip_stream
from companion.game import Game
from companion.history.players import MergeError, check_merge, name_key, records
from companion.history.summary import summarize
from companion.kept_games import KeptGames
from companion.record import Record
from companion.store import UnreadableRow
from companion.shelf import words_for

from . import history_view as hv
from . import i18n, security, view
from .errors import ApiError, said

bp = Blueprint("history", __name__)

PAGE_SIZE = 50


def init_app(app) -> None:
    app.extensions["kept_games"] = KeptGames(app.extensions["session"].store)
    app.register_blueprint(bp)


@bp.before_request
def _paired_or_public():
    """Every game kept, with its players' names and dates, and both exports: paired tablets
    only, unless [web] public_history opens them (watching the live table needs no pairing)."""
    if not current_app.config.get("PUBLIC_HISTORY") and not security.is_paired():
        raise ApiError(403, "not_paired", said("err_history_paired"))


def kept() -> KeptGames:
    return current_app.extensions["kept_games"]


def store():
    return current_app.extensions["session"].store


def common() -> dict:
    return {"paired": security.is_paired(), "csrf_token": security.csrf_token()}


@bp.get("/games")
def games():
    """Every game played on this companion, newest first, a page at a time."""
    lang = i18n.current()
    page = max(1, request.args.get("page", 1, type=int) or 1)
    total, summaries = kept().page((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    if page > pages:
        return redirect(url_for("history.games", page=pages))
    rows = [hv.game_row(s, lang) for s in summaries]
    loaded = store().imported_count()       # records loaded from elsewhere: listed apart
    return render_template("games.html", rows=[r for r in rows if not r["imported"]],
                           loaded_rows=[r for r in rows if r["imported"]], page=page, pages=pages,
                           total=total - loaded, loaded=loaded, **common())


def _load(game_id: int):
    try:
        record, _ = store().load(game_id)
    except KeyError:
        raise ApiError(404, "not_found", said("err_no_such_game", id=game_id)) from None
    return record      # a row that is no record's line: UnreadableRow, a 409 saying which (web/errors.py)


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    """A game's final breakdown, its dice, and its replay: step `step` of its inputs, in the
    game's own words (companion/shelf.py)."""
    lang = i18n.current()
    record = _load(game_id)
    inputs = record.inputs
    summary = dict(summarize(record.header, inputs), id=game_id)
    step = min(max(0, request.args.get("step", len(inputs), type=int) or 0), len(inputs))
    out = {"id": game_id, "summary": summary, "row": None, "step": step, "steps": len(inputs),
           "name": hv.game_name(lang, summary["game"]), "error": summary["error"], "final": None,
           "resumable": hv.resumable(summary), "at_step": None,
           "dice": hv.dice(summary["game"], summary["rolls"], summary["readings"], lang)
           if summary["faces"] else None}
    if not summary["error"]:
        at, prompt, events = _replay_to(record, step)
        final = at if step == len(inputs) else Game(record)
        out["final"] = _scores(final, lang)
        out["at_step"] = _step(at, prompt, events, lang)
    return render_template("game_replay.html", g=out, **common())


def _replay_to(record: Record, step: int) -> tuple[Game, dict | None, list]:
    """The game after `step` inputs, the prompt the last of them answered, and its events
    (before any input: no prompt, and what happened before the first)."""
    game = Game(Record(record.header, record.inputs[:max(0, step - 1)]))
    if step == 0:
        return game, None, game.start_events
    prompt = game.expected()
    events = game.apply(record.inputs[step - 1])
    return game, prompt, events


def _scores(game: Game, lang: str) -> dict:
    """The game's totals as they stand (final when over), and the parts of its own score sheet
    the table page draws (web/view.py's replay_parts)."""
    state = game.state
    names = words_for(game.game_id, lang).names(state)
    totals, winners = game.rules.totals(state), game.rules.winners(state)
    seats = [{"name": names[s], "total": total, "winner": s in winners}
             for s, total in enumerate(totals)] if totals is not None else None
    return dict({"over": state.get("over", False), "seats": seats}, **view.replay_parts(game, names, lang))


def _step(game: Game, prompt: dict | None, events: list, lang: str) -> dict:
    """The table after the step: its input in words (who made it, as its button said it) and
    what it did."""
    words = words_for(game.game_id, lang)
    names = words.names(game.state)
    said_input = source = None
    if prompt is not None:
        inp = game.record.inputs[-1]
        said_input = words.input(inp, prompt["kind"], names, game.state)
        seat = prompt.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(names):
            said_input = f"{names[seat]}: {said_input}"
        source = inp.get("source")
    return {"input": said_input, "source": source, "lines": [words.event(ev, names) for ev in events],
            "scores": _scores(game, lang), **view.replay_players(game, lang)}


@bp.get("/games/<int:game_id>/record.jsonl")
def game_record(game_id: int):
    """The game's record, as a file (JSON Lines: `companion replay` reads it)."""
    record = _load(game_id)
    response = Response(record.to_jsonl(), mimetype="application/x-ndjson")
    name = record_name({"game": summarize(record.header, []).get("game"), "id": game_id})
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _aliases() -> dict:
    return merged_names.aliases(store())


def _counted(summaries: list[dict]) -> tuple[list[dict], int, bool]:
    """The summaries a figure counts: the games played here, and the records loaded from elsewhere
    only when ?imported=1 asks (/players, /dice and the exports alike); with how many were
    loaded and whether they are counted."""
    loaded = sum(1 for s in summaries if s.get("imported"))
    with_loaded = request.args.get("imported") == "1"
    return (summaries if with_loaded else [s for s in summaries if not s.get("imported")]), loaded, with_loaded


@bp.get("/games/games.csv")
def export_csv():
    """One row per player per game: a spreadsheet or a score-keeping app imports it. The games
    played here, unless ?imported=1 adds the records loaded."""
    counted, _, _ = _counted(list(reversed(kept().summaries())))
    response = Response(games_csv(counted, _aliases()), mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="games.csv"'
    return response


@bp.get("/games/export.zip")
def export_zip():
    """Every record (records/*.jsonl) and games.csv, in one zip, streamed: each record is read from
    the store, compressed and sent before the next is read (the zip is never whole in memory).
    The games played here, unless ?imported=1 adds the records loaded."""
    summaries, _, _ = _counted(list(reversed(kept().summaries())))
    csv_text = games_csv(summaries, _aliases())
    kept_store = store()        # the generator runs after this function returns

    def files():
        for s in summaries:
            try:
                yield s, kept_store.load(s["id"])[0].to_jsonl()
            except UnreadableRow:        # its rows as they are: an export leaves nothing out
                yield dict(s, unreadable=True), kept_store.raw_record(s["id"])

    pieces = records_zip_stream(files(), csv_text)
    first = next(pieces)        # a store that cannot be read is answered (503) before the zip starts
    day = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    response = Response(itertools.chain([first], pieces), mimetype="application/zip")
    response.headers["Content-Disposition"] = f'attachment; filename="companion-games-{day}.zip"'
    return response


@bp.get("/players")
def players():
    """Each player's record per game of the shelf; merging two spellings of a name. The games
    played here only, unless ?imported=1 (the page's toggle) counts the records loaded too."""
    lang = i18n.current()
    aliases = _aliases()
    summaries = list(reversed(kept().summaries()))
    counted, loaded, with_loaded = _counted(summaries)
    cards = hv.player_cards(records(counted, aliases), lang)
    names = sorted({n for s in summaries for n in s["players"]}, key=name_key)
    merged = sorted(({"key": k, "into": v} for k, v in aliases.items()), key=lambda a: a["key"])
    return render_template("players.html", cards=cards, names=names, merged=merged, loaded=loaded,
                           with_loaded=with_loaded, **common())


@bp.post("/players/merge")
@security.paired_required
def merge():
    name, into = request.form.get("name", ""), request.form.get("into", "")
    try:
        alias, player = check_merge(_aliases(), name, into)
    except MergeError as exc:
        raise ApiError(400, "invalid", said("err_" + exc.key, **exc.params)) from None
    merged_names.merge(store(), alias, player)
    return _done()


@bp.post("/players/unmerge")
@security.paired_required
def unmerge():
    merged_names.unmerge(store(), name_key(request.form.get("name", "")))
    return _done()


def _done():
    """A form goes back to the players; a script hears that it is done."""
    if request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return jsonify({"ok": True})
    return redirect(url_for("history.players"), 303)


@bp.get("/dice")
def dice():
    """How often each face came up, per game and over all games, and the camera's record. The
    games played here, unless ?imported=1 (the page's toggle) counts the records loaded too."""
    lang = i18n.current()
    summaries, loaded, with_loaded = _counted(kept().summaries())
    per_game = [dict(hv.dice(s["game"], s["rolls"], s["readings"], lang), id=s["id"],
                     date=hv.date_text(s["created"]), players=s["players"])
                for s in summaries if s["faces"] and s["inputs"]]
    return render_template("dice.html", overall=hv.dice_over(summaries, lang), per_game=per_game,
                           loaded=loaded, with_loaded=with_loaded, **common())
