"""`gpuprep submit all_reduce` loads the bank once: the loaded bank's collective folders say
which drill is judged, instead of the folders being searched a second time."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import gpuprep.bank.loader
import gpuprep.collective.spec
import gpuprep.settings
from gpuprep.cli.main import app

from .conftest import DRILL


@pytest.fixture
def reads(monkeypatch):
    """What a command read: banks loaded, settings files read, collective specs read."""
    seen: dict[str, list[object]] = {"banks": [], "settings": [], "specs": []}

    def counting(name, module, attribute, record=lambda *args: args):
        original = getattr(module, attribute)

        def wrapper(*args, **kwargs):
            seen[name].append(record(*args))
            return original(*args, **kwargs)

        monkeypatch.setattr(module, attribute, wrapper)

    counting("banks", gpuprep.bank.loader, "load_bank")
    counting("settings", gpuprep.settings, "load_settings")
    counting("specs", gpuprep.collective.spec, "load_collective", lambda path: Path(path))
    return seen


def test_submitting_all_reduce_loads_the_bank_and_the_settings_once(reads):
    # --ranks 1 is refused after the drill is resolved and before anything is judged.
    done = CliRunner().invoke(
        app, ["submit", "all_reduce", str(DRILL / "starter.py"), "--cpu", "--ranks", "1"]
    )

    assert done.exit_code == 2, done.output
    assert "--ranks must be 2 or more" in done.output
    assert len(reads["banks"]) == 1
    assert len(reads["settings"]) == 1
    assert reads["specs"] == [DRILL / "collective.yaml"]


def test_the_collective_drill_of_an_extra_bank_is_the_one_judged(tmp_path, reads):
    mine = tmp_path / "bank" / "drills" / "all_reduce"
    mine.mkdir(parents=True)
    (mine / "collective.yaml").write_text("id: all_reduce\nentry: [not, a, name]\n")

    done = CliRunner().invoke(
        app,
        [
            "submit",
            "all_reduce",
            str(DRILL / "starter.py"),
            "--cpu",
            "--bank",
            str(tmp_path / "bank"),
        ],
    )

    assert done.exit_code == 1, done.output
    assert str(mine / "collective.yaml") in done.output
    assert reads["specs"] == [mine / "collective.yaml"]
