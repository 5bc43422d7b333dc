"""A mock interview kept in the store while it runs: saved on every change, resumed, finished.

`MockRun` ties a `MockSession` to its row in the progress database. The session calls back on
every change (an answer typed, a section closed, a score) and the run rewrites the saved state
at once; a front end also calls `save` every few seconds while a section runs, so that the
time used is on disk too. A mock interrupted any way (terminal closed, process killed) resumes
from its last state with the time each section had used; time away is not counted. Finishing
saves the report and puts the questions behind the weak topics in the spaced-repetition queue.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.sessions.mock import MockSession
from gpuprep.sessions.mock_plan import MockError, MockPlan
from gpuprep.sessions.mock_report import MockReport
from gpuprep.sessions.srs import card_id_for
from gpuprep.store.mocks import MockStore, SavedMock

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.store.database import Store


class MockRun:
    """A mock interview and its saved record (`id`)."""

    def __init__(self, records: MockStore, mock_id: int, session: MockSession, now: Clock) -> None:
        self.records = records
        self.id = mock_id
        self.session = session
        self.now = now
        """Real time, for the record's dates (the session's own clock may be sped up)."""
        self.report: MockReport | None = None
        """The report, once finished."""
        self.queued: tuple[str, ...] = ()
        """Questions put in the spaced-repetition queue when it finished."""
        session.on_change = self._changed

    @classmethod
    def begin(
        cls,
        store: Store,
        bank: Bank,
        plan: MockPlan,
        *,
        clock: Clock = system_clock,
        gpu: str | None = None,
        now: Clock = system_clock,
    ) -> MockRun:
        """Save a new mock (not started yet: its first section opens with `session.start()`)."""
        session = MockSession(bank, plan, clock=clock, gpu=gpu)
        records = MockStore(store)
        return cls(records, records.create(session.snapshot(), now()), session, now)

    @classmethod
    def resume(
        cls,
        store: Store,
        bank: Bank,
        mock_id: int | None = None,
        *,
        clock: Clock = system_clock,
        now: Clock = system_clock,
    ) -> MockRun:
        """Carry on mock `mock_id` (default: the one most recently worked on that has no report)."""
        records = MockStore(store)
        saved = records.get(mock_id) if mock_id is not None else records.latest_unfinished()
        if saved is None:
            raise MockError(
                f"no mock #{mock_id}; `gpuprep mock --history` lists them"
                if mock_id is not None
                else "no interrupted mock to resume; `gpuprep mock` starts one"
            )
        if saved.finished:
            raise MockError(
                f"mock #{saved.id} is finished; `gpuprep mock --report {saved.id}` shows its report"
            )
        session = MockSession.resume(bank, saved.state, clock=clock)
        return cls(records, saved.id, session, now)

    def _changed(self, session: MockSession) -> None:
        self.save()

    def save(self) -> None:
        """Rewrite the saved state now (with the time used so far)."""
        if self.report is None:
            self.records.save_state(self.id, self.session.snapshot(), self.now())

    def finish(self) -> MockReport:
        """End the mock (if time is left), save its report, and queue its weak topics' questions
        for review, due now."""
        session = self.session
        if not session.finished:
            session.end()
        report = session.report()
        queued = [qid for item in report.study_next for qid in item.question_ids]
        moment = self.now()
        self.records.finish(self.id, session.snapshot(), report.to_json(), report.score, moment)
        self.records.queue_for_review(queued, {qid: card_id_for(qid) for qid in queued}, moment)
        self.report = report
        self.queued = tuple(queued)
        return report


# --- History --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MockSummary:
    """One line of `gpuprep mock --history`."""

    id: int
    started_at: datetime
    minutes: int
    track: str
    seed: int
    finished: bool
    seconds_used: float
    score: float | None
    """Self-score, 1-4 (None: unfinished, or nothing self-scored)."""
    verdicts: dict[str, int]
    """Auto-graded verdicts and how many of each."""
    study_next: tuple[str, ...]
    """Topic ids, weakest first."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "started_at": self.started_at.isoformat(),
            "minutes": self.minutes,
            "track": self.track,
            "seed": self.seed,
            "finished": self.finished,
            "minutes_used": round(self.seconds_used / 60, 1),
            "score": round(self.score, 2) if self.score is not None else None,
            "verdicts": dict(self.verdicts),
            "study_next": list(self.study_next),
        }


def _summary(saved: SavedMock) -> MockSummary:
    if saved.report is not None:
        report = MockReport.from_json(saved.report)
        seconds = report.seconds_used
        verdicts = report.verdict_counts
        topics = tuple(item.topic for item in report.study_next)
    else:
        seconds = sum(float(s["used_seconds"]) for s in saved.state["sections"])
        verdicts, topics = {}, ()
    return MockSummary(
        saved.id,
        saved.started_at,
        saved.minutes,
        saved.track,
        saved.seed,
        saved.finished,
        seconds,
        saved.score,
        verdicts,
        topics,
    )


def history(store: Store) -> list[MockSummary]:
    """Every mock, oldest first."""
    return [_summary(saved) for saved in MockStore(store).all()]


def saved_report(store: Store, mock_id: int) -> MockReport:
    """A finished mock's report, or MockError saying why there is none."""
    saved = MockStore(store).get(mock_id)
    if saved is None:
        raise MockError(f"no mock #{mock_id}; `gpuprep mock --history` lists them")
    if saved.report is None:
        raise MockError(
            f"mock #{mock_id} has no report yet: it was interrupted; "
            "`gpuprep mock --resume` carries it on"
        )
    return MockReport.from_json(saved.report)
