"""Questions rendered with their GPU's figures and params, and the worked solution."""

from __future__ import annotations

from functools import cache

import pytest

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.question import Question
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import evaluate
from gpuprep.estimate.render import (
    TemplateError,
    _jinja_render,
    render_question,
    render_template,
    template_context,
    worked_solution,
)
from gpuprep.estimate.worked import write_formula


@cache
def bank() -> Bank:
    loaded, _problems = load_bank()
    return loaded


def make_question(
    prompt: str, answer: str = "**{{ answer }}**", kind: str = "estimation"
) -> Question:
    data = {
        "id": "test-copy",
        "title": "Copy",
        "kind": kind,
        "level": "junior",
        "minutes": 3,
        "prompt": prompt,
        "answer": answer,
        "rubric": {"strong_signals": ["x"], "red_flags": ["y"]},
    }
    if kind == "estimation":
        data["estimate"] = {
            "solution": "bytes / gpu.hbm_bandwidth",
            "unit": "us",
            "gpu": "h100_sxm",
            "gpus": ["a100_sxm"],
            "params": {"M": {"value": 8192, "values": [4096]}, "elem": {"value": 2, "unit": "B"}},
            "steps": [
                {
                    "name": "bytes",
                    "formula": "2 * M^2 * elem",
                    "unit": "MB",
                    "label": "read and write",
                }
            ],
        }
    return Question.model_validate(data)


def test_placeholders_show_params_gpu_figures_steps_and_the_answer() -> None:
    question = make_question(
        "{{ M }} x {{ M }} of {{ elem }} on {{ gpu.name }} at {{ gpu.hbm_bandwidth }}",
        "{{ bytes }} / {{ gpu.hbm_bandwidth.as_unit('GB/s') }} = **{{ answer }}**",
    )
    rendered = render_question(question, bank())
    assert rendered.prompt == "8192 x 8192 of 2 B on NVIDIA H100 SXM5 80GB at 3.35 TB/s"
    assert rendered.answer == "268 MB / 3350 GB/s = **80.1 us**"
    assert rendered.gpu == "h100_sxm"
    assert rendered.unit == "us"
    assert rendered.expected_value == pytest.approx(2 * 8192**2 * 2 / 3.35e12 * 1e6)


def test_another_gpu_and_params_flow_into_the_text() -> None:
    question = make_question("{{ M }} on {{ gpu.name }}")
    rendered = render_question(question, bank(), gpu="a100_sxm", params={"M": 4096})
    assert rendered.prompt == f"4096 on {bank().hardware['a100_sxm'].name}"


def test_concept_questions_use_any_gpu_through_hw() -> None:
    question = make_question(
        "{{ hw.h100_sxm.name }}: {{ hw.h100_sxm.ridge_bf16 }}", "ok", kind="concept"
    )
    rendered = render_question(question, bank())
    assert rendered.prompt == "NVIDIA H100 SXM5 80GB: 295 FLOP/B"
    assert rendered.expected is None and rendered.gpu is None


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{ gpu.fp4_dense }}", "h100_sxm has no fp4_dense figure"),
        ("{{ gpu.not_a_field }}", "unknown hardware field 'not_a_field'"),
        ("{{ hw.nope.name }}", "unknown GPU 'nope'"),
        ("{{ N }}", "'N' is undefined"),
        ("{{ gpu.hbm_bandwidth.as_unit('ms') }}", "cannot express a bandwidth in ms"),
        ("{% for x in %}", "template syntax"),
        ("{{ gpu.__class__.__mro__ }}", "__class__"),
    ],
)
def test_template_faults_are_errors_that_say_what(template: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message.replace("(", r"\(")) as caught:
        render_question(make_question(template), bank())
    assert caught.value.part == "prompt"


def test_the_sandbox_refuses_python_internals() -> None:
    with pytest.raises(
        EstimateError, match="access to attribute '__class__' of 'str' object is unsafe"
    ):
        render_question(make_question("{{ ''.__class__.__mro__[1].__subclasses__() }}"), bank())


def test_jinja_features_still_work_through_the_sandbox() -> None:
    rendered = render_question(
        make_question("{% if M.value > 4096 %}big{% endif %} {{ M | string }}"), bank()
    )
    assert rendered.prompt == "big 8192"


def test_the_fast_path_renders_exactly_as_jinja_for_every_built_in_question() -> None:
    checked = 0
    for question in bank().questions.values():
        rendered = render_question(question, bank())  # the built-in bank renders whole
        gpu = bank().hardware.get(rendered.gpu) if rendered.gpu else None
        context = template_context(bank(), gpu, rendered.solution, question)
        assert render_template(question.prompt, context) == _jinja_render(
            question.prompt, context, "prompt"
        )
        assert render_template(question.answer, context) == _jinja_render(
            question.answer, context, "answer"
        )
        checked += 1
    assert checked == len(bank().questions)


def test_formulas_are_written_back_as_people_write_them() -> None:
    assert write_formula("2 * M^3 FLOP") == "2·M³ FLOP"
    assert write_formula("(a + b) / (c - d)") == "(a + b) / (c - d)"
    assert write_formula("a - (b - c)") == "a - (b - c)"
    assert write_formula("max(x, 2 ms)") == "max(x, 2 ms)"
    assert write_formula(
        "2 * M^3 FLOP / gpu.bf16_dense", {"M": "8192"}, {"gpu.bf16_dense": "989.4 TFLOP/s"}
    ) == ("2·8192³ FLOP / 989.4 TFLOP/s")


def test_a_product_after_a_quotient_is_bracketed_so_the_tight_dot_is_not_read_first() -> None:
    # 'a / b·c' reads as a / (b·c): the spaced slash looks looser than the dot.
    assert write_formula("a / b * c") == "(a / b)·c"
    assert write_formula(
        "gpu.hbm_bandwidth / gpu.hbm_capacity * 1 s",
        hardware={"gpu.hbm_bandwidth": "3.35 TB/s", "gpu.hbm_capacity": "80 GiB"},
    ) == ("(3.35 TB/s / 80 GiB)·1 s")
    assert write_formula("(a + b) / c * 2") == "((a + b) / c)·2"
    assert write_formula("a * b / c") == "a·b / c"
    assert write_formula("a / (b * c)") == "a / (b·c)"


def test_the_worked_solution_substitutes_step_by_step_and_reads_back() -> None:
    question = make_question("x")
    worked = worked_solution(question, bank())
    bytes_line, answer_line = worked.lines
    assert str(bytes_line) == "bytes = 2·M²·elem = 2·8192²·2 B = 268.4 MB    (read and write)"
    assert answer_line.forms[0] == "bytes / gpu.bhm_bandwidth".replace("bhm", "hbm")
    assert (
        "2·M²·elem / gpu.hbm_bandwidth" in answer_line.forms
        or "2·elem·M² / gpu.hbm_bandwidth" in answer_line.forms
    )
    assert answer_line.forms[-1] == "268.4 MB / 3.35 TB/s"
    assert answer_line.result == "80.1 us"
    # Every substituted form is napkin math that evaluates to the answer.
    for form in answer_line.forms[-2:]:
        assert evaluate(form).to("us") == pytest.approx(80.1, rel=0.01)


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{ 1 / 0 }}", "ZeroDivisionError"),
        ("{{ 9 ** 99999 }}", "too large"),
        ("{{ 'x' * 1000000000 }}", "more than 10000 times"),
        ("{{ M + 'text' }}", "TypeError"),
    ],
)
def test_a_template_that_raises_or_runs_away_is_a_template_error(
    template: str, message: str
) -> None:
    with pytest.raises(TemplateError, match=message):
        render_question(make_question(template), bank())
