"""Survey: the most of one resource, or of all together, takes 1 VP token (ties all score)."""

from .majority import ranks
from .names import RESOURCES


def survey_counts(stocks: list[dict], subject: str, depleted: list) -> list[int]:
    """Each seat's count for a Survey of `subject` (a resource, or "total")."""
    if subject == "total":
        return [sum(stock[r] for r in RESOURCES if r not in depleted) for stock in stocks]
    if subject in depleted:
        return [0 for _ in stocks]
    return [stock[subject] for stock in stocks]


def survey_winners(counts: list[int]) -> list[int]:
    """Seats taking 1 VP: everyone tied for the most, none when nobody holds any (R7)."""
    return ranks(counts)[0]
