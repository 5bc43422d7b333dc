"""`gpuprep rubrics` as an interviewer (or a script, with --json) meets it."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app

runner = CliRunner()


def rubrics(*args: str):
    return runner.invoke(app, ["rubrics", *args])


def test_the_json_lists_each_matching_question_with_its_rubric_and_template():
    result = rubrics("--topic", "roofline", "--kind", "estimation", "--json")

    assert result.exit_code == 0, result.output
    questions = json.loads(result.stdout)
    assert questions and {q["topic"] for q in questions} == {"roofline"}
    assert {q["kind"] for q in questions} == {"estimation"}
    for question in questions:
        assert {
            "id",
            "title",
            "topic",
            "kind",
            "level",
            "strong_signals",
            "red_flags",
            "follow_ups",
        } <= set(question)
        assert question["strong_signals"] and question["red_flags"]
        assert "{{" not in question["answer"], (
            "the model answer is shown with its figures filled in"
        )
        template = question["rubric_template"]
        assert template["id"] == "estimation"
        assert all(set(d["levels"]) == {"1", "2", "3", "4"} for d in template["dimensions"])


def test_filters_combine_and_a_debugging_question_carries_its_artifact():
    result = rubrics("--kind", "debugging", "--level", "junior", "--json")

    questions = json.loads(result.stdout)
    assert questions and {(q["kind"], q["level"]) for q in questions} == {("debugging", "junior")}
    assert all(q["artifact"]["text"] for q in questions)
    assert json.loads(rubrics("--kind", "design", "--level", "junior", "--json").stdout) == []


def test_the_text_shows_the_kinds_template_once_with_its_levels_then_each_question():
    result = rubrics("--topic", "roofline", "--kind", "estimation")

    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.count("== Rubric template: Back-of-envelope estimation") == 1
    assert text.index("== Rubric template") < text.index("-- roofline-")
    assert "    1  Starts computing without stating sizes" in text
    assert "    4  " in text
    for heading in ("Model answer:", "Strong signals:", "Red flags:", "Follow-ups:"):
        assert heading in text


def test_the_behavioural_questions_show_their_own_template():
    result = rubrics("--topic", "experience")

    assert (
        "== Rubric template: Past work (behavioural) (experience, concept questions) =="
        in result.stdout
    )
    assert "Rubric template: Concept question" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--topic", "roofine"), "unknown topic 'roofine'; did you mean roofline"),
        (("--kind", "estimaton"), "unknown kind 'estimaton'; did you mean estimation"),
        (("--level", "seniors"), "unknown level 'seniors'; did you mean senior"),
        (("--level", "staff"), "unknown level 'staff' (choose from junior, mid, senior)"),
    ],
)
def test_an_unknown_filter_exits_2_naming_the_nearest(args, message):
    result = rubrics(*args)

    assert result.exit_code == 2
    assert message in result.stderr
    as_json = rubrics(*args, "--json")
    assert as_json.exit_code == 2 and message in json.loads(as_json.stdout)["error"]
