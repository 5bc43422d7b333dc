"""`gpuprep submit` and `gpuprep bench` from the command line, as a script would call them."""

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from gpuprep.cli.main import app

from .conftest import DRILLS_DIR, KERNELS_DIR

runner = CliRunner()


def test_submit_json_carries_the_documented_keys():
    result = runner.invoke(
        app,
        ["submit", "softmax", str(DRILLS_DIR / "softmax" / "starter_triton.py"), "--cpu", "--json"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["status"] == "passed"
    for key in (
        "status",
        "message",
        "checks",
        "device",
        "timing",
        "achieved",
        "pct_of_peak",
        "ladder",
        "placement",
    ):
        assert key in report


def test_a_failing_submission_exits_non_zero_with_a_message():
    wrong = DRILLS_DIR / "softmax" / "wrong" / "no_max_subtraction.py"
    result = runner.invoke(app, ["submit", "softmax", str(wrong), "--cpu"])
    assert result.exit_code == 1
    assert "FAILED" in result.stdout and "first mismatch" in result.stdout


def test_bench_cpu_json_lists_each_rung_with_its_status():
    result = runner.invoke(app, ["bench", "vector_add", "--cpu", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["drill"] == "vector_add"
    assert [(r["name"], r["status"]) for r in data["rungs"]] == [
        ("v0_naive", "passed"),
        ("v1_wide_blocks", "passed"),
    ]
    assert {"name", "status", "median_ms", "gbps", "tflops"} <= set(data["rungs"][0])
    assert {"drill", "mode", "device", "gpu", "shape", "vendor", "copy", "problem", "notes"} <= set(
        data
    )


def test_an_unknown_drill_names_the_known_ones():
    result = runner.invoke(
        app,
        ["submit", "softmx", str(DRILLS_DIR / "softmax" / "starter_triton.py"), "--cpu", "--json"],
    )
    assert result.exit_code == 2  # a usage error: the command line named it
    assert "unknown drill 'softmx'; did you mean softmax?" in json.loads(result.stdout)["error"]


def copy_of_vector_add(bank: Path, drill_id: str = "my_vector_add") -> Path:
    """An extra bank folder holding vector_add under another id: its drill and its ladder."""
    drill_dir = bank / "drills" / drill_id
    shutil.copytree(DRILLS_DIR / "vector_add", drill_dir, ignore=shutil.ignore_patterns("wrong"))
    spec = drill_dir / "drill.yaml"
    spec.write_text(spec.read_text().replace("id: vector_add", f"id: {drill_id}", 1))
    shutil.copytree(KERNELS_DIR / "vector_add", bank / "kernels_ref" / drill_id)
    return drill_dir


def test_a_drill_of_an_extra_bank_is_submitted_with_bank(tmp_path):
    drill_dir = copy_of_vector_add(tmp_path / "mine")
    starter = str(drill_dir / "starter_triton.py")

    without = runner.invoke(app, ["submit", "my_vector_add", starter, "--cpu", "--json"])
    assert without.exit_code == 2 and "unknown drill 'my_vector_add'" in without.stdout

    result = runner.invoke(
        app,
        ["submit", "my_vector_add", starter, "--cpu", "--json", "--bank", str(tmp_path / "mine")],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["drill"], report["status"], report["language"]) == (
        "my_vector_add",
        "passed",
        "triton",
    )


def test_a_syntax_error_shows_the_users_file_and_line_not_the_import_machinery(tmp_path):
    mine = tmp_path / "my_softmax.py"
    mine.write_text("import torch\n\n\ndef softmax(x):\n    return x +\n")
    result = runner.invoke(app, ["submit", "softmax", str(mine), "--cpu", "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["status"] == "failed"
    assert "SyntaxError" in report["message"] and "line 5" in report["message"]
    assert f'File "{mine}", line 5' in report["traceback"]
    assert "<frozen" not in report["traceback"] and "importlib" not in report["traceback"]
