"""`gpuprep bank check` finds every planted fault, at its file and line, and passes a clean bank."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuprep.bank.loader import load_bank
from gpuprep.cli.main import app
from gpuprep.estimate.bank_check import check_bank

FIXTURES = Path(__file__).parent / "fixtures"
FAULTS = sorted((FIXTURES / "faults").glob("*.yaml"))


def _bank_with(fault: Path, tmp_path: Path) -> Path:
    """A copy of the clean fixture bank with one faulty file planted where it belongs."""
    bank = tmp_path / "bank"
    shutil.copytree(FIXTURES / "bank_ok", bank)
    if fault.stem.startswith("hardware_"):
        target = bank / "hardware" / fault.name
    elif fault.stem.startswith("plan_"):
        target = bank / "questions" / "plans" / fault.name
    else:
        target = bank / "questions" / fault.name
    shutil.copy(fault, target)
    return target


def _expectation(fault: Path) -> tuple[int, str]:
    match = re.match(r"# expect: (\d+): (.+)", fault.read_text().splitlines()[0])
    assert match, f"{fault} must start with '# expect: LINE: TEXT'"
    return int(match.group(1)), match.group(2).strip()


def _problems(bank: Path):
    loaded, problems = load_bank([bank], builtin=False)
    return problems + check_bank(loaded)


def test_the_clean_fixture_bank_has_no_problems():
    assert _problems(FIXTURES / "bank_ok") == []


@pytest.mark.parametrize("fault", FAULTS, ids=[f.stem for f in FAULTS])
def test_each_planted_fault_is_reported_at_its_line(fault: Path, tmp_path: Path):
    planted = _bank_with(fault, tmp_path)
    line, text = _expectation(fault)

    problems = _problems(
        planted.parent.parent if planted.parent.name != "plans" else planted.parents[2]
    )

    in_file = [p for p in problems if p.path == planted]
    assert in_file, f"nothing reported in {planted.name}; got {[str(p) for p in problems]}"
    assert any(p.line == line and text in p.what for p in in_file), [str(p) for p in in_file]


def test_a_python_tag_is_refused_and_never_run(tmp_path: Path):
    marker = tmp_path / "pwned"
    planted = _bank_with(FIXTURES / "faults" / "python_tag.yaml", tmp_path)
    planted.write_text(planted.read_text().replace("/tmp/gpuprep-pwned", str(marker)))
    problems = _problems(tmp_path / "bank")
    assert any(p.path == planted and "tag not allowed" in p.what for p in problems)
    assert not marker.exists()


def test_every_problem_is_reported_not_just_the_first(tmp_path: Path):
    bank = tmp_path / "bank"
    shutil.copytree(FIXTURES / "bank_ok", bank)
    for fault in FAULTS:
        if not fault.stem.startswith(("hardware_", "plan_", "duplicate_id")):
            shutil.copy(fault, bank / "questions" / fault.name)

    problems = _problems(bank)

    copied = {
        fault.name
        for fault in FAULTS
        if not fault.stem.startswith(("hardware_", "plan_", "duplicate_id"))
    }
    reported_files = {p.path.name for p in problems}
    assert reported_files == copied


def test_bank_check_cli_prints_path_line_where_what_and_exits_1(tmp_path: Path):
    planted = _bank_with(FIXTURES / "faults" / "unknown_field.yaml", tmp_path)

    result = CliRunner().invoke(app, ["bank", "check", "--bank", str(tmp_path / "bank")])

    assert result.exit_code == 1
    assert (
        f"{planted}:11: question extra-one.difficulty: unknown field 'difficulty'" in result.output
    )


def test_bank_check_cli_passes_the_built_in_bank():
    result = CliRunner().invoke(app, ["bank", "check"])

    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok:")


def test_an_empty_extra_bank_folder_is_reported_not_merged_silently(tmp_path: Path):
    result = CliRunner().invoke(app, ["bank", "check", "--bank", str(tmp_path)])

    assert result.exit_code == 1
    assert f"{tmp_path}:0: (bank): no bank files here" in result.output
