"""`gpuprep show` as a reader meets it (issue 17): the GPU line names the GPU the text is about,
Markdown is rendered rather than printed raw, parameters carry their meaning, and GPU ids are
read the way people type them."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app
from gpuprep.estimate.template_gpus import template_gpus

runner = CliRunner()

BANK = textwrap.dedent(
    """\
    topic: {id: show-topic, title: Show}
    questions:
      - id: show-fixed
        title: Copy on the H100 only
        kind: estimation
        level: junior
        minutes: 3
        prompt: |
          Copy {{ size }} on one {{ gpu.name }}: how **long** does it take?
        estimate:
          solution: 2 * size / gpu.hbm_bandwidth
          unit: us
          gpu: h100_sxm
          params:
            size: {value: 1, unit: GB, description: "buffer read and written once"}
        answer: |
          2 × {{ size }} / {{ gpu.hbm_bandwidth }} = **{{ answer }}**.
        rubric:
          strong_signals: ["counts the **write**"]
          red_flags: [forgets the write]
      - id: show-two
        title: Copy on either GPU
        kind: estimation
        level: junior
        minutes: 3
        prompt: Copy {{ size }} on one {{ gpu.name }}.
        estimate:
          solution: 2 * size / gpu.hbm_bandwidth
          unit: us
          gpu: h100_sxm
          gpus: [a100_sxm]
          params:
            size: {value: 1, unit: GB}
        answer: "**{{ answer }}**"
        rubric:
          strong_signals: [counts the write]
          red_flags: [forgets the write]
      - id: show-h100-concept
        title: Ridge of the H100
        kind: concept
        level: junior
        minutes: 3
        prompt: "Why is the ridge point of the {{ hw.h100_sxm.name }} so high?"
        answer: "It is {{ hw.h100_sxm.ridge_bf16 }}."
        rubric:
          strong_signals: [ratio]
          red_flags: [none]
      - id: show-any-gpu-concept
        title: Ridge of your GPU
        kind: concept
        level: junior
        minutes: 3
        prompt: "What is the ridge point of the {{ gpu.name }}?"
        answer: "{{ gpu.ridge_bf16 }}"
        rubric:
          strong_signals: [ratio]
          red_flags: [none]
    """
)


@pytest.fixture
def bank_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "questions"
    folder.mkdir()
    (folder / "show.yaml").write_text(BANK, encoding="utf-8")
    return tmp_path


def show(bank_dir: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["show", *args, "--bank", str(bank_dir)])
    return result.exit_code, result.stdout + (result.stderr or "")


# The GPU line


def test_a_question_written_for_the_h100_is_not_claimed_for_the_gpu_asked_for(bank_dir):
    code, out = show(bank_dir, "show-h100-concept", "--gpu", "t4")
    assert code == 0
    assert "T4" not in out.replace("--gpu t4", "")
    assert "--gpu t4 does not apply" in out
    assert "written for the NVIDIA H100 SXM5 80GB" in out


def test_show_json_gives_no_gpu_for_a_question_whose_text_reads_none(bank_dir):
    code, out = show(bank_dir, "show-h100-concept", "--gpu", "t4", "--json")
    assert code == 0
    assert json.loads(out)["gpu"] is None


def test_a_concept_question_that_reads_the_chosen_gpu_is_shown_for_it(bank_dir):
    code, out = show(bank_dir, "show-any-gpu-concept", "--gpu", "a100_sxm")
    assert code == 0
    assert "GPU: NVIDIA A100 SXM4 80GB" in out
    assert "What is the ridge point of the NVIDIA A100 SXM4 80GB?" in out


def test_a_question_fixed_to_one_gpu_says_so(bank_dir):
    code, out = show(bank_dir, "show-fixed")
    assert code == 0
    assert "GPU: NVIDIA H100 SXM5 80GB (asked for this GPU only)" in out


def test_another_gpu_for_a_fixed_question_is_refused_naming_the_one_it_takes(bank_dir):
    code, out = show(bank_dir, "show-fixed", "--gpu", "t4")
    assert code == 2
    assert "is not asked for t4; it is asked for h100_sxm only; drop --gpu" in out


def test_a_question_for_several_gpus_names_the_others(bank_dir):
    code, out = show(bank_dir, "show-two")
    assert code == 0
    assert "GPU: NVIDIA H100 SXM5 80GB (also asked for a100_sxm)" in out


# Markdown and parameters


def test_markdown_is_rendered_not_printed_with_its_asterisks(bank_dir):
    code, out = show(bank_dir, "show-fixed", "--answer")
    assert code == 0
    assert "**" not in out
    assert "how long does it take?" in out
    assert "= 597 us." in out  # 2 GB / 3.35 TB/s
    assert "counts the write" in out


def test_parameters_are_labelled_with_their_description(bank_dir):
    code, out = show(bank_dir, "show-fixed")
    assert code == 0
    assert "size = 1 GB  buffer read and written once" in out


def test_a_code_block_is_printed_line_for_line_however_long(tmp_path):
    long_line = "kernel_" + "x" * 120 + " (2, 66, 1)x(384, 1, 1)"
    folder = tmp_path / "questions"
    folder.mkdir()
    (folder / "code.yaml").write_text(
        BANK.replace(
            "Why is the ridge point",
            f"Read this:\\n\\n```text\\n{long_line}\\n  Duration  ms  1.65\\n```\\n\\nWhy is the ridge point",
        ),
        encoding="utf-8",
    )
    code, out = show(tmp_path, "show-h100-concept")
    assert code == 0
    assert any(line.strip() == long_line for line in out.splitlines())
    assert any(line.strip() == "Duration  ms  1.65" for line in out.splitlines())


# GPU ids as typed


@pytest.mark.parametrize("typed", ["H100-SXM", "h100_SXM", "A100_sxm"])
def test_gpu_ids_ignore_case_and_dashes_in_show_answer_and_calc(bank_dir, typed):
    code, out = show(bank_dir, "show-two", "--gpu", typed, "--json")
    assert code == 0 and json.loads(out)["gpu"] == typed.lower().replace("-", "_")
    answered = runner.invoke(
        app, ["answer", "show-two", "600 us", "--gpu", typed, "--bank", str(bank_dir), "--json"]
    )
    assert answered.exit_code == 0, answered.stdout
    calculated = runner.invoke(app, ["calc", "gpu.hbm_bandwidth", "--gpu", typed, "--json"])
    assert calculated.exit_code == 0, calculated.stdout


def test_a_near_miss_gpu_id_suggests_the_nearest(bank_dir):
    code, out = show(bank_dir, "show-two", "--gpu", "h20")
    assert code == 2
    assert "did you mean h200" in out


# What a text reads


def test_template_gpus_reads_named_gpus_in_order_and_the_chosen_one():
    read = template_gpus(
        "{{ hw.mi300x.name }} or {{ hw['h100_sxm'].name }} {# hw.t4.name #}",
        "{{ hw.mi300x.hbm_bandwidth }}",
    )
    assert read.named == ("mi300x", "h100_sxm")
    assert not read.reads_chosen
    assert template_gpus("{% if gpu.fp8 %}fp8{% endif %}").reads_chosen
