"""Grading a typed answer against an estimation question's expected answer.

The answer is napkin math like any formula: '1.1 ms', 'about 1100 us', or
'2*8192^3 FLOP / 989 TFLOP/s'. It may name hardware figures (`gpu.hbm_bandwidth`) and the
question's params, but not its steps (that would be typing the solution's own name).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import Context, evaluate
from gpuprep.estimate.solve import ParamValue, Solution, estimate_of, solve
from gpuprep.units.display import natural_unit, plain_number, tidy
from gpuprep.units.quantity import Quantity, parse_unit
from gpuprep.units.table import dimension_name

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question

Verdict = Literal["correct", "close", "wrong", "invalid"]


@dataclass(frozen=True)
class Grade:
    """The verdict on one answer, with both figures in the question's unit."""

    verdict: Verdict
    """correct (within the tolerance), close (within the close factor), wrong, or invalid."""
    given: dict[str, Any] | None
    """{value, unit} of the answer; None when it did not parse or evaluate."""
    expected: dict[str, Any]
    """{value, unit} of the expected answer, in the question's unit."""
    ratio: float | None
    """given / expected; None when the answer is invalid."""
    message: str
    """What a person should read: the verdict, by what factor and which way."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _figure(value: float, unit: str) -> dict[str, Any]:
    return {"value": tidy(value), "unit": unit}


def _shown(value: float, unit: str) -> str:
    return f"{plain_number(value)} {unit}".strip()


def grade_against(
    solution: Solution,
    answer_text: str,
    hardware: Mapping[str, Hardware],
    tolerance_correct: float = 0.25,
    tolerance_close: float = 2.0,
) -> Grade:
    """Grade `answer_text` against a worked-out solution (see :func:`grade`).

    `hardware` is every GPU the answer may name (`h100_sxm.hbm_bandwidth`).
    """
    unit = solution.unit
    expected_value = solution.answer_value
    expected = _figure(expected_value, unit)
    expected_text = _shown(expected_value, unit)
    context = Context(hardware=hardware, gpu=solution.gpu, names=solution.params)
    try:
        given = evaluate(answer_text, context)
    except EstimateError as error:
        return Grade("invalid", None, expected, None, f"could not read the answer: {error}")
    scale, dimension = parse_unit(unit)
    read_as = ""
    if given.dimensionless and dimension != given.dimension:
        given = Quantity(given.magnitude * scale, dimension)
        read_as = f" (a bare number is read in {unit})"
    if given.dimension != dimension:
        shown_unit = natural_unit(given)
        return Grade(
            "invalid",
            _figure(given.to(shown_unit), shown_unit),
            expected,
            None,
            f"you gave {dimension_name(given.dimension)}; the question asks for "
            f"{dimension_name(dimension)}" + (f" (in {unit})" if unit not in ("", "1") else ""),
        )
    given_value = given.to(unit)
    given_figure = _figure(given_value, unit)
    given_text = _shown(given_value, unit)
    if expected_value == 0:
        verdict: Verdict = "correct" if given_value == 0 else "wrong"
        return Grade(
            verdict,
            given_figure,
            expected,
            None,
            f"{verdict}: the expected answer is {expected_text}",
        )
    ratio = given_value / expected_value
    if ratio <= 0:
        return Grade(
            "wrong",
            given_figure,
            expected,
            ratio,
            f"wrong: {given_text}{read_as} "
            f"{'is zero' if ratio == 0 else 'has the wrong sign'}; expected about {expected_text}",
        )
    off = abs(ratio - 1)
    if off <= tolerance_correct:
        return Grade(
            "correct",
            given_figure,
            expected,
            ratio,
            f"correct: {given_text}{read_as} is {off:.1%} from {expected_text}",
        )
    factor = ratio if ratio >= 1 else 1 / ratio
    direction = "too high" if ratio > 1 else "too low"
    how_far = (
        f"{given_text}{read_as} is {plain_number(factor, 2)}x {direction}; expected {expected_text}"
    )
    if factor <= tolerance_close:
        return Grade(
            "close",
            given_figure,
            expected,
            ratio,
            f"close: {how_far} (correct is within {tolerance_correct:.0%})",
        )
    return Grade("wrong", given_figure, expected, ratio, f"wrong: {how_far}")


def grade(
    question: Question,
    answer_text: str,
    bank: Bank,
    gpu: str | None = None,
    params: Mapping[str, ParamValue] | None = None,
) -> Grade:
    """Grade an answer to an estimation question for its GPU (or `gpu`) and params.

    A bare number is read in the question's unit; an answer of another dimension is
    `invalid` with a message naming both; a wrong one says by what factor and which way.
    Raises :class:`EstimateError` when the question, GPU or params are not valid (the
    answer's own faults are an `invalid` grade, never an exception).
    """
    estimate = estimate_of(question)
    solution = solve(question, bank, gpu, params)
    return grade_against(
        solution, answer_text, bank.hardware, estimate.tolerance.correct, estimate.tolerance.close
    )
