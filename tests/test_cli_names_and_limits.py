"""Names typed on the command line: case and '-' do not matter, a near miss gets "did you mean",
and a timeout that would stop every run before it starts is a usage error."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app
from gpuprep.wording import match_name, unknown_name

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "home"))


def test_gpu_ids_ignore_case_and_dashes():
    result = runner.invoke(app, ["hw", "show", "H100-SXM", "--json"])
    assert result.exit_code == 0, result.output
    assert '"h100_sxm"' in result.output


def test_a_near_miss_gpu_id_is_a_usage_error_that_suggests_the_nearest():
    result = runner.invoke(app, ["hw", "show", "h20"])
    assert result.exit_code == 2
    assert "unknown GPU 'h20'; did you mean h200?" in result.output


def test_a_near_miss_drill_suggests_the_drill():
    result = runner.invoke(app, ["submit", "softmx", "drills/softmax/starter_triton.py", "--cpu"])
    assert result.exit_code == 2
    assert "did you mean softmax?" in result.output


def test_a_near_miss_topic_suggests_the_topic_before_any_screen_opens():
    result = runner.invoke(app, ["drill", "--topic", "roofln"])
    assert result.exit_code == 2
    assert "unknown topic 'roofln'; did you mean roofline" in result.output


@pytest.mark.parametrize("seconds", ["0", "-3", "nan"])
@pytest.mark.parametrize("command", ["submit", "bench"])
def test_a_timeout_of_zero_or_less_is_refused(command, seconds):
    args = [command, "softmax"] + (["drills/softmax/starter_triton.py"] if command == "submit" else [])
    result = runner.invoke(app, [*args, "--cpu", "--timeout", seconds])
    assert result.exit_code == 2
    assert "must be more than 0 seconds" in result.output


def test_matching_is_exact_after_folding_never_a_guess():
    assert match_name("Memory-Hierarchy", ["memory-hierarchy", "memory"]) == "memory-hierarchy"
    assert match_name("memor", ["memory"]) is None
    assert unknown_name("kind", "x", ["b", "a"]) == "unknown kind 'x' (known: a, b)"


def test_an_empty_bank_path_is_a_usage_error_not_the_current_folder():
    result = runner.invoke(app, ["bank", "check", "--bank", ""])
    assert result.exit_code == 2
    assert "an empty path" in result.output


def test_the_built_in_folder_given_as_an_extra_bank_is_recognised(monkeypatch):
    from gpuprep.paths import builtin_root

    monkeypatch.chdir(builtin_root())
    result = runner.invoke(app, ["bank", "check", "--bank", "."])
    assert result.exit_code == 2
    assert "is the built-in bank, which is always loaded" in result.output
    assert "duplicate" not in result.output
