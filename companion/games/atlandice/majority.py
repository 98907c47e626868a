"""Who has the most, and the second most, of something (R7: zero is not a majority)."""


def ranks(counts: list[int]) -> tuple[list[int], list[int]]:
    """Seats with the most and with the second most, among seats holding at least one.

    counts: one non-negative count per seat. Returns (first, second), each a
    list of seat indexes in seat order. `second` is what holds the second-highest
    count; the caller decides whether second place scores (not after a tie for first).
    """
    held = sorted({c for c in counts if c > 0}, reverse=True)
    if not held:
        return [], []
    first = [s for s, c in enumerate(counts) if c == held[0]]
    second = [s for s, c in enumerate(counts) if len(held) > 1 and c == held[1]]
    return first, second
