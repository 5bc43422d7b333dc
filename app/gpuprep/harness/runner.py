"""Start the judge process, feed it its instructions, collect its events, survive whatever happens.

App side, standard library only. The judge (and the sandboxes it forks) run in their own
process group with a time limit, killed whole at the end: a segfault, a CUDA fault, an
endless loop or a detached child ends there, never in the app. Results come back over a pipe
made for this run that only the judge holds, each line carrying a nonce; what the kernels
print goes to a log file whose tail explains a crash. After the judge says which device it
runs on, the app answers with that device's ceilings (for the speed-of-light verdict).
"""

from __future__ import annotations

import json
import os
import secrets
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from gpuprep.harness.report import Device

#: Seconds the judge may take to import torch and triton before the time limit starts.
STARTUP_ALLOWANCE_S = 120.0
#: Extra seconds per kernel for its sandbox's start and the judge's own checks.
PER_KERNEL_ALLOWANCE_S = 60.0


@dataclass
class WorkerRun:
    """What came back from one worker."""

    device: Device = field(default_factory=Device)
    """The judge's description of the device it runs on (empty until it says)."""
    results: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    timed_out: bool = False
    returncode: int | None = None
    fatal: str = ""
    tampered: str = ""
    log_tail: str = ""


def _judge_env(mode: str, extra_path: list[str]) -> dict[str, str]:
    """The judge inherits the app's environment (so `gpuprep` imports the same way), plus the mode's."""
    env = dict(os.environ)
    # torch.cuda.is_available() through NVML opens no CUDA context: the fork server stays safe.
    env["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"
    if mode == "cpu":
        env["TRITON_INTERPRET"] = "1"
        # A machine with a GPU asked for --cpu: hide it, so tensors live on the CPU.
        env["CUDA_VISIBLE_DEVICES"] = ""
    else:
        env.pop("TRITON_INTERPRET", None)
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join([*extra_path, env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def run_judge(
    config: dict[str, Any],
    *,
    mode: str,
    timeout_s: float,
    on_event: Callable[[dict[str, Any]], None] | None = None,
    ceilings_for: Callable[[Device], dict[str, Any]] | None = None,
    python: str | None = None,
    extra_path: list[str] | None = None,
    wrapper: list[str] | None = None,
    extra_env: dict[str, str] | None = None,
) -> WorkerRun:
    """Run the judge on `config` (spec, kernels, options) and collect what it reports.

    `timeout_s` is the whole run's backstop; the judge enforces each kernel's own budget.
    `ceilings_for(device)` gives the judge its speed-of-light ceilings: the memory's bandwidth
    in bytes/s ('bandwidth') and the tensor cores' FLOP/s per input dtype ('flops').
    `wrapper` goes before the judge's command line (compute-sanitizer and its options), and
    `extra_env` over its environment; both reach the sandboxes the judge forks."""
    nonce = secrets.token_hex(16)
    read_fd, write_fd = os.pipe()
    log = tempfile.NamedTemporaryFile(prefix="gpuprep-judge-", suffix=".log", delete=False)
    workdir = tempfile.mkdtemp(prefix="gpuprep-run-")
    payload = {
        **config,
        "mode": mode,
        "secret": secrets.randbits(62),
        "nonce": nonce,
        "result_fd": write_fd,
    }
    env = {**_judge_env(mode, extra_path or []), **(extra_env or {})}
    process = subprocess.Popen(
        [*(wrapper or []), python or sys.executable, "-m", "gpuprep.harness.judge"],
        stdin=subprocess.PIPE,
        stdout=log,
        stderr=subprocess.STDOUT,
        pass_fds=(write_fd,),
        start_new_session=True,
        env=env,
        cwd=workdir,
    )
    os.close(write_fd)
    run = WorkerRun()
    stdin = process.stdin
    assert stdin is not None  # opened with stdin=PIPE
    try:
        stdin.write((json.dumps(payload) + "\n").encode())
        stdin.flush()
    except BrokenPipeError:
        pass
    deadline = time.monotonic() + STARTUP_ALLOWANCE_S + timeout_s
    buffer = b""
    with os.fdopen(read_fd, "rb", buffering=0) as pipe:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                run.timed_out = True
                _kill_group(process)
                break
            ready, _, _ = select.select([pipe], [], [], min(remaining, 1.0))
            if not ready:
                continue
            chunk = pipe.read(65536)
            if not chunk:
                break
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                event = _parse(line, nonce, run)
                if event is None:
                    continue
                if event["event"] == "ready":
                    run.device = event.get("device", {})
                    deadline = time.monotonic() + timeout_s
                    _answer_ceilings(stdin, run.device, ceilings_for)
                elif event["event"] == "kernel":
                    run.results.append(event["result"])
                elif event["event"] == "fatal":
                    run.fatal = event.get("message", "") + (
                        "\n" + event["traceback"] if event.get("traceback") else ""
                    )
                elif event["event"] == "calibration":
                    run.results.append(event["measured"])
                elif event["event"] == "done":
                    run.finished = True
                if on_event is not None:
                    on_event(event)
    if process.poll() is None:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _kill_group(process)
    run.returncode = process.returncode
    log.close()
    try:
        run.log_tail = Path(log.name).read_text(errors="replace")[-4000:]
    finally:
        os.unlink(log.name)
        try:
            os.rmdir(workdir)
        except OSError:
            pass
    return run


def _answer_ceilings(
    stdin: IO[bytes],
    device: Device,
    ceilings_for: Callable[[Device], dict[str, Any]] | None,
) -> None:
    ceilings = ceilings_for(device) if ceilings_for and device.get("kind") == "cuda" else {}
    try:
        stdin.write((json.dumps(ceilings) + "\n").encode())
        stdin.close()
    except (BrokenPipeError, ValueError):
        pass


def _parse(line: bytes, nonce: str, run: WorkerRun) -> dict[str, Any] | None:
    try:
        event = json.loads(line)
    except ValueError:
        run.tampered = "the results channel carried a line that is not JSON"
        return None
    if not isinstance(event, dict) or event.get("nonce") != nonce or "event" not in event:
        run.tampered = "the results channel carried a message the harness did not write"
        return None
    if run.finished:
        run.tampered = "the results channel carried messages after the run finished"
        return None
    return event
