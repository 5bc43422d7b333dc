"""The judge decides; the sandbox only runs. What a submission does to its own process cannot
forge a verdict, the checks are as tight as the drill's tolerance for each dtype, and the
judge refuses to run on files that are not what was installed."""

from __future__ import annotations

import os
import py_compile
import shutil
from pathlib import Path

import pytest

from gpuprep.harness import manifest
from gpuprep.harness.api import submit
from gpuprep.harness.report import SubmitReport

from .conftest import KERNELS_DIR, drills

FIXTURES = Path(__file__).parent / "fixtures"
HARNESS = Path(manifest.__file__).parent


def _submit(drill_id: str, path: Path, timeout_s: float = 120) -> SubmitReport:
    return submit(drills()[drill_id], KERNELS_DIR / drill_id, path, cpu=True, timeout_s=timeout_s)


def test_the_shipped_manifest_matches_the_harness():
    assert manifest.problems() == [], (
        "run `python -m gpuprep.harness.manifest --write` after changing a harness file"
    )


def test_a_changed_harness_file_is_named_and_the_judge_refuses(tmp_path):
    copy = tmp_path / "harness"
    shutil.copytree(HARNESS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert manifest.problems(copy) == []
    checking = copy / "checking.py"
    checking.write_text(checking.read_text().replace('result["ok"] = True', "pass"))
    assert manifest.problems(copy) == ["checking.py differs from the installed version"]


def test_a_planted_pyc_beside_an_intact_source_is_caught(tmp_path):
    copy = tmp_path / "harness"
    shutil.copytree(HARNESS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    checking = copy / "checking.py"
    original = checking.read_text()
    # Compile a changed module, then put the original source back: Python would run the pyc.
    checking.write_text(original.replace("ELEMENT_SLACK = 64.0", "ELEMENT_SLACK = 1e9"))
    stat = os.stat(checking)
    py_compile.compile(
        str(checking),
        cfile=str(Path(__import__("importlib").util.cache_from_source(str(checking)))),
    )
    checking.write_text(original)
    os.utime(checking, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert "checking.py's compiled .pyc does not match its source" in manifest.problems(copy)


@pytest.mark.parametrize(
    "fixture, fragment",
    [
        # The output check 10x looser than the tolerance would pass the first.
        ("softmax_5x_over_tolerance", "exceeds the tolerance 1e-05"),
        # The loosest dtype's tolerance (bf16's 1e-2) applied to fp32 would pass the second.
        ("softmax_off_by_a_fifth_of_a_percent", "exceeds the tolerance 1e-05"),
    ],
)
def test_a_softmax_slightly_off_fails_at_the_fp32_tolerance(fixture, fragment):
    report = _submit("softmax", FIXTURES / f"{fixture}.py")
    assert report.status == "failed", report.message
    assert "float32" in report.message and fragment in report.message


def test_the_drills_own_denylist_refuses_a_library_transpose_beside_a_token_kernel():
    report = _submit("transpose", FIXTURES / "transpose_by_copy_beside_a_kernel.py")
    assert report.status == "rejected", report.message
    assert "aten::copy_" in report.message


def test_a_detached_process_does_not_outlive_the_run():
    marker = "gpuprep-detached-marker-4242"
    report = _submit("vector_add", FIXTURES / "spawns_a_detached_sleeper.py")
    assert report.status == "passed", report.message
    survivors = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                survivors.append(pid)
        except OSError:
            continue
    assert survivors == []


VARIETY = Path(__file__).parent / "variety"
#: Cheats that reach outside the sandbox: without Landlock (signals scoped from ABI 6) the
#: first would really rewrite the checkout's harness and the second kill the fork server.
NEEDS_LANDLOCK = {"cheat_rewrites_harness.py": 1, "cheat_kills_parent.py": 6}


def _variety_expectations() -> list[tuple[Path, str, str]]:
    """(file, verdict, message fragment) from the set's README, one table row per file: the
    README is the single record (an empty or binary file cannot carry a docstring)."""
    rows = []
    for line in (VARIETY / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0].endswith(".py"):
            status, _, fragment = cells[-1].partition(":")
            rows.append((VARIETY / cells[0].strip("`"), status.strip(), fragment.strip()))
    return rows


EXPECTATIONS = _variety_expectations()


def test_every_variety_file_has_one_expectation():
    listed = sorted(path for path, _, _ in EXPECTATIONS)
    assert listed == sorted(VARIETY.glob("*/*.py"))
    categories = {path.name.split("_")[0] for path in listed}
    counts = {c: sum(p.name.startswith(c + "_") for p in listed) for c in categories}
    assert counts["honest"] >= 20 and counts["bug"] >= 15
    assert counts["cheat"] >= 15 and counts["robust"] >= 10


@pytest.mark.parametrize(
    "path, verdict, fragment",
    EXPECTATIONS,
    ids=[f"{p.parent.name}/{p.stem}" for p, _, _ in EXPECTATIONS],
)
def test_the_variety_set_gets_its_verdicts(path, verdict, fragment):
    from gpuprep.harness.landlock import abi_version

    needed = NEEDS_LANDLOCK.get(path.name)
    if needed and abi_version() < needed:
        pytest.skip(f"needs Landlock ABI {needed} to be safe to run on this machine")
    report = _submit(path.parent.name, path, timeout_s=8 if verdict == "timeout" else 120)
    assert report.status == verdict, report.message
    assert fragment in report.message
    # Nothing a submission did changed the judge's files.
    assert manifest.problems() == []
