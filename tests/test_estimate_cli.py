"""`gpuprep calc | show | answer` as a user (or a script, with --json) meets them."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app

runner = CliRunner()

QUESTION = textwrap.dedent(
    """\
    topic: {id: cli-topic, title: CLI}
    questions:
      - id: cli-copy
        title: Copy a matrix
        kind: estimation
        level: junior
        minutes: 3
        prompt: |
          Copy a {{ M }} x {{ M }} matrix of {{ elem }} elements on one {{ gpu.name }}.
        estimate:
          solution: bytes / gpu.hbm_bandwidth
          unit: us
          gpu: h100_sxm
          gpus: [a100_sxm]
          params:
            M: {value: 8192, values: [4096, 16384]}
            elem: {value: 2, unit: B}
          steps:
            - {name: bytes, formula: "2 * M^2 * elem", unit: MB, label: "read and written"}
        answer: |
          {{ bytes }} / {{ gpu.hbm_bandwidth }} = **{{ answer }}**.
        rubric:
          strong_signals: [counts the write]
          red_flags: [forgets the write]
      - id: cli-concept
        title: Ridge
        kind: concept
        level: junior
        minutes: 3
        prompt: "What is the ridge point of the {{ hw.h100_sxm.name }}?"
        answer: "{{ hw.h100_sxm.ridge_bf16 }}"
        rubric:
          strong_signals: [ratio]
          red_flags: [none]
    """
)
EXPECTED_US = 2 * 8192**2 * 2 / 3.35e12 * 1e6


@pytest.fixture
def bank_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "questions"
    folder.mkdir()
    (folder / "cli.yaml").write_text(QUESTION, encoding="utf-8")
    return tmp_path


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout


def test_calc_prints_the_value_in_a_natural_unit() -> None:
    code, out = run("calc", "2*8192^3 FLOP / 989 TFLOP/s")
    assert code == 0
    assert out.strip() == "1.112 ms"


def test_calc_json_in_a_requested_unit_with_a_gpu() -> None:
    code, out = run(
        "calc", "3 * 2 GB / gpu.hbm_bandwidth", "--gpu", "h100_sxm", "--to", "us", "--json"
    )
    assert code == 0
    assert json.loads(out) == {"value": pytest.approx(6e9 / 3.35e12 * 1e6), "unit": "us"}


@pytest.mark.parametrize("expression", ["2 * * 3", "__import__('os')", "9**9**9**9", "1 ms + 1 B"])
def test_calc_errors_exit_2_with_a_json_error(expression: str) -> None:
    code, out = run("calc", expression, "--json")
    assert code == 2
    assert json.loads(out)["error"]


def test_calc_refuses_an_unknown_gpu_and_a_unit_of_the_wrong_kind() -> None:
    assert run("calc", "gpu.sms", "--gpu", "nope")[0] == 2
    code, out = run("calc", "1 ms", "--to", "GB", "--json")
    assert code == 2
    assert "cannot express a time in GB" in json.loads(out)["error"]


def test_show_fills_in_the_gpu_and_params(bank_dir: Path) -> None:
    code, out = run("show", "cli-copy", "--bank", str(bank_dir))
    assert code == 0
    assert "Copy a 8192 x 8192 matrix of 2 B elements on one NVIDIA H100 SXM5 80GB." in out
    assert "answer in us" in out


def test_show_json_has_the_expected_answer(bank_dir: Path) -> None:
    code, out = run(
        "show",
        "cli-copy",
        "--bank",
        str(bank_dir),
        "--param",
        "M=4096",
        "--gpu",
        "a100_sxm",
        "--json",
    )
    assert code == 0
    document = json.loads(out)
    assert document["gpu"] == "a100_sxm"
    assert document["params"]["M"] == {"value": 4096, "unit": ""}
    assert document["expected"]["unit"] == "us"
    assert "answer" not in document


def test_show_answer_adds_the_worked_solution(bank_dir: Path) -> None:
    code, out = run("show", "cli-copy", "--bank", str(bank_dir), "--answer")
    assert code == 0
    assert "bytes = 2·M²·elem = 2·8192²·2 B = 268.4 MB" in out
    assert "= 80.1 us." in out and "**" not in out
    assert "strong signals:" in out


def test_show_with_a_seed_is_repeatable_and_says_how_to_answer_the_variant(bank_dir: Path) -> None:
    first = run("show", "cli-copy", "--bank", str(bank_dir), "--seed", "5", "--json")
    second = run("show", "cli-copy", "--bank", str(bank_dir), "--seed", "5", "--json")
    assert first == second
    document = json.loads(first[1])
    assert document["gpu"] in ("h100_sxm", "a100_sxm")
    assert document["params"]["M"]["value"] in (8192, 4096, 16384)


def test_show_works_for_concept_questions(bank_dir: Path) -> None:
    code, out = run("show", "cli-concept", "--bank", str(bank_dir), "--answer", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["answer"] == "295 FLOP/B"
    assert "expected" not in document


def test_answer_json_grades_with_the_documented_keys(bank_dir: Path) -> None:
    code, out = run("answer", "cli-copy", "about 80 us", "--bank", str(bank_dir), "--json")
    assert code == 0
    document = json.loads(out)
    assert set(document) == {
        "verdict",
        "given",
        "expected",
        "ratio",
        "message",
        "why",
        "trap",
        "trap_explain",
        "from_table",
        "table_figures",
        "notes",
    }
    assert document["trap"] is None and "inside the band" in document["why"]
    assert document["verdict"] == "correct"
    assert document["given"] == {"value": pytest.approx(80), "unit": "us"}
    assert document["expected"] == {"value": pytest.approx(EXPECTED_US), "unit": "us"}


def test_answer_of_the_wrong_kind_is_invalid_and_says_both(bank_dir: Path) -> None:
    code, out = run("answer", "cli-copy", "3.35 TB/s", "--bank", str(bank_dir))
    assert code == 2, "nothing was graded"
    assert "you gave a bandwidth; the question asks for a time" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["answer", "cli-copy", "1 us", "--gpu", "h200"], "allows h100_sxm, a100_sxm"),
        (["answer", "cli-copy", "1 us", "--param", "M"], "NAME=VALUE"),
        (["answer", "cli-copy", "1 us", "--param", "Q=3"], "no parameter 'Q'"),
        (["answer", "cli-copy", "1 us", "--param", "elem=3 ms"], "parameter elem"),
        (["answer", "cli-concept", "1 us"], "only estimation questions are graded"),
        (["answer", "no-such-question", "1 us"], "unknown question"),
        (["show", "cli-copy", "--gpu", "nope"], "unknown GPU 'nope'"),
    ],
)
def test_bad_options_are_clear_errors_with_a_non_zero_exit(
    bank_dir: Path, args: list[str], message: str
) -> None:
    code, out = run(*args, "--bank", str(bank_dir), "--json")
    assert code == 2
    assert message in json.loads(out)["error"]


def test_an_answer_that_does_not_parse_is_shown_with_its_caret_and_exits_2(bank_dir: Path) -> None:
    code, out = run("answer", "cli-copy", "80 uss", "--bank", str(bank_dir), "--json")
    assert code == 2
    document = json.loads(out)
    assert document["verdict"] == "invalid" and "^" in document["message"]


def _save_gpu(gpu: str) -> None:
    from gpuprep.settings import Settings, save_settings

    save_settings(Settings(gpu=gpu))


def test_show_and_answer_use_the_gpu_saved_in_the_settings_when_the_question_allows_it(
    bank_dir: Path,
) -> None:
    _save_gpu("a100_sxm")
    code, out = run("show", "cli-copy", "--bank", str(bank_dir), "--json")
    assert code == 0 and json.loads(out)["gpu"] == "a100_sxm"
    a100_us = 2 * 8192**2 * 2 / 2.039e12 * 1e6
    code, out = run("answer", "cli-copy", f"{a100_us:.1f} us", "--bank", str(bank_dir), "--json")
    assert code == 0 and json.loads(out)["verdict"] == "correct"


def test_a_saved_gpu_the_question_does_not_allow_falls_back_to_the_question_s_own(
    bank_dir: Path,
) -> None:
    _save_gpu("t4")
    code, out = run("show", "cli-copy", "--bank", str(bank_dir), "--json")
    assert code == 0 and json.loads(out)["gpu"] == "h100_sxm"


def test_gpu_on_the_command_line_wins_over_the_saved_one(bank_dir: Path) -> None:
    _save_gpu("a100_sxm")
    code, out = run("show", "cli-copy", "--gpu", "h100_sxm", "--bank", str(bank_dir), "--json")
    assert json.loads(out)["gpu"] == "h100_sxm"


def test_calc_reads_gpu_fields_from_the_saved_gpu() -> None:
    _save_gpu("h200")
    code, out = run("calc", "gpu.hbm_bandwidth", "--to", "TB/s", "--json")
    assert code == 0 and json.loads(out)["value"] == pytest.approx(4.8)


def test_show_with_a_seed_draws_the_params_but_keeps_the_saved_gpu(bank_dir: Path) -> None:
    _save_gpu("a100_sxm")
    shown = [
        json.loads(
            run("show", "cli-copy", "--bank", str(bank_dir), "--seed", str(seed), "--json")[1]
        )
        for seed in range(8)
    ]
    assert {document["gpu"] for document in shown} == {"a100_sxm"}
    assert len({document["params"]["M"]["value"] for document in shown}) > 1


def test_a_question_without_figures_is_shown_for_no_gpu_whatever_the_settings_say(
    bank_dir: Path,
) -> None:
    _save_gpu("a100_sxm")
    code, out = run("show", "cli-concept", "--bank", str(bank_dir))
    assert code == 0 and "GPU:" not in out
    # Its text reads the H100 by name: asked for the A100, it is still not about the A100.
    code, out = run("show", "cli-concept", "--bank", str(bank_dir), "--gpu", "a100_sxm", "--json")
    assert json.loads(out)["gpu"] is None


def test_show_answer_names_the_rubric_template_that_scores_the_question(bank_dir: Path) -> None:
    code, out = run("show", "cli-copy", "--bank", str(bank_dir), "--answer")
    assert "scored on (Back-of-envelope estimation): Assumptions, The bound" in out
    code, out = run("show", "cli-copy", "--bank", str(bank_dir), "--answer", "--json")
    assert json.loads(out)["rubric_template"]["id"] == "estimation"
