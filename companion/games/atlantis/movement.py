"""Movement: where a card (or a chain of cards) takes a citizen.

A card takes the citizen to the next tile of its colour ahead; water is
crossed, not counted. When that tile is occupied the player must play another
card from there, and so on; when the colour does not come again before the
mainland, the citizen goes to the mainland (A5).
"""

from .path import MAINLAND, occupied, top


def landing(state: dict, start: int, colour: str) -> int:
    """The next tile of `colour` after `start`, or the mainland."""
    for position in range(start + 1, MAINLAND):
        tile = top(state, position)
        if tile is not None and tile["colour"] == colour:
            return position
    return MAINLAND


def follow(state: dict, start: int, cards: list[str]) -> tuple[int | None, list[int]]:
    """Where `cards`, played in order, take a citizen from `start`: (end, positions landed on).

    end is None when the cards are no legal chain: each card but the last must
    land on an occupied tile, the last on a free one or the mainland.
    """
    position, steps = start, []
    for i, colour in enumerate(cards):
        position = landing(state, position, colour)
        steps.append(position)
        last = i == len(cards) - 1
        if occupied(state, position) == last or (position == MAINLAND and not last):
            return None, steps
    return (position if cards else None), steps


def routes(state: dict, start: int, max_cards: int) -> list[dict]:
    """Every legal chain of at most `max_cards` cards from `start`: [{"cards", "to", "steps"}].

    The cards in hand are hidden (their colours are entered as they are played),
    so this lists what any hand could do: the query and the move's options alike.
    """
    out = []

    def walk(position: int, cards: list[str], steps: list[int]) -> None:
        if len(cards) == max_cards:
            return
        for colour in state["profile"]["colours"]:
            to = landing(state, position, colour)
            if to == MAINLAND or not occupied(state, to):
                out.append({"cards": cards + [colour], "to": to, "steps": steps + [to]})
            else:
                walk(to, cards + [colour], steps + [to])

    walk(start, [], [])
    return out
