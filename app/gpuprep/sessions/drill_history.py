"""Kernel-drill history: every saved submission read back as time, rung reached and verdict.

The store keeps each submission's whole report (`DrillSession.record` and `record_collective`,
one saving path for the CLI and the TUI); this module reads the figures a candidate follows
over time out of it:

- the time: the submission's median on the drill's headline shape (GPU runs only; a CPU run
  checks correctness through Triton's interpreter and is not timed); for a collective drill
  (all_reduce, `record_collective`), its largest timed size, with the bus bandwidth as GB/s;
- the rung reached: the highest rung of the submission's own language track (CUDA with CUDA,
  Triton with Triton) that the submission is level with or faster than, within the harness's
  3% (`harness.figures.LEVEL`), the same tolerance the placement line uses;
- the best time per drill: the lowest median among passed GPU submissions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from gpuprep.harness.figures import LEVEL
from gpuprep.sessions import collective_result

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.store.records import DrillResult


@dataclass(frozen=True)
class HistoryEntry:
    """One submission of a drill, as the history shows it."""

    drill_id: str
    submitted_at: datetime
    language: str
    status: str
    """passed | failed | rejected | crashed | timeout ..."""
    mode: str | None
    """gpu | cpu (None when the judge never said)."""
    median_ms: float | None
    """The headline shape's median; None unless it passed on a GPU."""
    gbps: float | None
    rung: str | None
    """The highest rung of its track it is level with or beats; None when not timed or slower
    than the first rung."""
    rungs_on_track: int
    """How many timed rungs its track had in that run."""
    summary: str

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def to_json(self) -> dict[str, Any]:
        return {
            "drill": self.drill_id,
            "submitted_at": self.submitted_at.isoformat(),
            "language": self.language,
            "status": self.status,
            "mode": self.mode,
            "median_ms": self.median_ms,
            "gbps": self.gbps,
            "rung": self.rung,
            "summary": self.summary,
        }


@dataclass(frozen=True)
class DrillBest:
    """A drill's best so far."""

    drill_id: str
    attempts: int
    passed: int
    best_ms: float | None
    """Lowest median among passed GPU submissions."""
    best_at: datetime | None
    rung: str | None
    """The rung reached by the best-timed submission."""
    last_status: str

    def cells(self) -> tuple[str, str, str, str, str, str]:
        """The row `gpuprep history` and the app's Drills tab show: drill, tries, passed, best ms,
        rung reached, last status ("-" where no passed GPU run timed it)."""
        return (
            self.drill_id,
            str(self.attempts),
            str(self.passed),
            format_ms(self.best_ms),
            self.rung or "-",
            self.last_status,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "drill": self.drill_id,
            "attempts": self.attempts,
            "passed": self.passed,
            "best_ms": self.best_ms,
            "best_at": self.best_at.isoformat() if self.best_at else None,
            "rung": self.rung,
            "last_status": self.last_status,
        }


def format_ms(value: float | None) -> str:
    """A median in ms as the history shows it: four decimals, or "-" for an untimed run."""
    return "-" if value is None else f"{value:.4f}"


def rung_reached(
    median_ms: float | None, ladder: list[dict[str, Any]], track: list[str] | None
) -> tuple[str | None, int]:
    """(the highest rung of `track` that `median_ms` is level with or beats, timed rungs)."""
    timed = [
        (line["name"], float(line["median_ms"]))
        for line in ladder
        if line.get("median_ms") and (track is None or line.get("name") in track)
    ]
    if track is not None:
        timed.sort(key=lambda pair: track.index(pair[0]))
    if median_ms is None:
        return None, len(timed)
    reached = None
    for name, ms in timed:
        if median_ms <= ms * (1 + LEVEL):
            reached = name
    return reached, len(timed)


def entry(result: DrillResult, bank: Bank | None = None) -> HistoryEntry:
    """A saved result as a history entry (figures read from its stored report)."""
    detail = result.detail
    if collective_result.is_collective(detail):
        return _collective_entry(result)
    timing = detail.get("timing") or {}
    median = timing.get("median_ms")
    achieved = detail.get("achieved") or {}
    track = None
    drill = bank.drills.get(result.drill_id) if bank is not None else None
    if drill is not None:
        names = [rung.name for rung in drill.track(result.language)]
        track = names or None
    ladder = [line for line in detail.get("ladder") or [] if isinstance(line, dict)]
    if track is None:
        ladder = [
            line for line in ladder if line.get("language", result.language) == result.language
        ]
    rung, count = rung_reached(float(median) if median else None, ladder, track)
    return HistoryEntry(
        drill_id=result.drill_id,
        submitted_at=result.submitted_at,
        language=result.language,
        status=str(detail.get("status") or ("passed" if result.passed else "failed")),
        mode=detail.get("mode"),
        median_ms=float(median) if median else None,
        gbps=achieved.get("gbps"),
        rung=rung,
        rungs_on_track=count,
        summary=result.summary,
    )


def _collective_entry(result: DrillResult) -> HistoryEntry:
    """A collective drill's result: timed on its headline size (GPU runs); no ladder is timed
    beside a collective submission, so no rung is reached."""
    case = collective_result.headline_case(result.detail)
    median = case.get("median_ms") if case else None
    return HistoryEntry(
        drill_id=result.drill_id,
        submitted_at=result.submitted_at,
        language=result.language,
        status=str(result.detail.get("status") or ("passed" if result.passed else "failed")),
        mode=collective_result.mode(result.detail),
        median_ms=float(median) if median else None,
        gbps=case.get("busbw_gbps") if case else None,
        rung=None,
        rungs_on_track=0,
        summary=result.summary,
    )


def history(results: list[DrillResult], bank: Bank | None = None) -> list[HistoryEntry]:
    """Every result as an entry, oldest first."""
    return sorted((entry(r, bank) for r in results), key=lambda e: e.submitted_at)


def best_per_drill(entries: list[HistoryEntry]) -> list[DrillBest]:
    """Per drill (by id): attempts, passes, the best passed GPU time and its rung, the last status."""
    by_drill: dict[str, list[HistoryEntry]] = {}
    for item in entries:
        by_drill.setdefault(item.drill_id, []).append(item)
    bests = []
    for drill_id, items in sorted(by_drill.items()):
        timed = [e for e in items if e.passed and e.median_ms is not None]
        best = min(timed, key=lambda e: e.median_ms or 0.0) if timed else None
        bests.append(
            DrillBest(
                drill_id=drill_id,
                attempts=len(items),
                passed=sum(1 for e in items if e.passed),
                best_ms=best.median_ms if best else None,
                best_at=best.submitted_at if best else None,
                rung=best.rung if best else None,
                last_status=items[-1].status,
            )
        )
    return bests
