"""Every estimation question, prompt and worked answer, renders cleanly on every GPU it allows,
with its default params and with each param's other values in turn: no render error, no template
left unfilled, no placeholder that rendered to nothing, no `nan`, `inf` or `None` in the text.

The checks are those of scripts/render_all.py, which writes the same renders to one Markdown file
for a reviewer to read; this test keeps the bank from regressing between reads.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path

import pytest

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.question import Question
from gpuprep.estimate.render import render_question

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "render_all.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("render_all", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["render_all"] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


render_all = _load_script()


@cache
def bank() -> Bank:
    loaded, problems = load_bank()
    assert not problems, problems[:3]
    return loaded


def estimation_ids() -> list[str]:
    return [q.id for q in render_all.estimation_questions(bank())]


def other_ids() -> list[str]:
    return [q.id for q in bank().questions.values() if q.estimate is None]


@pytest.mark.parametrize("question_id", estimation_ids())
def test_an_estimation_question_reads_clean_on_every_gpu_and_variant(question_id):
    question = bank().questions[question_id]
    renders = render_all.render_everywhere(bank(), question, variants=True)
    assert len(renders) >= len(question.estimate.allowed_gpus())
    faults = [f"{render_all._label(r)}: {fault}" for r in renders for fault in r.faults()]
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("question_id", other_ids())
def test_a_question_without_an_estimate_renders_clean_too(question_id):
    # Concept, debugging, design and coding questions may name figures as {{ hw.<gpu>.<field> }}.
    question: Question = bank().questions[question_id]
    rendered = render_question(question, bank())
    render = render_all.Render(question, "-", (), rendered.prompt, rendered.answer)
    assert not render.faults(), render.faults()


def test_every_gpu_in_the_bank_is_rendered_by_some_question():
    gpus = {g for q in render_all.estimation_questions(bank()) for g in q.estimate.allowed_gpus()}
    assert set(bank().hardware) <= gpus, sorted(set(bank().hardware) - gpus)


# --- the checker itself ---------------------------------------------------------------------


def faults_of(rendered: str, template: str = "{{ answer }}") -> list[str]:
    """The faults of an answer that rendered to `rendered` from `template`."""
    question = next(iter(render_all.estimation_questions(bank())))
    question = question.model_copy(update={"prompt": "A plain prompt.", "answer": template})
    return render_all.Render(question, "h100_sxm", (), "A plain prompt.", rendered).faults()


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("the time is {{ t }} ms", "an unfilled template"),
        ("{% if x %}fast{% endif %}", "an unfilled template"),
        ("a bandwidth of nan TB/s", "a nan or inf"),
        ("ridge point: inf FLOP/B", "a nan or inf"),
        ("a ratio of -inf", "a nan or inf"),
        ("the GPU is None", "a None"),
        ("so the answer is ****.", "an empty placeholder"),
        ("bytes = .", "an empty placeholder"),
        ("at ( ) per SM", "an empty placeholder"),
    ],
)
def test_the_checker_catches_what_a_broken_render_leaves_behind(text, what):
    faults = faults_of(text)
    assert any(what in fault for fault in faults), faults


@pytest.mark.parametrize(
    "text",
    [
        "Masked lanes load -inf; one NaN or inf among them poisons tl.max.",
        "The mask covers rows only (`rows[:, None] < M`).",
        "wgmma_wait_group<1>();  // keep one group in flight",
        "MI300X links its XCDs through Infinity Fabric and a 256 MB Infinity Cache.",
        "Call `cluster.map_shared_rank()` and then `__syncthreads()`.",
        "**Arithmetic.** 3.35 TB/s × 600 ns = **2.01 MB**.",
        "2 GB / 3.35 TB/s =\n0.597 ms",
    ],
)
def test_the_checker_leaves_honest_prose_alone(text):
    # Prose that says -inf or None, or calls f(), renders to itself.
    assert faults_of(text, template=text) == []


def test_a_placeholder_that_renders_to_nothing_is_caught_where_the_template_had_text_around_it():
    assert faults_of("t = .", template="t = {{ t }}.")
    assert faults_of("the answer is ****", template="the answer is **{{ answer }}**")
    assert not faults_of("t = 4 ms.", template="t = {{ t }}.")


def test_a_question_that_fails_to_render_is_reported_not_raised():
    question = next(iter(render_all.estimation_questions(bank())))
    broken = question.model_copy(update={"answer": "{{ gpu.no_such_field }}"})
    renders = render_all.render_everywhere(bank(), broken)
    assert renders and all(r.error and r.faults()[0].startswith("render error") for r in renders)


def test_the_script_writes_one_markdown_file_with_every_render(tmp_path):
    out = tmp_path / "renders.md"
    code = render_all.main(["--topic", "roofline", "--out", str(out)])
    text = out.read_text(encoding="utf-8")
    assert code == 0
    roofline = [q for q in render_all.estimation_questions(bank()) if q.topic == "roofline"]
    for question in roofline:
        for gpu in question.estimate.allowed_gpus():
            assert f"### {question.id} on {gpu}\n" in text
    assert "0 faults" in text
