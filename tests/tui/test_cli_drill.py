"""`gpuprep drill` refuses bad filters before opening anything."""

from __future__ import annotations

from typer.testing import CliRunner

from gpuprep.cli.main import app


def test_an_unknown_kind_is_refused_with_the_choices():
    result = CliRunner().invoke(app, ["drill", "--kind", "trivia"])
    assert result.exit_code == 2
    assert "unknown kind 'trivia'" in result.output and "estimation" in result.output


def test_an_unknown_level_is_refused_with_the_choices():
    result = CliRunner().invoke(app, ["drill", "--level", "staff"])
    assert result.exit_code == 2
    assert "junior, mid, senior" in result.output


def test_an_unknown_topic_is_a_usage_error_with_the_known_topics():
    result = CliRunner().invoke(app, ["drill", "--topic", "nope"])
    assert result.exit_code == 2
    assert "unknown topic 'nope'" in result.output and "roofline" in result.output
