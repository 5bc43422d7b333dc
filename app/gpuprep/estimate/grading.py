"""Grading a typed answer against an estimation question's expected answer.

The answer is napkin math like any formula ('1.1 ms', 'about 1100 us', '2*8192^3 FLOP / 989
TFLOP/s') or a number as people say it ('468k', '55%', '3.5x'). It may name hardware figures
(`gpu.hbm_bandwidth`) and the question's params, but not its steps.

The verdict, in order: an answer that does not read is invalid; one nearer a trap (a known
slip, by log distance) than the expected value is wrong and names the trap; one off by exactly
a power of 1000 is invalid with "did you give it in us?"; then the question's bands decide, with
GB for GiB forgiven. In a closed-book session an answer that reads a figure from the table is
still graded, but marked `from_table` with the figures the user should know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

from gpuprep.estimate.bands import band_of, expected_integer, is_whole, log_distance
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import Context, evaluate
from gpuprep.estimate.explain import (
    reads_the_table,
    stopped_at_step,
    table_figures,
    thousands_hint,
)
from gpuprep.estimate.parser import Node, parse
from gpuprep.estimate.reader import read_typed
from gpuprep.estimate.solve import ParamValue, Solution, estimate_of, solve
from gpuprep.estimate.traps import GIB_PER_GB, TrapValue, moves_data, usable_traps
from gpuprep.units.display import natural_unit, plain_number, tidy
from gpuprep.units.quantity import Quantity, parse_unit
from gpuprep.units.table import DIMENSIONLESS, Dimension, dimension_name

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question, Tolerance

Verdict = Literal["correct", "close", "wrong", "invalid"]

#: How near a figure must be to a slip's value to be that slip alone (rounding, not judgment).
_ROUNDING = 0.02
GIB_SLIP = "GB for GiB"
GIB_EXPLAIN = "A GiB is 2^30 bytes and a GB 10^9: 7.4% apart. Fine for an estimate; say which."
_PERCENT_QUESTION = re.compile(r"\bper ?cent", re.IGNORECASE)


@dataclass(frozen=True)
class Grade:
    """The verdict on one answer, with both figures in the question's unit, and why."""

    verdict: Verdict
    """correct (within the tolerance), close (within the close band), wrong, or invalid."""
    given: dict[str, Any] | None
    """{value, unit} of the answer; None when it did not parse or evaluate."""
    expected: dict[str, Any]
    """{value, unit} of the expected answer, in the question's unit."""
    ratio: float | None
    """given / expected; None when the answer is invalid."""
    message: str
    """What a person should read: the verdict, by what factor and which way."""
    why: str = ""
    """One sentence: the ratio, the band, the trap if one matched, the step it stopped at."""
    trap: str | None = None
    """The name of the slip the answer matched (own or generic), or None."""
    trap_explain: str | None = None
    """Why that slip is one: shown with a wrong answer."""
    from_table: bool = False
    """Closed book: the answer read a hardware figure instead of recalling it."""
    table_figures: tuple[str, ...] = ()
    """The figures the answer read ('A100 SXM4 80GB bf16 dense: 312 TFLOP/s'), to learn."""
    notes: tuple[str, ...] = ()
    """How the typed text was read ('468k read as 468 × 1e3')."""

    def to_json(self) -> dict[str, Any]:
        document = asdict(self)
        document["table_figures"] = list(self.table_figures)
        document["notes"] = list(self.notes)
        return document


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
    tree: Node | None = None
    """The parsed answer (None when it does not parse), to see which figures it names."""
    notes: tuple[str, ...] = ()
    """How the typed text was read: suffixes, separators, a percentage."""

    @property
    def usable(self) -> bool:
        """It evaluates to a quantity of the dimension the question asks for."""
        return self.quantity is not None and self.quantity.dimension == self.dimension


def asks_percent(question: Question | None, solution: Solution) -> bool:
    """A plain-number question whose prompt asks for a percentage and whose figure is one (92,
    not 0.92): '92%' is then 92 and a bare 0.92 is read as 92%."""
    if question is None or solution.answer.dimension != DIMENSIONLESS:
        return False
    return bool(_PERCENT_QUESTION.search(question.prompt)) and 1 < solution.answer_value <= 100


def read_answer(
    answer_text: str,
    solution: Solution,
    hardware: Mapping[str, Hardware],
    question: Question | None = None,
) -> AnswerReading:
    """Evaluate an answer with the question's GPU, params and `hardware` (every GPU it may name).

    A bare number is read in the question's unit; an answer of another dimension is read as it
    is (`usable` is then False); faults in the text are in `error`, never raised. With the
    `question`, a percentage is read the way its prompt asks for one.
    """
    unit = solution.unit
    scale, dimension = parse_unit(unit)
    context = Context(hardware=hardware, gpu=solution.gpu, names=solution.params)
    typed = read_typed(answer_text, counts=dimension == DIMENSIONLESS)
    notes = list(typed.notes)
    try:
        tree = parse(typed.expression).root
        given = evaluate(typed.expression, context)
    except EstimateError as failure:
        shown = failure
        if typed.expression != answer_text:
            # Point at the text the user typed, not at our rewrite of it.
            try:
                evaluate(answer_text, context)
            except EstimateError as original:
                shown = original
        return AnswerReading(unit, dimension, None, shown)
    percent = asks_percent(question, solution)
    bare = given.dimensionless and dimension != given.dimension
    if percent and given.dimensionless:
        if typed.percent:
            given = given * Quantity(100.0)
        elif 0 < given.magnitude <= 1:
            notes.append(
                f"{plain_number(given.magnitude)} read as {plain_number(given.magnitude * 100)}%"
            )
            given = given * Quantity(100.0)
    elif typed.percent:
        notes.append(f"{answer_text.strip()} read as {plain_number(given.magnitude)}")
    if bare:
        given = Quantity(given.magnitude * scale, dimension)
    return AnswerReading(unit, dimension, given, None, bare, tree, tuple(notes))


def nearest_trap(
    given: float, expected: float, traps: list[TrapValue], unit: str, tolerance: Tolerance
) -> TrapValue | None:
    """The trap an answer fell into: nearer to it than to the expected value (log distance) and
    within the close band of it. Own traps come first, so on a tie the specific one is named."""
    if tolerance.integer is not None:
        target = expected_integer(tolerance, expected)
        for trap in traps:
            value = trap.value.to(unit)
            if round(value) != target and round(given) == round(value):
                return trap
        return None
    to_answer = log_distance(given, expected)
    best: TrapValue | None = None
    best_distance = to_answer
    for trap in traps:
        value = trap.value.to(unit)
        if not value > 0:
            continue
        distance = log_distance(given, value)
        if distance < best_distance and tolerance.close_allows(given / value):
            best, best_distance = trap, distance
    return best


def thousands_off(given: float, expected: float, tolerance: Tolerance) -> int:
    """k when given is 1000^k times the expected value (k = ±1..±3, within the correct band);
    0 when it is not."""
    for powers in (1, -1, 2, -2, 3, -3):
        if abs(given / (expected * 1000.0**powers) - 1) <= tolerance.correct:
            return powers
    return 0


def grade_solved(
    question: Question,
    solution: Solution,
    answer_text: str,
    hardware: Mapping[str, Hardware],
    *,
    open_book: bool = True,
) -> Grade:
    """Grade an answer against a solution already worked out, with the question's tolerance and
    traps. `open_book=False` (practice and mock) marks an answer that reads the table.

    What a session or a question view uses: the figure graded against is the one it showed.
    """
    return _Grading(question, solution, hardware, open_book).grade(answer_text)


class _Grading:
    def __init__(
        self,
        question: Question,
        solution: Solution,
        hardware: Mapping[str, Hardware],
        open_book: bool,
    ) -> None:
        self.question = question
        self.estimate = estimate_of(question)
        self.tolerance = self.estimate.tolerance
        self.solution = solution
        self.hardware = hardware
        self.open_book = open_book
        self.unit = solution.unit
        self.expected_value = solution.answer_value
        if self.tolerance.integer is not None:
            # A whole-number question is graded against the whole number it asks for.
            self.expected_value = float(expected_integer(self.tolerance, self.expected_value))
        self.expected = _figure(self.expected_value, self.unit)
        self.expected_text = _shown(self.expected_value, self.unit)

    def band_text(self) -> str:
        if self.tolerance.integer is not None:
            return "only the whole number is correct"
        close = self.tolerance.close
        close_text = f"{close:g}x" if close > 1 else f"±{close:.0%}"
        return f"correct within ±{self.tolerance.correct:.0%}, close within {close_text}"

    def grade(self, answer_text: str) -> Grade:
        reading = read_answer(answer_text, self.solution, self.hardware, self.question)
        if reading.quantity is None:
            message = f"could not read the answer: {reading.error}"
            return Grade("invalid", None, self.expected, None, message, why=message)
        given = reading.quantity
        if not reading.usable:
            shown_unit = natural_unit(given)
            message = (
                f"you gave {dimension_name(given.dimension)}; the question asks for "
                f"{dimension_name(reading.dimension)}"
                + (f" (in {self.unit})" if self.unit not in ("", "1") else "")
            )
            return Grade(
                "invalid",
                _figure(given.to(shown_unit), shown_unit),
                self.expected,
                None,
                message,
                why=message,
                notes=reading.notes,
            )
        figures: tuple[str, ...] = ()
        from_table = False
        if reading.tree is not None and reads_the_table(reading.tree):
            figures = table_figures(reading.tree, self.solution, self.hardware)
            from_table = not self.open_book
        grade = self.judge(given.to(self.unit), reading)
        if not from_table:
            return grade
        know = f" (know it: {'; '.join(figures)})" if figures else ""
        head = f"{grade.verdict}, from the table" + grade.message.removeprefix(grade.verdict)
        explain = grade.trap_explain
        if explain:
            # The trap's explanation stays last, where a front end may set it apart.
            head = head.removesuffix(" " + explain)
        return Grade(
            grade.verdict,
            grade.given,
            grade.expected,
            grade.ratio,
            head + know + (f" {explain}" if explain else ""),
            why=grade.why + know,
            trap=grade.trap,
            trap_explain=explain,
            from_table=True,
            table_figures=figures,
            notes=grade.notes,
        )

    def judge(self, given_value: float, reading: AnswerReading) -> Grade:
        tolerance = self.tolerance
        expected_value = self.expected_value
        read_as = f" (a bare number is read in {self.unit})" if reading.bare_number else ""
        given_text = _shown(given_value, self.unit) + read_as
        given = _figure(given_value, self.unit)
        notes = reading.notes

        def result(
            verdict: Verdict, ratio: float | None, message: str, why: str, **extra: Any
        ) -> Grade:
            return Grade(
                verdict, given, self.expected, ratio, message, why=why, notes=notes, **extra
            )

        if expected_value == 0:
            verdict: Verdict = "correct" if given_value == 0 else "wrong"
            said = f"{verdict}: the expected answer is {self.expected_text}"
            return result(verdict, None, said, said)
        ratio = given_value / expected_value
        if ratio <= 0:
            said = (
                f"wrong: {given_text} {'is zero' if ratio == 0 else 'has the wrong sign'}; "
                f"expected about {self.expected_text}"
            )
            return result("wrong", ratio, said, said)
        if tolerance.integer is not None and not is_whole(given_value):
            target = expected_integer(tolerance, expected_value)
            said = (
                f"the answer is a whole number ({'the smallest that is enough' if tolerance.integer == 'at_least' else 'exactly'}); "
                f"{plain_number(given_value, 4)} is not one: round it the way the question needs"
            )
            return result("invalid", ratio, f"invalid: {said}", f"{said} (expected {target})")
        traps = usable_traps(self.question, self.solution, self.hardware)
        trap = nearest_trap(given_value, expected_value, traps, self.unit, tolerance)
        factor = ratio if ratio >= 1 else 1 / ratio
        direction = "too high" if ratio > 1 else "too low"
        how_far = (
            f"{given_text} is {plain_number(factor, 2)}x {direction}; expected {self.expected_text}"
        )
        if trap is not None:
            trap_text = _shown(trap.value.to(self.unit), self.unit)
            why = (
                f"{given_text} is nearer the slip '{trap.name}' ({trap_text}) than the expected "
                f"{self.expected_text}: {trap.explain}"
            )
            return result(
                "wrong",
                ratio,
                f"wrong ({trap.name}): {how_far}. {trap.explain}",
                why,
                trap=trap.name,
                trap_explain=trap.explain,
            )
        generic = self.estimate.generic_traps
        powers = (
            thousands_off(given_value, expected_value, tolerance)
            if generic.applies("ms_vs_us") and tolerance.integer is None
            else 0
        )
        if powers:
            hint = thousands_hint(self.unit, powers, given_value)
            said = f"{given_text} is exactly {plain_number(1000.0 ** abs(powers))}x {direction}: {hint}"
            return result("invalid", ratio, f"invalid: {said}", said)
        band = band_of(tolerance, given_value, expected_value)
        forgiven = ""
        if (
            band != "correct"
            and generic.applies("gb_vs_gib")
            and moves_data(self.question, self.solution)
        ):
            # Only the slip alone is forgiven: the answer is the expected figure read in the
            # other unit, to rounding, not anything within 7.4% plus the band.
            slip = min(tolerance.correct, _ROUNDING)
            for power in (1, -1):
                if abs(given_value / (expected_value * GIB_PER_GB**power) - 1) <= slip:
                    band = "correct"
                    forgiven = " (GB and GiB differ by 7.4%; that alone is never wrong)"
                    break
        bands = self.band_text()
        if band == "correct":
            off = abs(ratio - 1)
            why = f"{given_text} is {off:.1%} from {self.expected_text}: inside the band ({bands}){forgiven}"
            # Not wrong, but still a slip: named, so that Stats can count it.
            named = {"trap": GIB_SLIP, "trap_explain": GIB_EXPLAIN} if forgiven else {}
            return result(
                "correct",
                ratio,
                f"correct: {given_text} is {off:.1%} from {self.expected_text}{forgiven}",
                why,
                **named,
            )
        step = stopped_at_step(self.question, self.solution, given_value, tolerance.correct)
        step_text = f"; {step}" if step else ""
        if band == "close":
            why = f"{how_far}: outside the correct band, inside the close one ({bands}){step_text}"
            correct_text = (
                f"the whole number {expected_integer(tolerance, expected_value)}"
                if tolerance.integer is not None
                else f"within {tolerance.correct:.0%}"
            )
            return result(
                "close", ratio, f"close: {how_far} (correct is {correct_text}){step_text}", why
            )
        why = f"{how_far}: outside the close band ({bands}){step_text}"
        return result("wrong", ratio, f"wrong: {how_far}{step_text}", why)


def grade(
    question: Question,
    answer_text: str,
    bank: Bank,
    gpu: str | None = None,
    params: Mapping[str, ParamValue] | None = None,
    *,
    open_book: bool = True,
) -> Grade:
    """Grade an answer to an estimation question for its GPU (or `gpu`) and params.

    A bare number is read in the question's unit; an answer of another dimension is
    `invalid` with a message naming both; a wrong one says by what factor and which way.
    Raises :class:`EstimateError` when the question, GPU or params are not valid (the
    answer's own faults are an `invalid` grade, never an exception).
    """
    solution = solve(question, bank, gpu, params)
    return grade_solved(question, solution, answer_text, bank.hardware, open_book=open_book)
