"""One question, one view: the GPU rule every front end shares, one solve, one answer reader."""

from __future__ import annotations

import sys
from functools import cache

import pytest

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.question import Question
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.variants import Variant
from gpuprep.sessions.question_view import QuestionView, question_gpu


@cache
def bank() -> Bank:
    loaded, _problems = load_bank()
    return loaded


def copy_question(kind: str = "estimation") -> Question:
    """A copy-time question asked on an H100 (its own) or an A100."""
    data: dict[str, object] = {
        "id": "view-copy",
        "title": "Copy a buffer",
        "kind": kind,
        "level": "junior",
        "minutes": 3,
        "prompt": "Copy {{ size }} on one {{ gpu.name }}." if kind == "estimation" else "Why?",
        "answer": "{{ bytes }} / {{ gpu.hbm_bandwidth }} = **{{ answer }}**"
        if kind == "estimation"
        else "Because.",
        "rubric": {"strong_signals": ["counts the write"], "red_flags": ["only the read"]},
    }
    if kind == "estimation":
        data["estimate"] = {
            "solution": "bytes / gpu.hbm_bandwidth",
            "unit": "us",
            "gpu": "h100_sxm",
            "gpus": ["a100_sxm"],
            "params": {"size": {"value": 1, "unit": "GB", "values": [2, 4]}},
            "steps": [{"name": "bytes", "formula": "2 * size", "unit": "GB"}],
        }
    return Question.model_validate(data)


@pytest.fixture
def solve_calls(monkeypatch):
    """Every call to the estimate engine's `solve`, wherever a module imported it from."""
    import gpuprep.estimate.grading
    import gpuprep.estimate.render
    import gpuprep.estimate.worked
    import gpuprep.sessions.question_view  # noqa: F401
    from gpuprep.estimate import solve as solve_module

    original = solve_module.solve
    calls: list[str] = []

    def counting(question, *args, **kwargs):
        calls.append(question.id)
        return original(question, *args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("gpuprep") and getattr(module, "solve", None) is original:
            monkeypatch.setattr(module, "solve", counting)
    return calls


# The GPU rule


def test_an_explicit_gpu_wins_over_the_settings_and_a_drawn_variant():
    gpu = question_gpu(
        copy_question(), bank(), chosen="h100_sxm", preferred="a100_sxm", drawn="a100_sxm"
    )
    assert gpu == "h100_sxm"


def test_the_settings_gpu_is_used_where_the_question_allows_it_even_over_a_drawn_variant():
    assert (
        question_gpu(copy_question(), bank(), preferred="a100_sxm", drawn="h100_sxm") == "a100_sxm"
    )


@pytest.mark.parametrize("preferred", ["t4", "no_such_gpu", None])
def test_a_settings_gpu_the_question_does_not_allow_leaves_the_drawn_one_or_its_own(preferred):
    assert (
        question_gpu(copy_question(), bank(), preferred=preferred, drawn="a100_sxm") == "a100_sxm"
    )
    assert question_gpu(copy_question(), bank(), preferred=preferred) == "h100_sxm"


def test_a_question_without_figures_is_shown_for_no_gpu_unless_one_is_asked_for():
    concept = copy_question(kind="concept")
    assert question_gpu(concept, bank(), preferred="a100_sxm") is None
    assert question_gpu(concept, bank(), chosen="a100_sxm") == "a100_sxm"


def test_an_explicit_gpu_the_question_does_not_allow_is_an_error_not_a_quiet_swap():
    with pytest.raises(EstimateError, match="allows h100_sxm, a100_sxm"):
        QuestionView.build(copy_question(), bank(), gpu="t4", preferred_gpu="a100_sxm")


# One solve


def test_a_view_solves_once_for_its_prompt_answer_worked_solution_preview_and_grade(solve_calls):
    view = QuestionView.build(copy_question(), bank(), preferred_gpu="a100_sxm")
    assert "on one NVIDIA A100" in view.prompt
    assert view.worked is not None and view.worked.gpu == "a100_sxm"
    assert view.preview("1 ms").usable
    assert view.grade(f"{view.expected_value} us").verdict == "correct"
    assert solve_calls == ["view-copy"]


def test_show_answer_solves_the_question_once(solve_calls):
    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    result = CliRunner().invoke(app, ["show", "roofline-gemm-time", "--answer", "--json"])
    assert result.exit_code == 0, result.output
    assert "worked" in result.stdout and "expected" in result.stdout
    assert solve_calls == ["roofline-gemm-time"]


def test_a_practice_session_grades_the_solution_it_showed_without_solving_again(
    solve_calls, tmp_path
):
    from gpuprep.sessions.practice import PracticeFilter, PracticeSession
    from gpuprep.store.database import Store

    store = Store(tmp_path / "progress.db")
    practice = PracticeSession(
        bank(), store, PracticeFilter(question="roofline-gemm-time"), seed=3, gpu="a100_sxm"
    )
    shown = practice.view()
    practice.preview_answer("1 ms")
    grade = practice.check_estimate(f"{shown.expected_value} {shown.unit}")
    store.close()
    assert grade.verdict == "correct"
    assert solve_calls == ["roofline-gemm-time"]


def test_the_worked_solution_shows_the_figures_of_the_view():
    view = QuestionView.build(copy_question(), bank(), params={"size": 4})
    assert view.worked is not None
    assert view.worked.lines[0].result == "8 GB"
    answer = view.worked.lines[-1].result
    assert answer.endswith(" us")
    assert float(answer.split()[0]) == pytest.approx(view.expected_value, rel=1e-3)


def test_a_variant_is_shown_with_its_gpu_and_params():
    view = QuestionView.for_variant(copy_question(), bank(), Variant("a100_sxm", {"size": 2}))
    assert (view.gpu, view.param_texts) == ("a100_sxm", {"size": "2 GB"})
    assert view.gpu_name == bank().hardware["a100_sxm"].name


def test_the_view_carries_the_rubric_template_of_its_kind():
    view = QuestionView.build(copy_question(), bank())
    assert view.rubric_template is not None and view.rubric_template.id == "estimation"
    assert view.drill is None and view.artifact is None


# One answer reader


@pytest.mark.parametrize(
    "typed",
    ["600 us", "1.5 ms", "600", "3.35 TB/s", "2 GB / (", "size / gpu.hbm_bandwidth", "-1 us"],
)
def test_the_preview_and_the_grade_read_an_answer_the_same_way(typed):
    view = QuestionView.build(copy_question(), bank())
    preview, grade = view.preview(typed), view.grade(typed)
    assert preview.usable is (grade.verdict != "invalid")
    bare = "a bare number is read in us"
    assert (bare in preview.text) is (bare in grade.message)
