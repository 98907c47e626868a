"""Each player's record across games: the same name is the same player, and two spellings
the table merged ("Anna" into "Ana") are one.

    aliases = {"anna": "Ana"}                  # a name's key -> the name it was merged into
    records(summaries, aliases)                # one record per player, best first
    -> [{"key": "ana", "name": "Ana", "spellings": ["Ana", "Anna"], "games": {
            game_id: {"played": 4, "unfinished": 1, "wins": 2, "shared_wins": 1,
                          "best": 31, "average": 24.5, "scores": [18, 31, 24, 25],
                          "extra": {"stock": {"gem": 10, ...}, "tiles": {"J-odd": 2, ...}}}}}, ...]

Names are compared without case and extra spaces ("ana " is "Ana"). Wins, scores and
the game's own lines (its player_extra, summed: the page says them as its PLAYER_LINES ask)
count finished games only; a shared win is a win, counted again apart.
`summaries` are companion.history.summary's, each with its "id", oldest first.
"""


def name_key(name: str) -> str:
    return " ".join(str(name).split()).casefold()


class MergeError(ValueError):
    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key = key
        self.params = params


def player_of(key: str, aliases: dict) -> str:
    """The key of the player a name's key stands for, following merges (never in a loop)."""
    seen = {key}
    while key in aliases:
        key = name_key(aliases[key])
        if key in seen:
            break
        seen.add(key)
    return key


def check_merge(aliases: dict, name: str, into: str) -> tuple[str, str]:
    """(the alias's key, the name it goes into) or MergeError: an empty name, a name into
    itself, or a merge that would go round in a circle."""
    if not name_key(name) or not name_key(into):
        raise MergeError("merge_empty")
    if player_of(name_key(into), aliases) == player_of(name_key(name), aliases):
        raise MergeError("merge_same", name=name.strip(), into=into.strip())
    return name_key(name), " ".join(into.split())


def _blank(game: str) -> dict:
    return {"game": game, "played": 0, "unfinished": 0, "wins": 0, "shared_wins": 0, "best": None,
            "average": None, "scores": [], "extra": {}}


def records(summaries: list[dict], aliases: dict | None = None) -> list[dict]:
    aliases = aliases or {}
    players: dict[str, dict] = {}
    for summary in summaries:
        for seat, name in enumerate(summary["players"]):
            key = player_of(name_key(name), aliases)
            player = players.setdefault(key, {"key": key, "name": None, "spellings": [], "games": {}})
            if name not in player["spellings"]:
                player["spellings"].append(name)
            if key == name_key(name):
                player["name"] = " ".join(name.split())     # its own spelling, the latest used
            line = player["games"].setdefault(summary["game"], _blank(summary["game"]))
            if not summary["over"] or summary["error"]:
                line["unfinished"] += 1
                continue
            line["played"] += 1
            if seat in summary["winners"]:
                line["wins"] += 1
                line["shared_wins"] += len(summary["winners"]) > 1
            if summary["scores"] is not None:
                line["scores"].append(summary["scores"][seat])
            extra = (summary.get("extra") or [None] * (seat + 1))[seat]
            for name, items in (extra or {}).items():
                sums = line["extra"].setdefault(name, {})
                for item, n in items.items():
                    sums[item] = sums.get(item, 0) + n
    for key, player in players.items():
        player["name"] = player["name"] or _merged_name(key, aliases) or player["spellings"][0]
        for line in player["games"].values():
            scores = line["scores"]
            if scores:
                line["best"] = max(scores)
                line["average"] = round(sum(scores) / len(scores), 1)
    return sorted(players.values(), key=lambda p: (-sum(g["wins"] for g in p["games"].values()),
                                                  -sum(g["played"] for g in p["games"].values()),
                                                  p["key"]))


def _merged_name(key: str, aliases: dict) -> str | None:
    """The spelling a name was merged into, when that spelling never sat at the table itself."""
    for name in aliases.values():
        if name_key(name) == key:
            return name
    return None
