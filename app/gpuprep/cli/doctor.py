"""`gpuprep doctor`: what this machine has for each part of gpuprep, and what to do where it lacks.

Each check says ok, warn (a part works with less: no GPU means correctness on the CPU only)
or fail (a part cannot work), with the one thing to do about it. The libraries are imported
here, inside the checks, so a broken torch is a finding, not a crash.
"""

from __future__ import annotations

import importlib
import platform
import sys
from dataclasses import asdict, dataclass
from typing import Annotated, Any, Literal

import typer

from gpuprep.cli.common import emit_json

Status = Literal["ok", "warn", "fail"]
GPU_EXTRA = "pip install 'gpuprep[gpu]'"


@dataclass(frozen=True)
class Finding:
    """One line of the report."""

    part: str
    status: Status
    detail: str
    todo: str = ""


def _python() -> Finding:
    version = platform.python_version()
    if sys.version_info < (3, 11):
        return Finding("python", "fail", version, "gpuprep needs Python 3.11 or newer")
    return Finding("python", "ok", f"{version} ({sys.executable})")


def _module(name: str) -> tuple[Any, str]:
    """(the module, '') or (None, why it did not import): a broken install is a finding."""
    try:
        return importlib.import_module(name), ""
    except Exception as error:  # noqa: BLE001 - a broken install is a finding
        return None, f"{type(error).__name__}: {error}"


def _torch() -> list[Finding]:
    torch, error = _module("torch")
    if torch is None:
        return [
            Finding("torch", "fail", error, f"kernel drills need torch and triton: {GPU_EXTRA}"),
        ]
    cuda = torch.version.cuda
    found = [Finding("torch", "ok", f"{torch.__version__}" + (f", built for CUDA {cuda}" if cuda else ", CPU build"))]
    if torch.cuda.is_available():
        name = torch.cuda.get_device_name(0)
        found.append(Finding("gpu", "ok", f"{name} ({torch.cuda.device_count()} visible)"))
    elif cuda:
        found.append(
            Finding(
                "gpu",
                "warn",
                "a CUDA build of torch, but no GPU is visible",
                "check `nvidia-smi` and CUDA_VISIBLE_DEVICES; until then drills are checked on the CPU",
            )
        )
    else:
        found.append(
            Finding(
                "gpu",
                "warn",
                "no GPU (CPU build of torch)",
                "drills are checked for correctness through Triton's interpreter; timing needs a CUDA GPU",
            )
        )
    return found


def _triton() -> Finding:
    triton, error = _module("triton")
    if triton is None:
        return Finding("triton", "fail", error, f"Triton drills need triton: {GPU_EXTRA}")
    numpy, _ = _module("numpy")
    if numpy is None:
        return Finding("triton", "warn", f"{triton.__version__}; numpy missing", "pip install numpy (the CPU interpreter needs it)")
    return Finding("triton", "ok", triton.__version__)


def _cupy(torch_cuda: str | None) -> Finding:
    cupy, error = _module("cupy")
    if cupy is None:
        return Finding(
            "cupy",
            "warn",
            "not installed: the CUDA C track of the drills is unavailable",
            "pip install cupy-cuda12x (cupy-cuda13x on a CUDA 13 driver); Triton drills work without it",
        )
    try:
        runtime = cupy.cuda.runtime.runtimeGetVersion()
        driver = cupy.cuda.runtime.driverGetVersion()
    except Exception as error:  # noqa: BLE001
        return Finding("cupy", "warn", f"{cupy.__version__}; CUDA not usable ({error})", "CUDA C kernels need a GPU and its driver")
    runtime_major, driver_major = runtime // 1000, driver // 1000
    detail = f"{cupy.__version__}, CUDA runtime {runtime_major}.{runtime % 1000 // 10}, driver {driver_major}.{driver % 1000 // 10}"
    if runtime_major > driver_major:
        return Finding("cupy", "fail", detail, f"the driver is older than cupy's CUDA {runtime_major}: install cupy-cuda{driver_major}x")
    if torch_cuda and torch_cuda.split(".")[0] != str(runtime_major):
        return Finding("cupy", "warn", detail + f"; torch is built for CUDA {torch_cuda}", f"install cupy-cuda{torch_cuda.split('.')[0]}x to match torch")
    return Finding("cupy", "ok", detail)


def _sandbox() -> list[Finding]:
    from gpuprep.harness import manifest
    from gpuprep.harness.landlock import abi_version

    found = []
    problems = manifest.problems()
    if problems:
        found.append(Finding("judge", "fail", "; ".join(problems[:3]), "reinstall gpuprep: pip install --force-reinstall gpuprep"))
    else:
        found.append(Finding("judge", "ok", "its files match what was installed"))
    abi = abi_version()
    if abi:
        found.append(Finding("sandbox", "ok", f"Landlock ABI {abi}: submissions cannot write outside their folder and caches"))
    else:
        found.append(
            Finding(
                "sandbox",
                "warn",
                "no Landlock in this kernel: submissions run in their own process, without file-system limits",
                "fine for your own kernels; run other people's files on a Linux 5.13+ kernel with Landlock",
            )
        )
    return found


def _data_and_banks() -> list[Finding]:
    from gpuprep.harness.calibration import load_calibrations
    from gpuprep.paths import gpuprep_home
    from gpuprep.settings import SettingsError, load_settings

    home = gpuprep_home()
    found = []
    try:
        home.mkdir(parents=True, exist_ok=True)
        probe = home / ".doctor-probe"
        probe.write_text("ok")
        probe.unlink()
        found.append(Finding("data folder", "ok", str(home)))
    except OSError as error:
        found.append(Finding("data folder", "fail", f"{home}: {error.strerror}", "set GPUPREP_HOME to a writable folder"))
    calibrated = load_calibrations()
    if calibrated:
        found.append(Finding("calibration", "ok", ", ".join(sorted(calibrated))))
    else:
        found.append(Finding("calibration", "warn", "none measured", "on a GPU, `gpuprep hw calibrate` adds measured ceilings beside the datasheet"))
    try:
        settings = load_settings()
    except SettingsError as error:
        return [*found, Finding("settings", "fail", str(error), "fix or delete the settings file")]
    if not settings.extra_banks:
        found.append(Finding("extra banks", "ok", "none"))
    for folder in settings.extra_banks:
        if not folder.is_dir():
            found.append(Finding("extra bank", "fail", f"{folder}: not a folder", "remove it in the app's settings (F5) or restore the folder"))
            continue
        from gpuprep.bank.loader import load_bank

        _bank, problems = load_bank([folder], builtin=False)
        if problems:
            found.append(Finding("extra bank", "fail", f"{folder}: {len(problems)} problem(s), first: {problems[0]}", f"gpuprep bank check --bank {folder}"))
        else:
            found.append(Finding("extra bank", "ok", str(folder)))
    return found


def diagnose() -> list[Finding]:
    """Every check, in the order a user would fix them."""
    findings = [_python()]
    findings += _torch()
    torch, _ = _module("torch")
    findings.append(_triton())
    findings.append(_cupy(getattr(getattr(torch, "version", None), "cuda", None)))
    findings += _sandbox()
    findings += _data_and_banks()
    return findings


MARKS = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}


def doctor(
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as JSON.")] = False,
) -> None:
    """Check what this machine has for each part of gpuprep, and say what to do where it lacks."""
    findings = diagnose()
    if as_json:
        emit_json([asdict(f) for f in findings])
    else:
        for finding in findings:
            typer.echo(f"{MARKS[finding.status]}  {finding.part:<12} {finding.detail}")
            if finding.todo:
                typer.echo(f"      {'':<12} -> {finding.todo}")
    if any(f.status == "fail" for f in findings):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)
