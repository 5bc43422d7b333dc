"""Every estimation question of the built-in bank, on every GPU it allows, grades its traps.

For each: the expected answer written in another unit is correct; each trap's own value
(the question's and the generic ones that apply) is wrong with that trap named, unless it lies
inside the correct band (`bank check` warns about those); the expected answer typed 1000x off
is invalid with "did you give it in ...?". Questions without traps of their own simply have no
own-trap cases yet.
"""

from __future__ import annotations

import pytest

from gpuprep.bank.loader import load_bank
from gpuprep.bank.question import Question
from gpuprep.estimate.bands import band_of, expected_integer, is_whole
from gpuprep.estimate.explain import shifted_unit
from gpuprep.estimate.grading import asks_percent, grade_solved
from gpuprep.estimate.solve import Solution, solve
from gpuprep.estimate.traps import all_traps

BANK, _PROBLEMS = load_bank()
ESTIMATION = [q for q in BANK.questions.values() if q.estimate is not None]
CASES = [
    (question.id, gpu)
    for question in ESTIMATION
    for gpu in question.estimate.allowed_gpus()  # type: ignore[union-attr]
    if gpu in BANK.hardware
]
IDS = [f"{q}@{g}" for q, g in CASES]


def solved(question_id: str, gpu: str) -> tuple[Question, Solution]:
    question = BANK.questions[question_id]
    return question, solve(question, BANK, gpu)


def in_another_unit(question: Question, solution: Solution) -> str:
    """The expected answer as a person might write it in a unit other than the question's."""
    unit, value = solution.unit, solution.answer_value
    tolerance = question.estimate.tolerance  # type: ignore[union-attr]
    if tolerance.integer is not None:
        return f"about {expected_integer(tolerance, value)}"
    if unit in ("", "1"):
        if asks_percent(question, solution):
            return f"{value!r}%"
        if value >= 1000:
            return f"{value / 1000!r}k"
        if value < 1:
            return f"{value * 100!r}%"
        return f"~{value!r}"
    for step in (-1, 1):
        other = shifted_unit(unit, step)
        if other is not None:
            return f"{value * 1000.0**-step!r} {other}"
    return f"≈ {value!r} {unit}"


@pytest.mark.parametrize(("question_id", "gpu"), CASES, ids=IDS)
def test_the_expected_answer_in_another_unit_is_correct(question_id: str, gpu: str) -> None:
    question, solution = solved(question_id, gpu)
    typed = in_another_unit(question, solution)
    result = grade_solved(question, solution, typed, BANK.hardware)
    assert result.verdict == "correct", f"{typed!r}: {result.message}"


@pytest.mark.parametrize(("question_id", "gpu"), CASES, ids=IDS)
def test_each_traps_own_value_is_wrong_and_named(question_id: str, gpu: str) -> None:
    question, solution = solved(question_id, gpu)
    tolerance = question.estimate.tolerance  # type: ignore[union-attr]
    expected, unit = solution.answer_value, solution.unit
    traps = all_traps(question, solution, BANK.hardware)
    for trap in traps:
        value = trap.value.to(unit)
        if value <= 0 or band_of(tolerance, value, expected) == "correct":
            continue  # bank check warns about a trap inside the correct band
        if tolerance.integer is not None and not is_whole(value):
            continue  # a fraction is no answer to a whole-number question (bank check warns)
        result = grade_solved(question, solution, f"{value!r} {unit}".strip(), BANK.hardware)
        same_value = {
            t.name
            for t in traps
            if abs(t.value.to(unit) / value - 1) < 1e-9
            or (tolerance.integer is not None and round(t.value.to(unit)) == round(value))
        }
        assert result.verdict == "wrong", f"trap {trap.name!r} ({value:g} {unit}): {result.message}"
        assert result.trap in same_value, f"trap {trap.name!r}: {result.message}"


@pytest.mark.parametrize(("question_id", "gpu"), CASES, ids=IDS)
def test_the_answer_typed_1000x_off_is_invalid_with_the_hint(question_id: str, gpu: str) -> None:
    question, solution = solved(question_id, gpu)
    estimate = question.estimate
    assert estimate is not None
    if estimate.tolerance.integer is not None or not estimate.generic_traps.applies("ms_vs_us"):
        pytest.skip("a whole-number question, or one that opts out of the 1000x check")
    traps = all_traps(question, solution, BANK.hardware)
    for factor in (1000.0, 0.001):
        off = solution.answer_value * factor
        if asks_percent(question, solution) and off <= 1:
            continue  # a bare 0.092 is 9.2% in a percentage question, by design
        if any(
            estimate.tolerance.close_allows(off / t.value.to(solution.unit))
            for t in traps
            if t.value.magnitude > 0
        ):
            continue  # the question has a trap of its own there, and names it instead
        result = grade_solved(question, solution, repr(off), BANK.hardware)
        assert result.verdict == "invalid", f"{off!r}: {result.message}"
        assert "did you" in result.message, result.message


# Content target of issue 13, filled in by the bank's writers: it passes once at least 90% of
# the estimation questions carry a trap written for their own most common slip.
OWN_TRAP_SHARE = 0.90


def test_at_least_90_percent_of_estimation_questions_have_a_trap_of_their_own() -> None:
    without = sorted(q.id for q in ESTIMATION if not q.estimate.traps)  # type: ignore[union-attr]
    share = 1 - len(without) / len(ESTIMATION)
    assert share >= OWN_TRAP_SHARE, (
        f"{share:.0%} of {len(ESTIMATION)} estimation questions have a trap of their own; "
        f"without one: {', '.join(without)}"
    )
