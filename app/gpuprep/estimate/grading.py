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
from gpuprep.units.table import Dimension, dimension_name

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


@dataclass(frozen=True)
class AnswerReading:
    """What a typed answer comes to for one worked-out question, before anyone judges it.

    The grader and the live preview both read answers through :func:`read_answer`, so what
    the preview says an answer means is what it is graded as.
    """

    unit: str
    """The unit the question asks for."""
    dimension: Dimension
    """The dimension of that unit (a time, a bandwidth ...)."""
    quantity: Quantity | None
    """The answer as read; a bare number is already read in `unit`. None when it does not evaluate."""
    error: EstimateError | None = None
    """Why the answer does not parse or evaluate (None when it does)."""
    bare_number: bool = False
    """The answer was a plain number, read in the question's unit."""

    @property
    def usable(self) -> bool:
        """It evaluates to a quantity of the dimension the question asks for."""
        return self.quantity is not None and self.quantity.dimension == self.dimension


def read_answer(
    answer_text: str, solution: Solution, hardware: Mapping[str, Hardware]
) -> AnswerReading:
    """Evaluate an answer with the question's GPU, params and `hardware` (every GPU it may name).

    A bare number is read in the question's unit; an answer of another dimension is read as it
    is (`usable` is then False); faults in the text are in `error`, never raised.
    """
    unit = solution.unit
    scale, dimension = parse_unit(unit)
    context = Context(hardware=hardware, gpu=solution.gpu, names=solution.params)
    try:
        given = evaluate(answer_text, context)
    except EstimateError as error:
        return AnswerReading(unit, dimension, None, error)
    if given.dimensionless and dimension != given.dimension:
        return AnswerReading(
            unit, dimension, Quantity(given.magnitude * scale, dimension), bare_number=True
        )
    return AnswerReading(unit, dimension, given)


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
    reading = read_answer(answer_text, solution, hardware)
    if reading.quantity is None:
        return Grade("invalid", None, expected, None, f"could not read the answer: {reading.error}")
    given = reading.quantity
    read_as = f" (a bare number is read in {unit})" if reading.bare_number else ""
    if not reading.usable:
        shown_unit = natural_unit(given)
        return Grade(
            "invalid",
            _figure(given.to(shown_unit), shown_unit),
            expected,
            None,
            f"you gave {dimension_name(given.dimension)}; the question asks for "
            f"{dimension_name(reading.dimension)}"
            + (f" (in {unit})" if unit not in ("", "1") else ""),
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


def grade_solved(
    question: Question, solution: Solution, answer_text: str, hardware: Mapping[str, Hardware]
) -> Grade:
    """Grade an answer against a solution already worked out, with the question's tolerances.

    What a session or a question view uses: the figure graded against is the one it showed.
    """
    tolerance = estimate_of(question).tolerance
    return grade_against(solution, answer_text, hardware, tolerance.correct, tolerance.close)


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
    return grade_solved(question, solve(question, bank, gpu, params), answer_text, bank.hardware)
