"""The bands an answer falls in: correct, close or out, by a question's tolerance.

Relative bands compare given/expected; a whole-number question (`integer: exact | at_least`)
compares whole numbers, and a fraction is no answer to it at all.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from gpuprep.bank.question import Tolerance

Band = Literal["correct", "close", "out"]

#: How near a whole number a figure must be to count as one (float noise, not 1.9 for 2).
_WHOLE = 1e-6


def expected_integer(tolerance: Tolerance, expected: float) -> int:
    """The whole number a question with `integer` set expects for a solution value.

    `at_least` is the smallest whole number not below the value (1.86 GPUs' worth of memory needs
    2 GPUs); `exact` is the value rounded. Float noise (2.0000001) does not round up.
    """
    nearest = round(expected)
    if abs(expected - nearest) <= _WHOLE * max(1.0, abs(expected)):
        return int(nearest)
    return math.ceil(expected) if tolerance.integer == "at_least" else int(nearest)


def is_whole(value: float) -> bool:
    """A whole number, allowing for float noise."""
    return math.isfinite(value) and abs(value - round(value)) <= _WHOLE * max(1.0, abs(value))


def band_of(tolerance: Tolerance, given: float, expected: float) -> Band:
    """Which band `given` falls in around `expected` (both in the question's unit, expected > 0).

    For a whole-number question only the expected whole number is correct and nothing is close.
    """
    if tolerance.integer is not None:
        return "correct" if round(given) == expected_integer(tolerance, expected) else "out"
    if expected <= 0 or given <= 0:
        return "out"
    ratio = given / expected
    if abs(ratio - 1) <= tolerance.correct:
        return "correct"
    return "close" if tolerance.close_allows(ratio) else "out"


def log_distance(given: float, target: float) -> float:
    """|ln(given / target)|: how far apart two positive figures are, a factor either way alike."""
    return abs(math.log(given / target))
