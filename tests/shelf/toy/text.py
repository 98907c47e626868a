"""Toss's replay text: each player's points, and the score sheet."""


def table_lines(game, words, cli: dict) -> list[str]:
    names = words.names(game.state)
    lines = [f"{name}: {points}" for name, points in zip(names, game.state["points"])]
    prompt = game.expected()
    if prompt["kind"] != "over":
        lines += ["", f"{cli['next']}: {words.prompt(prompt, names)}"]
    return lines


def score_lines(game, words, cli: dict) -> list[str]:
    names = words.names(game.state)
    lines = [f"{name} {words.page('points')} {points}" for name, points in zip(names, game.state["points"])]
    result = game.state["result"]
    if result:
        lines.append(words.page("winner", names=", ".join(names[w] for w in result["winners"])))
    return lines
