"""What every game's table page shows alike, drawn once around the game's own parts.

The frame is the session's, not a game's: the version and change the page holds, the
camera, UNDO/REDO and what the last press of either did, a refusal, the games file's
trouble. Each game's view (web/view.py asks the registry for it) adds its own parts to
this dict, so a feature of the frame reaches every game without a line in any game.
"""

from __future__ import annotations

import time

from companion import games
from companion.games.page import input_json
from companion.i18n import catalog, explain, fill, variant
from companion.shelf import words_for

READABLE = ("ok", "not_reading")  # READ may be pressed: a camera not reading may read the next picture


def ui(lang: str, key: str, **params) -> str:
    """The page's text for `key`, its variant for a count of one where the catalog has it."""
    group = catalog(lang)["ui"]
    text = group.get(variant(group, key, params), key)
    return fill(text, params) if params else text


def camera(snap: dict) -> dict:
    """The camera's status for the page, with its last error and when (this machine's time)."""
    cam = dict(snap.get("camera") or {})
    cam.setdefault("status", "unavailable")
    cam["can_read"] = cam["status"] in READABLE
    at = cam.get("error_at")
    cam["error_time"] = time.strftime("%H:%M:%S", time.localtime(at)) if isinstance(at, (int, float)) else None
    return cam


def pressed(entries: list[dict] | None, key: str, words, names: list[str], lang: str, kind: str = "") -> str | None:
    """What the last UNDO took back or REDO put back (`key` "undone" / "redone"), in the game's
    words: the first thing each input did, or the input itself when it did nothing to say
    (`kind`: the prompt the first of them answered, when known)."""
    if not entries:
        return None
    said = []
    for entry in entries:
        if entry["events"]:
            said.append(words.event(entry["events"][0], names).rstrip("."))
        else:
            said.append(words.input(entry["input"], kind, names))
        kind = ""   # the inputs after the first answered prompts no longer shown
    return ui(lang, key, what="; ".join(said))


def proposal(snap: dict, words, names: list[str]) -> dict | None:
    """The step CONFIRM would enter now, in the game's words; None when there is none. (A game
    whose dice the camera reads shows its own, with the reading: its table view.)"""
    p = snap.get("proposal")
    expected = snap.get("expected")
    if not p or not expected:
        return None
    return {"text": words.input(p["input"], expected["kind"], names, snap.get("state")), "source": p["source"],
            "problem": None,
            "input": input_json(p["input"])}


def frame(snap: dict, lang: str) -> dict:
    """The shared parts of the table page, for any game or none."""
    state = snap.get("state")
    game_id = snap.get("game")
    words = words_for(game_id, lang) if game_id and state is not None else None
    names = words.names(state) if words is not None else []
    refusal = snap.get("refusal")
    if refusal is None:
        refusal_text = None
    else:
        refusal_text = words.refusal(refusal, names) if words is not None else explain(refusal, lang)
    return {"snap": snap, "version": snap.get("version"), "change_id": snap.get("change_id"),
            "boot": snap.get("boot"), "game": state is not None, "game_id": game_id,
            # the prompt shown: it changes with every change of the game, never comes back after
            # an UNDO (unlike the version); a tap chosen on another prompt is refused
            "prompt_id": snap.get("game_changes"),
            "camera": camera(snap), "calibration": snap.get("calibration"),
            "reads_dice": games.load(game_id).reads_dice if game_id else False,
            "can_undo": snap.get("can_undo"), "can_redo": snap.get("can_redo"),
            "refusal": refusal, "refusal_text": refusal_text,
            "proposal": proposal(snap, words, names) if words is not None else None,
            # the games file found damaged or read-only: said on every page until it is mended
            "storage_text": explain(snap["storage"], lang) if snap.get("storage") else None,
            # after an UNDO the prompt is again the one the input taken back answered
            "undone": pressed(snap.get("undone"), "undone", words, names, lang,
                              (snap.get("expected") or {}).get("kind", "")) if words else None,
            "redone": pressed(snap.get("redone"), "redone", words, names, lang) if words else None}
