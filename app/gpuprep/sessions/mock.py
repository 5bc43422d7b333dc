"""A mock interview as it runs: its sections timed, the answers self-scored, the report.

The loop itself is composed in `gpuprep.sessions.mock_plan`. The session knows nothing of
screens: it is driven through an injected clock, so a test (or a TUI at a scaled clock) times
sections out by moving the clock, and what was typed is kept when a section closes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.sessions.mock_plan import MockError, MockPlan, MockSection
from gpuprep.sessions.mock_report import (
    MockReport,
    QuestionResult,
    SectionResult,
    study_next,
    weighted_score,
)
from gpuprep.sessions.question_view import QuestionView

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question
    from gpuprep.bank.rubric_template import RubricTemplate

#: Kinds answered in words and scored by the candidate against the rubric at the end; estimates
#: are graded and drills judged instead.
SELF_SCORED_KINDS: tuple[str, ...] = ("concept", "debugging", "design")


class SectionClosed(MockError):
    """An answer typed for a question whose section is not open (time is up, or not yet begun)."""


@dataclass
class SectionRun:
    """A section as it runs: when it opened, how much time it has used, how it ended."""

    section: MockSection
    opened_at: datetime | None = None
    """When it opened in this process (None before it opens, and once closed)."""
    used_before: timedelta = timedelta(0)
    """Time it used before the mock was resumed."""
    used: timedelta | None = None
    """Time it used in all, once closed."""
    time_up: bool = False
    reached: bool = False
    """It was opened (a section the mock ended before stays unreached)."""
    """It closed because its time ran out (rather than the candidate moving on)."""

    @property
    def allowance(self) -> timedelta:
        return timedelta(minutes=self.section.minutes)

    @property
    def is_open(self) -> bool:
        return self.opened_at is not None

    @property
    def is_closed(self) -> bool:
        return self.used is not None

    def elapsed(self, now: datetime) -> timedelta:
        if self.used is not None:
            return self.used
        if self.opened_at is None:
            return timedelta(0)
        return self.used_before + (now - self.opened_at)

    def deadline(self) -> datetime:
        assert self.opened_at is not None
        return self.opened_at + self.allowance - self.used_before


class MockSession:
    """A mock interview in progress: sections open and close on the clock, answers are typed into
    the open section, and at the end each question is self-scored against its rubric."""

    def __init__(
        self,
        bank: Bank,
        plan: MockPlan,
        *,
        clock: Clock = system_clock,
        gpu: str | None = None,
        on_change: Callable[[MockSession], None] | None = None,
    ) -> None:
        self.bank = bank
        self.plan = plan
        self.clock = clock
        self.gpu = gpu
        """The GPU estimation questions are asked for when they allow it (the settings' GPU)."""
        self.on_change = on_change
        """Called after every change worth keeping (an answer, a section closing, a score), so
        that a front end saves it at once: a killed app loses nothing typed."""
        self._views: dict[str, QuestionView] = {}
        missing = [qid for qid in plan.question_ids if qid not in bank.questions]
        if missing:
            raise MockError(f"the mock asks for questions the bank does not have: {missing}")
        self.runs = [SectionRun(section) for section in plan.sections]
        self.index = -1
        """The open section (-1 before the start, len(runs) once over)."""
        self.answers: dict[str, str] = {}
        self.drill_verdicts: dict[str, tuple[bool, str]] = {}
        self.levels: dict[str, dict[str, int]] = {}
        self.signals: dict[str, set[int]] = {}
        self.red_flags: dict[str, set[int]] = {}

    # Time

    @property
    def started(self) -> bool:
        return self.index >= 0

    @property
    def finished(self) -> bool:
        return self.index >= len(self.runs)

    @property
    def current(self) -> SectionRun | None:
        """The open section, after closing any whose time is up."""
        self.tick()
        return self.runs[self.index] if 0 <= self.index < len(self.runs) else None

    def start(self) -> SectionRun | None:
        """Open the first section now."""
        if self.started:
            raise MockError("the mock has already started")
        self._open(0, self.clock())
        self._changed()
        return self.current

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def _open(self, index: int, at: datetime) -> None:
        self.index = index
        if index < len(self.runs):
            self.runs[index].opened_at = at
            self.runs[index].reached = True

    def _close(self, at: datetime, *, time_up: bool) -> None:
        run = self.runs[self.index]
        run.used = run.elapsed(at)
        run.time_up = time_up
        run.opened_at = None
        self._open(self.index + 1, at)

    def tick(self) -> list[SectionRun]:
        """Close every section whose time is up, each at its deadline (the next opens then);
        returns the sections closed, oldest first, for the front end to say so."""
        closed = []
        now = self.clock()
        while 0 <= self.index < len(self.runs):
            run = self.runs[self.index]
            deadline = run.deadline()
            if now < deadline:
                break
            self._close(deadline, time_up=True)
            closed.append(run)
        if closed:
            self._changed()
        return closed

    def remaining(self) -> timedelta:
        """Time left in the open section (zero when none is open)."""
        run = self.current
        if run is None:
            return timedelta(0)
        return max(run.deadline() - self.clock(), timedelta(0))

    def total_remaining(self) -> timedelta:
        """Time left in the whole mock: the open section's and every later one's."""
        run = self.current
        if run is None:
            return timedelta(0)
        later = sum((r.allowance for r in self.runs[self.index + 1 :]), timedelta(0))
        return self.remaining() + later

    def next_section(self) -> SectionRun | None:
        """The candidate is done with the open section before its time: close it and open the next."""
        if self.current is None:
            raise MockError("no section is open")
        self._close(self.clock(), time_up=False)
        self._changed()
        return self.current

    def end(self) -> None:
        """Stop the mock now: the open section closes, the ones not reached are left unused."""
        self.tick()
        now = self.clock()
        for run in self.runs[max(self.index, 0) :]:
            run.used = run.elapsed(now)
            run.opened_at = None
        self.index = len(self.runs)
        self._changed()

    # Questions and answers

    def view(self, question_id: str) -> QuestionView:
        """The question as the mock shows it, built once: the prompt the candidate reads and the
        solution their estimate is graded against are the same one."""
        view = self._views.get(question_id)
        if view is None:
            self._section_of(question_id)
            view = QuestionView.build(
                self.bank.questions[question_id], self.bank, preferred_gpu=self.gpu
            )
            self._views[question_id] = view
        return view

    def _section_of(self, question_id: str) -> int:
        for index, run in enumerate(self.runs):
            if question_id in run.section.question_ids:
                return index
        raise MockError(f"{question_id} is not a question of this mock")

    def type_answer(self, question_id: str, text: str) -> None:
        """Keep what the candidate typed for a question of the open section.

        Raises :class:`SectionClosed` once its time is up (what was typed before stays).
        """
        index = self._section_of(question_id)
        self.tick()
        if index != self.index:
            state = "is over" if index < self.index else "has not begun"
            raise SectionClosed(f"the {self.runs[index].section.title.lower()} section {state}")
        if self.answers.get(question_id, "") != text:
            self.answers[question_id] = text
            self._changed()

    def answer(self, question_id: str) -> str:
        return self.answers.get(question_id, "")

    def record_drill(self, question_id: str, passed: bool, summary: str = "") -> None:
        """The judge's verdict on the kernel drill's submission (from a DrillSession)."""
        question = self.bank.questions[question_id]
        if question.kind != "coding":
            raise MockError(f"{question_id} is a {question.kind} question, not a kernel drill")
        self._section_of(question_id)
        self.drill_verdicts[question_id] = (passed, summary)
        self._changed()

    # Self-scoring, once the mock is over

    @property
    def self_scored(self) -> tuple[str, ...]:
        """The open-ended questions, scored by the candidate at the end, in the order asked."""
        return tuple(
            qid
            for qid in self.plan.question_ids
            if self.bank.questions[qid].kind in SELF_SCORED_KINDS
        )

    def template(self, question_id: str) -> RubricTemplate:
        """The rubric template a question is scored against (its own, else its kind's)."""
        question = self.bank.questions[question_id]
        name = question.rubric_template or question.kind
        template = self.bank.rubrics.get(name)
        if template is None:
            raise MockError(f"{question_id}: no rubric template {name!r} under rubrics/")
        return template

    def _scorable(self, question_id: str) -> None:
        self._section_of(question_id)
        self.tick()
        if not self.finished:
            raise MockError("self-scoring starts when the mock is over")

    def score(self, question_id: str, dimension: str, level: int) -> None:
        """Give a dimension of the question's rubric template a level, 1 (weak) to 4 (strong)."""
        self._scorable(question_id)
        names = [d.name for d in self.template(question_id).dimensions]
        if dimension not in names:
            raise MockError(f"{dimension!r} is not a dimension of {question_id}'s rubric: {names}")
        if level not in (1, 2, 3, 4):
            raise MockError(f"a level is 1 to 4, not {level}")
        self.levels.setdefault(question_id, {})[dimension] = level
        self._changed()

    def tick_signal(self, question_id: str, index: int, hit: bool = True) -> None:
        """Mark a strong signal of the question's rubric as said (or not)."""
        self._tick(self.signals, question_id, index, hit, "strong_signals")

    def tick_red_flag(self, question_id: str, index: int, raised: bool = True) -> None:
        """Mark a red flag of the question's rubric as one the answer showed (or not)."""
        self._tick(self.red_flags, question_id, index, raised, "red_flags")

    def _tick(
        self, ticks: dict[str, set[int]], question_id: str, index: int, on: bool, field_name: str
    ) -> None:
        self._scorable(question_id)
        count = len(getattr(self.bank.questions[question_id].rubric, field_name))
        if not 0 <= index < count:
            raise MockError(
                f"{question_id} has {count} {field_name.replace('_', ' ')}, no #{index}"
            )
        marks = ticks.setdefault(question_id, set())
        (marks.add if on else marks.discard)(index)
        self._changed()

    # The report

    def _verdict(self, question: Question) -> tuple[str | None, str]:
        if question.kind == "coding":
            if question.id not in self.drill_verdicts:
                return "not submitted", ""
            passed, summary = self.drill_verdicts[question.id]
            return ("passed" if passed else "failed"), summary
        if question.kind != "estimation":
            return None, ""
        text = self.answer(question.id).strip()
        if not text:
            return "unanswered", "nothing typed"
        result = self.view(question.id).grade(text)
        return result.verdict, result.message

    def _question_result(self, question_id: str) -> QuestionResult:
        question = self.bank.questions[question_id]
        rubric = question.rubric
        verdict, message = self._verdict(question)
        hit = self.signals.get(question_id, set())
        flags = self.red_flags.get(question_id, set())
        return QuestionResult(
            question_id=question_id,
            title=question.title,
            topic=question.topic,
            kind=question.kind,
            answer=self.answer(question_id),
            verdict=verdict,
            verdict_message=message,
            levels=dict(self.levels.get(question_id, {})),
            dimensions=tuple(d.name for d in self.template(question_id).dimensions),
            signals_hit=tuple(s for i, s in enumerate(rubric.strong_signals) if i in hit),
            signals_missed=tuple(s for i, s in enumerate(rubric.strong_signals) if i not in hit),
            red_flags=tuple(f for i, f in enumerate(rubric.red_flags) if i in flags),
            minutes=question.minutes,
        )

    def report(self) -> MockReport:
        """Time used per section, verdicts and self-scores, and what to study next."""
        now = self.clock()
        self.tick()
        sections = tuple(
            SectionResult(
                kind=run.section.kind,
                title=run.section.title,
                minutes=run.section.minutes,
                seconds_used=run.elapsed(now).total_seconds(),
                time_up=run.time_up,
                reached=run.reached,
                questions=tuple(self._question_result(q) for q in run.section.question_ids),
            )
            for run in self.runs
        )
        results = [q for s in sections for q in s.questions]
        weak_dimensions = sorted(
            (
                (self.template(q.question_id).title, name, level)
                for q in results
                for name, level in q.levels.items()
                if level <= 2
            ),
            key=lambda entry: (entry[2], entry[0], entry[1]),
        )
        titles = {topic_id: topic.title for topic_id, topic in self.bank.topics.items()}
        return MockReport(
            self.plan,
            sections,
            weighted_score(results),
            study_next(results, titles),
            tuple(dict.fromkeys(weak_dimensions)),
            gpu=self.gpu,
        )

    # Resuming

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to resume, as JSON: the time each section has used so far, not the
        moments (time while the app was not running is not counted)."""
        self.tick()
        now = self.clock()
        return {
            "plan": self.plan.to_json(),
            "gpu": self.gpu,
            "index": self.index,
            "sections": [
                {
                    "used_seconds": run.elapsed(now).total_seconds(),
                    "closed": run.is_closed,
                    "time_up": run.time_up,
                    "reached": run.reached,
                }
                for run in self.runs
            ],
            "answers": dict(self.answers),
            "drills": {qid: list(v) for qid, v in self.drill_verdicts.items()},
            "levels": {qid: dict(v) for qid, v in self.levels.items()},
            "signals": {qid: sorted(v) for qid, v in self.signals.items()},
            "red_flags": {qid: sorted(v) for qid, v in self.red_flags.items()},
        }

    @classmethod
    def resume(
        cls, bank: Bank, snapshot: dict[str, Any], *, clock: Clock = system_clock
    ) -> MockSession:
        """Carry on a mock from a snapshot: the open section reopens now with the time it had used."""
        session = cls(
            bank, MockPlan.from_json(snapshot["plan"]), clock=clock, gpu=snapshot.get("gpu")
        )
        now = clock()
        for run, saved in zip(session.runs, snapshot["sections"], strict=True):
            used = timedelta(seconds=saved["used_seconds"])
            if saved["closed"]:
                run.used, run.time_up = used, saved["time_up"]
            else:
                run.used_before = used
            run.reached = bool(saved.get("reached", used > timedelta(0)))
        session.answers = dict(snapshot["answers"])
        session.drill_verdicts = {q: (bool(v[0]), str(v[1])) for q, v in snapshot["drills"].items()}
        session.levels = {q: dict(v) for q, v in snapshot["levels"].items()}
        session.signals = {q: set(v) for q, v in snapshot["signals"].items()}
        session.red_flags = {q: set(v) for q, v in snapshot["red_flags"].items()}
        if snapshot["index"] >= 0:
            session._open(snapshot["index"], now)
        return session
