"""User settings: the GPU assumed for estimation, extra bank folders, open book, reviews.

Stored as YAML in the gpuprep home (`GPUPREP_HOME`, else the platform's user data dir).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import yaml
from pydantic import Field, ValidationError

from gpuprep.bank.base import BankModel
from gpuprep.bank.hardware import Hardware, find_by_device_name
from gpuprep.paths import gpuprep_home

#: New questions a day, Anki's default: enough to make progress, few enough that the reviews they
#: bring a week later stay a session's worth.
NEW_PER_DAY = 20
#: The recall probability FSRS schedules for (its default); Anki allows 0.70 to 0.99.
DESIRED_RETENTION = 0.9


class Settings(BankModel):
    """The user's settings file, `settings.yaml` in the gpuprep home."""

    gpu: str | None = None
    """GPU id assumed for estimation questions; None means auto-detect, else each question's default."""
    extra_banks: list[Path] = Field(default_factory=list)
    """Bank folders merged with the built-in bank."""
    open_book: bool = False
    """Practice and mock answers may read figures from the hardware tables (`gpu.bf16_dense`)
    and still count as recalled. Off by default: the interview tests that recall."""
    new_per_day: int = Field(default=NEW_PER_DAY, ge=0, le=9999)
    """New questions introduced a day (counted from their first rating today, UTC); 0 means
    reviews only. A question picked by name (Browse, a plan's day) is asked whatever the cap."""
    desired_retention: float = Field(default=DESIRED_RETENTION, ge=0.7, le=0.99)
    """The chance of recalling a card when it comes due, 0.70 to 0.99: higher asks more often."""
    theme: str | None = None
    """The Textual theme last chosen from the command palette ('nord', 'gruvbox' ...); None, or
    a theme this Textual does not have, opens with the default."""


class SettingsError(Exception):
    """The settings file exists but cannot be read; it is left as it is."""


def settings_path() -> Path:
    return gpuprep_home() / "settings.yaml"


def load_settings() -> Settings:
    """The saved settings, or the defaults when there is no file."""
    path = settings_path()
    if not path.exists():
        return Settings()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        return Settings.model_validate(data)
    except (yaml.YAMLError, ValidationError, OSError) as error:
        raise SettingsError(
            f"{path}: cannot read settings ({error}); fix or delete the file"
        ) from None


def save_settings(settings: Settings) -> None:
    """Write the settings atomically (a crash leaves the old file whole)."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".yaml.tmp")
    tmp.write_text(
        yaml.safe_dump(settings.model_dump(mode="json"), sort_keys=False), encoding="utf-8"
    )
    tmp.replace(path)


def detect_gpu(hardware: Mapping[str, Hardware]) -> str | None:
    """The id of this machine's first NVIDIA GPU when `nvidia-smi` names one we have a table for.

    Slow-ish (nvidia-smi can take a few hundred ms), so the TUI calls it in a worker thread.
    """
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        done = subprocess.run(
            [smi, "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in done.stdout.splitlines():
        found = find_by_device_name(hardware.values(), line.strip())
        if found is not None:
            return found.id
    return None
