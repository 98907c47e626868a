"""Were the dice fair? Pearson's chi-square test of the face counts against a uniform die.

    fairness({1: 12, 2: 9, 3: 11, 4: 10, 5: 8, 6: 22})
    -> {"n": 72, "chi2": 10.33, "df": 5, "p": 0.066, "verdict": "fair", ...}

The p-value is the chi-square distribution's upper tail, Q(df/2, chi2/2) (the
regularized upper incomplete gamma function), which has a closed form for a
whole number of degrees of freedom: a finite sum for an even df, erfc plus a
finite sum for an odd one. Standard library only: it runs on the Pi, no scipy.
"""

import math

# Below this p-value the verdict names the face that strays most (a 1-in-20 chance with fair dice).
ALPHA = 0.05
# The test is trusted when every face is expected at least this often (Cochran's rule).
MIN_EXPECTED = 5


def chi2_upper_tail(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with `df` (a whole number >= 1) degrees of freedom."""
    if df < 1 or df != int(df):
        raise ValueError(f"degrees of freedom must be a whole number >= 1, not {df!r}")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        # Q(k, h) = e^-h * sum_{i<k} h^i / i!
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    # Q(k + 1/2, h) = erfc(sqrt h) + e^-h * sum_{i<k} h^(i+1/2) / Gamma(i + 3/2)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)
    for i in range(df // 2):
        if i:
            term *= half / (i + 0.5)
        total += math.exp(-half) * term
    return min(1.0, total)


def count_faces(rolls, faces) -> dict:
    """How often each of `faces` came up in `rolls` (a face not in `faces` is an error)."""
    counts = {f: 0 for f in faces}
    for r in rolls:
        if r not in counts:
            raise ValueError(f"{r!r} is not a face of this die ({', '.join(map(str, faces))})")
        counts[r] += 1
    return counts


def fairness(counts: dict) -> dict:
    """The chi-square test of `counts` ({face: times seen}, every face listed) against a fair die.

    verdict: "too_few" (fewer than MIN_EXPECTED rolls expected of each face: no verdict),
    "fair" (nothing unusual), or "unusual" (p < ALPHA); `face` is then the face that strays
    most from what fair dice would give, and `more` whether it came up more (or less) often."""
    faces = list(counts)
    if len(faces) < 2:
        raise ValueError("a die has at least two faces")
    n = sum(counts.values())
    expected = n / len(faces)
    out = {"counts": dict(counts), "n": n, "expected": expected, "df": len(faces) - 1,
           "min_rolls": MIN_EXPECTED * len(faces), "chi2": None, "p": None, "face": None, "more": None}
    if expected < MIN_EXPECTED:
        return dict(out, verdict="too_few")
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    p = chi2_upper_tail(chi2, len(faces) - 1)
    out.update(chi2=chi2, p=p)
    if p >= ALPHA:
        return dict(out, verdict="fair")
    face = max(faces, key=lambda f: abs(counts[f] - expected))
    return dict(out, verdict="unusual", face=face, more=counts[face] > expected)
