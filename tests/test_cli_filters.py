"""The `--kind` and `--level` filters `gpuprep drill` and `gpuprep rubrics` share offer exactly
the bank's kinds and levels (the CLI keeps its own copy so that `--help` does not load pydantic)."""

from __future__ import annotations

from typer.testing import CliRunner

from gpuprep.bank import question
from gpuprep.cli import common
from gpuprep.cli.main import app


def test_the_cli_offers_the_kinds_and_levels_the_bank_knows():
    assert common.KINDS == question.KINDS
    assert common.LEVELS == question.LEVELS


def test_drill_and_rubrics_list_every_kind_and_level_in_their_help():
    for command in ("drill", "rubrics"):
        shown = CliRunner().invoke(app, [command, "--help"])
        assert shown.exit_code == 0, shown.output
        text = " ".join(shown.output.split())  # the help wraps at 80 columns
        assert f"Only one kind: {', '.join(question.KINDS)}." in text, command
        assert f"Only one level: {', '.join(question.LEVELS)}." in text, command
