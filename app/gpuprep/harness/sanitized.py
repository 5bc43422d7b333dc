"""`submit --sanitize`: the check phase under compute-sanitizer's memcheck, then racecheck, and the verdict.

App side, standard library only. Each tool gets a run of its own of the judge (checks only:
no timing, no ladder), wrapped by compute-sanitizer with the allocator's cache off so that a
store just past a tensor's end reaches memory the tool watches. The logs go to a folder the
app makes outside everything a sandbox may write (its Landlock rules allow the temp folder
and the compilers' caches), so a submission cannot leave a clean log behind. The first
finding in the submission's own code fails it; the check verdict stands otherwise.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from gpuprep.harness import sanitizer
from gpuprep.harness.report import JSON, Device, Mode, Status, SubmitReport
from gpuprep.harness.runner import WorkerRun, run_judge
from gpuprep.harness.sanitizer import Finding, SanitizerLog, SanitizerResult
from gpuprep.paths import gpuprep_home


@dataclass(frozen=True)
class SanitizedRun:
    """The judge's first run (its check verdict is the submission's) and every tool's log."""

    run: WorkerRun
    logs: list[SanitizerLog]
    unfinished: str = ""
    """Why a run ended before its tool's answer ('' when each finished)."""
    kept: str = ""
    """Where the logs were kept, when they hold anything worth reading ('' when removed)."""


def _log_folder() -> Path:
    """A fresh folder beneath the gpuprep home, which no sandbox may write."""
    parent = gpuprep_home() / "sanitizer"
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="run-", dir=parent))


def _counted(log: SanitizerLog, submission: Path, names: set[str]) -> list[tuple[Finding, str]]:
    """The log's errors in the submission's own code, each with why it counts (in log order).

    A CUDA call's error follows an access the tool already reported, and a racecheck warning
    is a possible hazard: neither fails a submission on its own."""
    counted = []
    for finding in log.findings:
        if finding.category != "api" and finding.severity == "error":
            why = sanitizer.attribution(finding, submission, names)
            if why:
                counted.append((finding, why))
    return counted


def _died(run: WorkerRun) -> str:
    """Why the submission's sandbox crashed during this run ('' when it did not)."""
    for result in run.results:
        if result.get("role") == "submission" and result.get("status") == "crashed":
            return str(result.get("message") or "no message").splitlines()[0][:200]
    return ""


def run_checks(
    config: JSON,
    *,
    binary: str,
    submission: Path,
    source: str,
    mode: str,
    timeout_s: float,
    on_event: Callable[[JSON], None] | None = None,
    ceilings_for: Callable[[Device], JSON] | None = None,
) -> SanitizedRun:
    """The judge under memcheck and, unless memcheck found an error in the submission, racecheck."""
    config = {**config, "check_only": True, "trials": 1, "sanitize": True}
    names = sanitizer.kernel_names(source)
    folder = _log_folder()
    logs: list[SanitizerLog] = []
    first: WorkerRun | None = None
    unfinished = ""
    for tool in sanitizer.TOOLS:
        log_file = folder / f"{tool}.log"
        run = run_judge(
            config,
            mode=mode,
            timeout_s=timeout_s,
            on_event=on_event,
            ceilings_for=ceilings_for,
            wrapper=sanitizer.command(binary, tool, str(log_file)),
        )
        first = first or run
        text = log_file.read_text(errors="replace") if log_file.is_file() else ""
        logs.append(sanitizer.parse_log(text, tool))
        if run.timed_out or not run.finished:
            unfinished = f"the judge under {tool} " + (
                "ran out of time" if run.timed_out else f"ended early (exit code {run.returncode})"
            )
            break
        died = _died(run)
        if died:
            # The tool's clean summary covers only what ran before the sandbox died: no answer.
            unfinished = f"your kernel's sandbox died under {tool} ({died})"
            break
        if _counted(logs[-1], submission, names):
            break
    assert first is not None  # TOOLS is not empty
    if any(log.findings or log.problems or log.errors != 0 for log in logs) or unfinished:
        return SanitizedRun(first, logs, unfinished, kept=str(folder))
    shutil.rmtree(folder, ignore_errors=True)
    return SanitizedRun(first, logs, unfinished)


def result(outcome: SanitizedRun, submission: Path, source: str) -> SanitizerResult:
    """The first error in the submission's code (else the first finding at all), and why."""
    names = sanitizer.kernel_names(source)
    tools = [log.tool for log in outcome.logs]
    for log in outcome.logs:
        counted = _counted(log, submission, names)
        if counted:
            finding, why = counted[0]
            return SanitizerResult(tools, log.tool, log.errors, finding, True, why)
    problem = outcome.unfinished or next((p for log in outcome.logs for p in log.problems), "")
    for log in outcome.logs:
        if not problem and log.errors is None:
            problem = f"the {log.tool} log ended before its summary"
        elif not problem and log.errors and not log.findings:
            problem = f"{log.tool} counted {log.errors} errors in lines this version cannot read"
    noted = next(((log, f) for log in outcome.logs for f in log.findings), None)
    if noted is None:
        last = outcome.logs[-1]
        return SanitizerResult(tools, last.tool, last.errors, None, False, "", problem)
    log, finding = noted
    why = (
        "a CUDA call's error, which follows a fault rather than pointing at one"
        if finding.category == "api"
        else "a possible hazard (a warning), not an error"
        if finding.severity != "error"
        else f"not in your code ({finding.file or finding.kernel})"
    )
    return SanitizerResult(tools, log.tool, log.errors, finding, False, why, problem)


def judged(
    verdict: SubmitReport, outcome: SanitizedRun, submission: Path, source: str
) -> SubmitReport:
    """The check verdict, failed by an error in the submission's code, or noted clean."""
    found = result(outcome, submission, source)
    notes = list(verdict.notes)
    if outcome.kept:
        notes.append(f"compute-sanitizer's full logs: {outcome.kept}")
    if verdict.mode is Mode.CPU:
        message = (
            f"{sanitizer.NO_GPU}: the judge found none, so compute-sanitizer watched no kernel"
        )
        return replace(verdict, status=Status.FAILED, message=message, notes=notes, sanitizer=found)
    if found.counted and found.finding is not None:
        if not verdict.passed and verdict.message:
            notes.append(f"the check: {verdict.message}")
        message = f"{sanitizer.describe(found.finding, found.errors)} ({found.why})"
        return replace(verdict, status=Status.FAILED, message=message, notes=notes, sanitizer=found)
    if found.finding is not None:
        notes.append(f"{sanitizer.describe(found.finding, found.errors)}; not counted: {found.why}")
    if found.problem:
        notes.append(f"compute-sanitizer gave no clean answer: {found.problem}")
        if verdict.passed:
            message = f"compute-sanitizer did not finish its check: {found.problem}"
            return replace(
                verdict, status=Status.CRASHED, message=message, notes=notes, sanitizer=found
            )
        return replace(verdict, notes=notes, sanitizer=found)
    if found.finding is None:
        notes.append(f"compute-sanitizer {' and '.join(found.tools)}: no errors")
    return replace(verdict, notes=notes, sanitizer=found)
