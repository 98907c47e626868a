"""The dice's chi-square test on known sequences, and its p-value against the chi-square tables."""

import itertools
import random

import pytest

from companion.history.dice_fairness import MIN_EXPECTED, chi2_upper_tail, count_faces, fairness

FACES = (1, 2, 3, 4, 5, 6)


# Critical values from the chi-square table: P(X >= x) for df degrees of freedom.
@pytest.mark.parametrize("x, df, p", [
    (3.841459, 1, 0.05), (6.634897, 1, 0.01), (5.991465, 2, 0.05), (9.210340, 2, 0.01),
    (7.814728, 3, 0.05), (9.487729, 4, 0.05), (11.070498, 5, 0.05), (15.086272, 5, 0.01),
    (20.515006, 5, 0.001), (1.145476, 5, 0.95), (4.351460, 5, 0.5), (18.307038, 10, 0.05)])
def test_upper_tail_matches_the_tables(x, df, p):
    assert chi2_upper_tail(x, df) == pytest.approx(p, rel=1e-5)


def test_upper_tail_is_one_at_zero_and_falls():
    assert chi2_upper_tail(0, 5) == 1.0
    tails = [chi2_upper_tail(x / 2, 5) for x in range(1, 60)]
    assert tails == sorted(tails, reverse=True)
    with pytest.raises(ValueError):
        chi2_upper_tail(3.0, 0)


def test_a_fair_sequence_is_nothing_unusual():
    # 120 rolls, each face 18 to 22 times.
    rolls = list(itertools.chain.from_iterable(itertools.repeat(FACES, 20)))
    rolls[:4] = [6, 6, 1, 1]       # two 1s and two 2s became 6s and 1s
    result = fairness(count_faces(rolls, FACES))
    assert result["n"] == 120
    assert result["verdict"] == "fair"
    assert result["p"] > 0.5 and result["face"] is None


def test_seeded_fair_dice_mostly_pass():
    rng = random.Random(7)
    verdicts = [fairness(count_faces([rng.randint(1, 6) for _ in range(300)], FACES))["verdict"]
                for _ in range(200)]
    # About 1 in 20 fair samples is "unusual" by chance: far fewer than half.
    assert verdicts.count("fair") > 170


def test_a_loaded_die_is_named():
    # A six twice as likely as each other face, 210 rolls: 60 sixes, 30 of each other face.
    counts = {1: 30, 2: 30, 3: 30, 4: 30, 5: 30, 6: 60}
    result = fairness(counts)
    assert result["verdict"] == "unusual"
    assert result["face"] == 6 and result["more"] is True
    assert result["chi2"] == pytest.approx(750 / 35)   # (4 x 5² + 25²) / 35
    assert result["p"] < 0.001


def test_a_face_that_comes_up_too_rarely_is_named_as_less():
    result = fairness({1: 40, 2: 40, 3: 40, 4: 40, 5: 40, 6: 8})
    assert result["verdict"] == "unusual" and result["face"] == 6 and result["more"] is False


def test_too_few_rolls_for_a_verdict():
    need = MIN_EXPECTED * 6
    short = fairness({f: (need - 1) // 6 + (1 if f <= (need - 1) % 6 else 0) for f in FACES})
    assert short["n"] == need - 1 and short["verdict"] == "too_few" and short["p"] is None
    assert short["min_rolls"] == need
    enough = fairness({f: need // 6 for f in FACES})
    assert enough["verdict"] != "too_few"


def test_a_three_faced_die():
    assert fairness({"serpent": 10, "shark": 10, "whale": 10})["verdict"] == "fair"
    loaded = fairness({"serpent": 5, "shark": 30, "whale": 10})
    assert loaded["verdict"] == "unusual" and loaded["face"] == "shark" and loaded["df"] == 2


def test_a_face_not_on_the_die_is_refused():
    with pytest.raises(ValueError):
        count_faces([1, 7], FACES)
