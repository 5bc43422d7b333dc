"""`gpuprep doctor` says, part by part, what works here and what to do where something lacks."""

from __future__ import annotations

import json

import yaml
from typer.testing import CliRunner

from gpuprep.cli import doctor
from gpuprep.cli.main import app


def _findings(monkeypatch, missing: tuple[str, ...] = ()) -> dict[str, doctor.Finding]:
    real = doctor._module

    def module(name: str):  # noqa: ANN202
        if name in missing:
            return None, f"ModuleNotFoundError: No module named {name!r}"
        return real(name)

    monkeypatch.setattr(doctor, "_module", module)
    return {f.part: f for f in doctor.diagnose()}


def test_without_torch_the_drills_part_fails_and_says_what_to_install(monkeypatch):
    found = _findings(monkeypatch, missing=("torch",))
    assert found["torch"].status == "fail"
    assert "gpuprep[gpu]" in found["torch"].todo


def test_without_cupy_only_the_cuda_track_is_missing(monkeypatch):
    found = _findings(monkeypatch, missing=("cupy",))
    assert found["cupy"].status == "warn"
    assert "cupy-cuda12x" in found["cupy"].todo and "cupy-cuda13x" in found["cupy"].todo


def test_a_moved_extra_bank_is_named_with_what_to_do(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("GPUPREP_HOME", str(home))
    gone = tmp_path / "moved-away"
    (home / "settings.yaml").write_text(yaml.safe_dump({"extra_banks": [str(gone)]}))
    result = CliRunner().invoke(app, ["doctor", "--json"])
    assert result.exit_code == 1
    banks = [f for f in json.loads(result.output) if f["part"] == "extra bank"]
    assert banks and banks[0]["status"] == "fail" and str(gone) in banks[0]["detail"]
    assert "F5" in banks[0]["todo"]
