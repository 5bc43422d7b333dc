"""A candidate's work on kernel drills: the workspace, the starters, a submission, the saved result.

The session owns everything between "this drill" and "this verdict": where the user's copy of
a drill's starters lives, which file is submitted and in which language (the harness's rule:
a file that imports CuPy is CUDA), the ceilings of the GPU the judge reports, the call to the
harness, and saving the result. It knows nothing of screens: `gpuprep submit`, the TUI's
coding pane (from a worker thread) and a test drive it the same way. Drills come from the
bank it was given, so a drill of an extra `--bank` folder is submitted like a built-in one.
The harness is injected; tests hand in one that returns a made-up `SubmitReport`.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from gpuprep.bank.hardware import find_by_device_name
from gpuprep.harness import api
from gpuprep.harness.api import CeilingsFor, OnEvent
from gpuprep.harness.calibration import load_calibrations
from gpuprep.harness.report import TENSOR_PEAKS, BenchReport, Ceilings, Device, SubmitReport
from gpuprep.harness.source_scan import language_of, read_source
from gpuprep.paths import gpuprep_home
from gpuprep.sessions import collective_result
from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.sessions.drill_report import summarise
from gpuprep.store.records import DrillResult
from gpuprep.wording import match_name, unknown_name

if TYPE_CHECKING:
    from gpuprep.bank.drill import Drill
    from gpuprep.bank.loader import Bank
    from gpuprep.collective.protocol import Report as CollectiveReport
    from gpuprep.store.database import Store

#: Starter files in the order offered: Triton first, because it also runs on a CPU (interpreter).
STARTER_ORDER = ("starter_triton.py", "starter_cuda.py")


def starter_order(language: str) -> tuple[str, ...]:
    """The starter file names, `language`'s ('triton' or 'cuda') first."""
    return STARTER_ORDER if language != "cuda" else tuple(reversed(STARTER_ORDER))


class Harness(Protocol):
    """What a drill session needs of the harness: `gpuprep.harness.api`, or a test's fake."""

    def submit(
        self,
        drill: Drill,
        kernels_dir: Path,
        file: Path,
        *,
        cpu: bool = ...,
        timeout_s: float = ...,
        with_ladder: bool = ...,
        ceilings_for: CeilingsFor = ...,
        on_event: OnEvent | None = ...,
        sanitize: bool = ...,
    ) -> SubmitReport: ...

    def bench(
        self,
        drill: Drill,
        kernels_dir: Path,
        *,
        cpu: bool = ...,
        timeout_s: float = ...,
        ceilings_for: CeilingsFor = ...,
        on_event: OnEvent | None = ...,
    ) -> BenchReport: ...


class UnknownDrill(LookupError):
    """The bank has no drill of that id; the message names the ones it has."""

    def __init__(self, drill_id: str, known: list[str]) -> None:
        super().__init__(unknown_name("drill", drill_id, known))
        self.drill_id = drill_id


class DrillSession:
    """Kernel drills of one bank, submitted through the harness and saved to the store.

    `submit` and `bench` block for as long as the judge runs (seconds on a CPU, minutes with
    the ladder on a GPU): a UI calls them from a worker thread, and `record` from the thread
    that owns the store. With no store (one that would not open), nothing is saved; a collective
    drill (all_reduce) is judged by gpuprep.collective and saved through `record_collective`.
    """

    def __init__(
        self,
        bank: Bank,
        store: Store | None = None,
        clock: Clock = system_clock,
        *,
        harness: Harness | None = None,
    ) -> None:
        self.bank = bank
        self.store = store
        self.clock = clock
        self.harness: Harness = harness if harness is not None else api

    # -- the drill and the user's files ----------------------------------------------------------

    def drill(self, drill_id: str) -> Drill:
        """The bank's drill of that id, or UnknownDrill."""
        found = match_name(drill_id, self.bank.drills)
        if found is None:
            # A collective drill (all_reduce) is submitted through its own judge, but it is one a
            # user can name, so the list says so.
            raise UnknownDrill(drill_id, [*self.bank.drills, *self.bank.collective_dirs])
        return self.bank.drills[found]

    def workspace(self, drill_id: str) -> Path:
        """Where the user's copy of a drill's starters lives: <gpuprep home>/workspace/<drill>/."""
        return gpuprep_home() / "workspace" / drill_id

    def starters(self, drill_id: str, language: str = "triton") -> list[Path]:
        """The drill's starter files (in its bank folder), `language`'s first (Triton's unless
        a question asks for CUDA)."""
        self.drill(drill_id)
        found = [p for p in self.bank.drill_dirs[drill_id].glob("starter*") if p.is_file()]
        order = starter_order(language)
        return sorted(found, key=lambda p: (order.index(p.name) if p.name in order else 99, p.name))

    def write_starters(self, drill_id: str, language: str = "triton") -> list[Path]:
        """Copy the starters into the workspace, never over the user's own edits; the copies
        (`language`'s first: the one an editor opens)."""
        workspace = self.workspace(drill_id)
        workspace.mkdir(parents=True, exist_ok=True)
        written = []
        for starter in self.starters(drill_id, language):
            target = workspace / starter.name
            if not target.exists():
                shutil.copyfile(starter, target)
            written.append(target)
        return written

    def submission(self, drill_id: str, language: str = "triton") -> Path | None:
        """The workspace file a submission sends: `language`'s starter, else the other one
        (a question that asks for CUDA passes 'cuda', so its prompt and verdict agree)."""
        workspace = self.workspace(drill_id)
        return next(
            (workspace / name for name in starter_order(language) if (workspace / name).is_file()),
            None,
        )

    def language(self, file: Path) -> str:
        """'cuda' or 'triton', by the harness's rule (the one it places the kernel by)."""
        source, _problem = read_source(file)
        return language_of(source or "")

    def problem_with(self, drill_id: str, file: Path) -> str:
        """Why `file` cannot be submitted to the drill ('' when it can)."""
        entry = self.drill(drill_id).entry
        if file.is_dir():
            return f"{file} is a folder; give the .py file that defines {entry}(...)"
        if not file.is_file():
            return f"no such file: {file}"
        if file.suffix != ".py":
            # The judge imports the file as a module; anything else fails as "cannot load".
            return f"{file} is not a .py file; write {entry}(...) in a Python file"
        return ""

    # -- the harness ---------------------------------------------------------------------------

    def ceilings(self, device: Device) -> Ceilings:
        """The figures a run on `device` is compared with: its hardware table and calibration."""
        name = device.get("name", "")
        gpu = find_by_device_name(self.bank.hardware.values(), name) if name else None
        calibrated = load_calibrations().get(name, {})
        bandwidth = gpu.get("hbm_bandwidth") if gpu else None
        fp32 = gpu.get("fp32") if gpu else None
        peaks = {dtype: gpu.get(key) for dtype, key in TENSOR_PEAKS.items()} if gpu else {}
        return Ceilings(
            gpu_id=gpu.id if gpu else None,
            datasheet_bandwidth=bandwidth.to("B/s") if bandwidth else None,
            datasheet_flops=fp32.to("FLOP/s") if fp32 else None,
            calibrated_bandwidth=calibrated["copy_gbps"] * 1e9
            if calibrated.get("copy_gbps")
            else None,
            datasheet_tensor_flops={d: q.to("FLOP/s") for d, q in peaks.items() if q is not None},
            calibrated_tensor_flops={"bfloat16": calibrated["bf16_tflops"] * 1e12}
            if calibrated.get("bf16_tflops")
            else {},
        )

    def submit(
        self,
        drill_id: str,
        file: Path | None = None,
        *,
        cpu: bool = False,
        timeout_s: float = 300.0,
        with_ladder: bool = True,
        on_event: OnEvent | None = None,
        sanitize: bool = False,
    ) -> SubmitReport:
        """Check (and on a GPU, time beside the ladder) `file`, by default the workspace's.

        `sanitize`: the checks only, under compute-sanitizer (raises SanitizerUnavailable
        where it cannot run). Blocks while the judge runs; saves nothing (see `record`)."""
        drill = self.drill(drill_id)
        path = file if file is not None else self.submission(drill_id)
        if path is None:
            raise FileNotFoundError(
                f"no submission in {self.workspace(drill_id)}: write the starter first"
            )
        return self.harness.submit(
            drill,
            self.bank.kernels_ref_dir(drill_id),
            path,
            cpu=cpu,
            timeout_s=timeout_s,
            with_ladder=with_ladder,
            ceilings_for=self.ceilings,
            on_event=on_event,
            sanitize=sanitize,
        )

    def bench(
        self,
        drill_id: str,
        *,
        cpu: bool = False,
        timeout_s: float = 900.0,
        on_event: OnEvent | None = None,
    ) -> BenchReport:
        """Every rung of the drill's ladder and the vendor op, side by side."""
        return self.harness.bench(
            self.drill(drill_id),
            self.bank.kernels_ref_dir(drill_id),
            cpu=cpu,
            timeout_s=timeout_s,
            ceilings_for=self.ceilings,
            on_event=on_event,
        )

    # -- the store -----------------------------------------------------------------------------

    def record(self, report: SubmitReport) -> DrillResult:
        """Save a submission's report (when the session has a store) and return the saved result."""
        return self._save(
            report.drill,
            report.language,
            report.passed,
            summarise(report).headline,
            report.to_json(),
        )

    def record_collective(self, drill_id: str, report: CollectiveReport) -> DrillResult:
        """Save a collective drill's report (all_reduce, N ranks) like any drill's submission."""
        return self._save(
            drill_id,
            collective_result.LANGUAGE,
            report["status"] == "passed",
            collective_result.headline(report),
            collective_result.detail(drill_id, report),
        )

    def _save(
        self, drill_id: str, language: str, passed: bool, summary: str, detail: dict[str, Any]
    ) -> DrillResult:
        result = DrillResult(
            drill_id=drill_id,
            language=language,
            submitted_at=self.clock(),
            passed=passed,
            summary=summary,
            detail=detail,
        )
        if self.store is not None:
            return replace(result, id=self.store.record_drill_result(result))
        return result

    def results(self, drill_id: str) -> list[DrillResult]:
        """The drill's saved results, oldest first (none without a store)."""
        return self.store.drill_results(drill_id) if self.store is not None else []
