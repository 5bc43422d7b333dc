"""A question or plan with a schema error still has its references checked, in the same run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuprep.bank.loader import load_bank
from gpuprep.cli.main import app
from gpuprep.estimate.bank_check import check_bank

FIXTURES = Path(__file__).parent / "fixtures"
FAULTS = FIXTURES / "faults"

QUESTION_HEAD = """\
topic: {id: garbage, title: Garbage}
questions:
  - id: garbage-one
    title: One
    level: mid
    minutes: 2
    prompt: Why?
    answer: Because.
    rubric: {strong_signals: [a], red_flags: [b]}
"""


def _clean_bank(tmp_path: Path) -> Path:
    bank = tmp_path / "bank"
    shutil.copytree(FIXTURES / "bank_ok", bank)
    return bank


def _reported(bank: Path, *, builtin: bool = False) -> list[tuple[str, int, str]]:
    loaded, problems = load_bank([bank], builtin=builtin)
    return [(p.path.name, p.line, p.what) for p in problems + check_bank(loaded)]


def test_a_question_with_an_unknown_field_also_reports_its_missing_rubric_template(
    tmp_path: Path,
):
    bank = _clean_bank(tmp_path)
    shutil.copy(FAULTS / "schema_and_cross_ref.yaml", bank / "questions")

    reported = _reported(bank)

    assert ("schema_and_cross_ref.yaml", 11, "unknown field 'difficulty'") in reported
    assert (
        "schema_and_cross_ref.yaml",
        12,
        "unknown rubric template 'panel' (rubrics/panel.yaml)",
    ) in reported


def test_a_question_with_a_bad_enum_reports_each_unknown_gpu_once_at_its_own_line(
    tmp_path: Path,
):
    bank = _clean_bank(tmp_path)
    shutil.copy(FAULTS / "schema_and_cross_ref.yaml", bank / "questions")

    in_second = [r for r in _reported(bank) if r[1] >= 14]

    gpu_problems = [(line, what) for _, line, what in in_second if "gpu" in what]
    assert gpu_problems == [
        (24, "unknown gpu 'h999' (hardware/h999.yaml)"),
        (25, "unknown gpu 'h998' (hardware/h998.yaml)"),
    ]
    assert any(line == 17 and "bad value 'expert'" in what for _, line, what in in_second)
    # The number among the GPUs is a type error, never an "unknown gpu 42".
    assert any(line == 25 and "valid string" in what for _, line, what in in_second)


def test_bank_check_cli_prints_the_schema_error_and_the_cross_reference_and_exits_1(
    tmp_path: Path,
):
    bank = _clean_bank(tmp_path)
    planted = bank / "questions" / "schema_and_cross_ref.yaml"
    shutil.copy(FAULTS / planted.name, planted)

    result = CliRunner().invoke(app, ["bank", "check", "--bank", str(bank)])

    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert f"{planted}:11: question both-one.difficulty: unknown field 'difficulty'" in lines
    assert (
        f"{planted}:12: question both-one: unknown rubric template 'panel' (rubrics/panel.yaml)"
        in lines
    )
    assert len(lines) == len(set(lines)), "a problem was reported twice"


def test_a_plan_with_an_unknown_field_also_reports_its_unknown_question(tmp_path: Path):
    bank = _clean_bank(tmp_path)
    shutil.copy(FAULTS / "plan_schema_and_cross_ref.yaml", bank / "questions" / "plans")

    reported = _reported(bank)

    assert ("plan_schema_and_cross_ref.yaml", 7, "unknown field 'length'") in reported
    assert (
        "plan_schema_and_cross_ref.yaml",
        10,
        "unknown question 'basics-nothing'",
    ) in reported


def test_a_bad_kind_is_not_reported_again_as_an_unknown_rubric_template(tmp_path: Path):
    bank = _clean_bank(tmp_path)
    (bank / "questions" / "kinds.yaml").write_text(QUESTION_HEAD + "    kind: conceptual\n")

    # The built-in bank brings the rubric templates, so a kind's default template is checked.
    reported = [r for r in _reported(bank, builtin=True) if r[0] == "kinds.yaml"]

    assert [what for _, _, what in reported] == [
        "bad value 'conceptual': Input should be 'concept', 'estimation', 'debugging', "
        "'design' or 'coding'"
    ]


def test_a_plan_naming_a_question_that_fails_validation_does_not_call_it_unknown(
    tmp_path: Path,
):
    bank = _clean_bank(tmp_path)
    (bank / "questions" / "broken.yaml").write_text(
        QUESTION_HEAD + "    kind: concept\n    colour: red\n"
    )
    (bank / "questions" / "plans" / "uses_broken.yaml").write_text(
        "id: uses_broken\ntitle: T\ndays:\n  - {day: 1, title: D, items: [{question: garbage-one}]}\n"
    )

    reported = _reported(bank)

    assert [what for _, _, what in reported] == ["unknown field 'colour'"]


@pytest.mark.parametrize(
    "tail",
    [
        "    kind: concept\n    colour: red\n    rubric_template: [panel]\n",
        "    kind: concept\n    colour: red\n    drill: {id: nothing}\n",
        "    kind: concept\n    colour: red\n    topic: 12\n",
        "    kind: [concept]\n",
        "    kind: estimation\n    estimate: [h999]\n",
        "    kind: estimation\n    estimate: {gpu: 5, gpus: h999, unit: us}\n",
        "    kind: estimation\n    estimate: {gpu: [h999], gpus: [[h998], {a: b}], unit: us}\n",
    ],
    ids=[
        "template-list",
        "drill-mapping",
        "topic-number",
        "kind-list",
        "estimate-list",
        "gpus-text",
        "gpus-nested",
    ],
)
def test_garbage_in_a_failing_question_is_a_schema_problem_not_a_crash_or_an_unknown(
    tail: str, tmp_path: Path
):
    bank = _clean_bank(tmp_path)
    (bank / "questions" / "garbage.yaml").write_text(QUESTION_HEAD + tail)

    reported = [r for r in _reported(bank, builtin=True) if r[0] == "garbage.yaml"]

    assert reported, "the schema error must be reported"
    assert not [r for r in reported if r[2].startswith("unknown ") and "field" not in r[2]]


@pytest.mark.parametrize(
    "text",
    [
        "topic: {id: g, title: G}\nquestions:\n  - [not, a, mapping]\n  - just text\n  - 7\n",
        "id: p\ntitle: P\ndays: seven\n",
        "id: p\ntitle: P\ndays:\n  - [1, 2]\n  - {day: one, title: D, items: {question: x}}\n"
        "  - {day: 2, title: D, items: [[question, x], {question: [x]}, {drill: 3}]}\n",
    ],
    ids=["questions-not-mappings", "days-text", "days-nested-garbage"],
)
def test_garbage_where_a_mapping_is_expected_is_reported_without_a_crash(text: str, tmp_path: Path):
    bank = _clean_bank(tmp_path)
    target = bank / "questions" / ("plans" if text.startswith("id:") else ".") / "garbage.yaml"
    target.write_text(text)

    reported = [r for r in _reported(bank) if r[0] == "garbage.yaml"]

    assert reported
    assert not [r for r in reported if r[2].startswith("unknown ") and "field" not in r[2]]


def test_a_plan_day_without_a_number_is_named_by_its_index(tmp_path: Path):
    bank = _clean_bank(tmp_path)
    plan = bank / "questions" / "plans" / "garbage.yaml"
    plan.write_text("id: garbage\ntitle: P\ndays:\n  - {day: one, items: [{drill: nope}]}\n")

    loaded, problems = load_bank([bank], builtin=False)
    cross = [p for p in check_bank(loaded) if p.path == plan]

    assert [(p.line, p.where, p.what) for p in cross] == [
        (4, "plan garbage: days[0]", "unknown drill 'nope'")
    ]
