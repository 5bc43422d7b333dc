"""One run reports every problem of a bank: a schema error in one question does not hide a
misspelt hardware field in another, in `bank check` or in a command that loads the bank to use
it (`rubrics`, `mock`, the app); a misspelt field comes with the name it was probably meant to be."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app

# Line numbers matter: the report points at them.
TWO_FAULTS = """\
topic:
  id: two-faults
  title: Two faults in one file
  summary: A schema error and a misspelt hardware field.
questions:
  - id: tf-schema
    title: A question with a field the schema does not know
    kind: concept
    level: junior
    minutes: 3
    colour: blue
    prompt: What is a warp?
    answer: Thirty-two threads that issue together.
    rubric:
      strong_signals: [Says 32 threads.]
      red_flags: [Says 64 on an NVIDIA GPU.]
  - id: tf-template
    title: A question whose answer names a misspelt hardware field
    kind: concept
    level: junior
    minutes: 3
    prompt: What bounds a copy kernel on an H100 SXM?
    answer: |
      Its HBM bandwidth, {{ hw.h100_sxm.hbm_bandwith }}.
    rubric:
      strong_signals: [Names HBM bandwidth.]
      red_flags: [Names the tensor-core rate.]
  - id: tf-formula
    title: A question whose formula names a misspelt hardware field
    kind: estimation
    level: junior
    minutes: 3
    prompt: How long does one pass over the {{ hw.h100_sxm.hbm_capacty }} of one {{ gpu.name }} take?
    estimate:
      solution: gpu.hbm_capacity / gpu.hbm_bandwith
      unit: ms
      gpu: h100_sxm
    answer: |
      **{{ answer }}**
    rubric:
      strong_signals: [Divides capacity by bandwidth.]
      red_flags: [Uses the L2 bandwidth.]
"""


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "two-faults.yaml").write_text(TWO_FAULTS)
    return tmp_path


def expected(bank: Path) -> list[str]:
    where = bank / "questions" / "two-faults.yaml"
    return [
        f"{where}:11: question tf-schema.colour: unknown field 'colour'",
        f"{where}:24: question tf-template: answer: unknown hardware field 'hbm_bandwith' "
        "of h100_sxm; did you mean hbm_bandwidth?",
        # Its formula does not evaluate, so nothing renders: its fields are still checked.
        f"{where}:33: question tf-formula: prompt: unknown hardware field 'hbm_capacty' "
        "of h100_sxm; did you mean hbm_capacity?",
        f"{where}:35: question tf-formula: solution on h100_sxm: unknown hardware field "
        "'hbm_bandwith'; did you mean hbm_bandwidth?; the fields are ",
    ]


def test_bank_check_reports_the_schema_error_and_every_misspelt_field_in_one_run(bank):
    result = CliRunner().invoke(app, ["bank", "check", "--bank", str(bank)])

    assert result.exit_code == 1
    for line in expected(bank):
        assert line in result.output, result.output
    assert "4 problems found." in result.output


def test_bank_check_json_names_file_line_question_and_field_of_each(bank):
    result = CliRunner().invoke(app, ["bank", "check", "--bank", str(bank), "--json"])

    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert not report["ok"]
    assert [(p["line"], p["where"]) for p in report["problems"]] == [
        (11, "question tf-schema.colour"),
        (24, "question tf-template"),
        (33, "question tf-formula"),
        (35, "question tf-formula"),
    ]
    assert all(p["path"] == str(bank / "questions" / "two-faults.yaml") for p in report["problems"])


@pytest.mark.parametrize("command", [["rubrics"], ["mock", "--dry-run"]])
def test_a_command_that_uses_the_bank_lists_every_problem_before_it_refuses(bank, command):
    result = CliRunner().invoke(app, [*command, "--bank", str(bank)])

    assert result.exit_code == 1
    for line in expected(bank):
        assert line in result.output, result.output
    assert "error: 4 problems in the bank" in result.output
