"""Measured ceilings of the user's GPU, stored beside the datasheet figures.

App side. `gpuprep hw calibrate` measures a device-to-device copy and a bf16 matrix product
in the worker and saves them in `calibration.yaml` in the gpuprep home, keyed by the name the
driver reports; `submit` and `bench` then show percentages of the measured ceiling as well.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import yaml

from gpuprep.paths import gpuprep_home


def calibration_path() -> Path:
    return gpuprep_home() / "calibration.yaml"


def load_calibrations() -> dict[str, dict[str, Any]]:
    """Device name -> measured figures; empty when nothing was calibrated or the file is unreadable."""
    path = calibration_path()
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return {}
    devices = data.get("devices", {}) if isinstance(data, dict) else {}
    return devices if isinstance(devices, dict) else {}


def save_calibration(device: dict[str, Any], measured: dict[str, Any]) -> Path:
    """Store one device's measurements (atomically), keeping the others."""
    path = calibration_path()
    devices = load_calibrations()
    devices[device.get("name", "unknown")] = {
        **measured,
        "measured_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "torch": device.get("torch"),
        "cuda": device.get("cuda"),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".yaml.tmp")
    tmp.write_text(yaml.safe_dump({"devices": devices}, sort_keys=True), encoding="utf-8")
    tmp.replace(path)
    return path
