"""Every estimation question of the built-in bank, on every GPU it allows, checks out.

The expected answer evaluates, and the final bold figure of the rendered worked answer (the
`**{{ answer }}**` the writers end with) grades `correct` against it: the text a user reads
and the number they are graded against cannot drift apart.
"""

from __future__ import annotations

import re

import pytest

from gpuprep.bank.loader import load_bank
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import evaluate
from gpuprep.estimate.grading import grade
from gpuprep.estimate.render import render_question

BANK, _PROBLEMS = load_bank()
CASES = [
    (question.id, gpu)
    for question in BANK.questions.values()
    if question.estimate is not None
    for gpu in question.estimate.allowed_gpus()
]
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)


def final_bold_figure(answer: str) -> str:
    """The last `**...**` of the worked answer that reads as a number with a unit."""
    for candidate in reversed(_BOLD.findall(answer)):
        text = candidate.strip().rstrip(".")
        try:
            evaluate(text)
        except EstimateError:
            continue
        return text
    raise AssertionError("the worked answer has no bold final figure (**{{ answer }}**)")


def test_the_built_in_bank_has_estimation_questions() -> None:
    assert CASES


@pytest.mark.parametrize(("question_id", "gpu"), CASES, ids=[f"{q}@{g}" for q, g in CASES])
def test_the_worked_answers_bold_figure_grades_correct(question_id: str, gpu: str) -> None:
    question = BANK.questions[question_id]
    rendered = render_question(question, BANK, gpu)
    assert rendered.expected is not None
    assert rendered.expected_value is not None and rendered.expected_value > 0
    figure = final_bold_figure(rendered.answer)
    result = grade(question, figure, BANK, gpu)
    assert result.verdict == "correct", f"{figure!r}: {result.message}"


@pytest.mark.parametrize(("question_id", "gpu"), CASES, ids=[f"{q}@{g}" for q, g in CASES])
def test_every_variant_value_gives_a_positive_answer(question_id: str, gpu: str) -> None:
    question = BANK.questions[question_id]
    assert question.estimate is not None
    for name, param in question.estimate.params.items():
        for value in param.values:
            rendered = render_question(question, BANK, gpu, {name: value})
            assert rendered.expected_value is not None and rendered.expected_value > 0


DEFAULTS = [question.id for question in BANK.questions.values() if question.estimate is not None]


@pytest.mark.parametrize("question_id", DEFAULTS)
def test_the_worked_solutions_substituted_forms_evaluate_to_each_result(question_id: str) -> None:
    from gpuprep.estimate.evaluate import Context
    from gpuprep.estimate.render import worked_solution

    worked = worked_solution(BANK.questions[question_id], BANK)
    # Hardware names evaluate (gpu.* as the question's GPU); only params and steps stay symbolic.
    context = Context(hardware=BANK.hardware, gpu=BANK.hardware[worked.gpu])
    for line in worked.lines:
        result = evaluate(line.result)
        for form in line.forms[1:]:
            if "ceil(" in form or "floor(" in form:
                continue  # rounded figures may sit on the other side of a step
            try:
                value = evaluate(form, context)
            except EstimateError as error:
                assert "unknown name" in error.message, f"{form!r}: {error}"
                continue
            assert value.dimension == result.dimension, form
            assert value.magnitude == pytest.approx(result.magnitude, rel=0.02), (
                f"{line.name}: {form} != {line.result}"
            )
