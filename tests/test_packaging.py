"""The wheel holds the code and every data folder, and works installed away from the checkout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy: an in-tree build leaves build/ and egg-info in the checkout, and a stale
    # build/ there can hide a file the package list misses.
    source = tmp_path_factory.mktemp("source") / "gpuprep"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", ".whl", "build", "*.egg-info", "__pycache__", ".*_cache", "tests", "benchmarks"
        ),
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(source),
        ],
        check=True,
        cwd=out,
    )
    (built,) = out.glob("gpuprep-*.whl")
    return built


def test_the_wheel_holds_every_data_file(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("questions", "rubrics", "hardware", "drills", "kernels_ref"):
        on_disk = [
            p for p in (ROOT / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts
        ]
        for path in on_disk:
            assert f"gpuprep/{path.relative_to(ROOT).as_posix()}" in names, (
                f"{path} missing from the wheel"
            )
    assert "gpuprep/cli/main.py" in names
    # Without it the installed judge refuses every submission.
    assert "gpuprep/harness/manifest.json" in names


def test_every_code_package_is_listed_for_the_wheel():
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    on_disk = {
        "gpuprep"
        + (
            "." + ".".join(p.parent.relative_to(ROOT / "app" / "gpuprep").parts)
            if p.parent != ROOT / "app" / "gpuprep"
            else ""
        )
        for p in (ROOT / "app" / "gpuprep").rglob("__init__.py")
    }
    assert on_disk <= listed, f"add to [tool.setuptools] packages: {sorted(on_disk - listed)}"


def test_the_installed_wheel_runs_from_another_directory(wheel: Path, tmp_path: Path):
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    env = {**os.environ, "PYTHONPATH": str(target), "GPUPREP_HOME": str(tmp_path / "home")}
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import gpuprep, gpuprep.paths as p; print(gpuprep.__file__); print(p.builtin_root())",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=True,
    ).stdout.split()
    assert all(line.startswith(str(target)) for line in where), where

    stats = subprocess.run(
        [sys.executable, "-m", "gpuprep", "bank", "stats", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )

    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["questions"] >= 2
