"""A mock interview as it runs: its sections timed, the answers self-scored, the report.

The loop itself is composed in `gpuprep.sessions.mock_plan`. The session knows nothing of
screens: it is driven through an injected clock, so a test (or a TUI at a scaled clock) times
sections out by moving the clock, and what was typed is kept when a section closes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.sessions.mock_plan import MockError, MockPlan, MockSection

if TYPE_CHECKING:

    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question
    from gpuprep.bank.rubric_template import RubricTemplate

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


@dataclass(frozen=True)
class QuestionResult:
    """One question in the report."""

    question_id: str
    title: str
    topic: str | None
    kind: str
    answer: str
    """What was typed (kept when the section timed out)."""
    verdict: str | None
    """Auto-graded parts: an estimate's grade (correct | close | wrong | invalid | unanswered), a
    drill's (passed | failed | not submitted); None for self-scored kinds."""
    verdict_message: str
    levels: dict[str, int]
    """Self-score, 1-4, per dimension of the rubric template."""
    dimensions: tuple[str, ...]
    """Every dimension of the template, scored or not."""
    signals_hit: tuple[str, ...]
    signals_missed: tuple[str, ...]
    red_flags: tuple[str, ...]
    """Red flags the candidate admitted to."""

    @property
    def score(self) -> float | None:
        """The mean of the dimension levels given (1-4); None before any is given."""
        return sum(self.levels.values()) / len(self.levels) if self.levels else None

    @property
    def fully_scored(self) -> bool:
        return set(self.levels) == set(self.dimensions)


@dataclass(frozen=True)
class SectionResult:
    kind: str
    title: str
    minutes: int
    """Minutes it was given."""
    seconds_used: float
    time_up: bool
    questions: tuple[QuestionResult, ...]

    @property
    def score(self) -> float | None:
        scores = [q.score for q in self.questions if q.score is not None]
        return sum(scores) / len(scores) if scores else None


@dataclass(frozen=True)
class StudyNext:
    """A topic to study after the mock, with the questions and reasons that point to it."""

    topic: str
    title: str
    question_ids: tuple[str, ...]
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class MockReport:
    """What the candidate reads at the end."""

    plan: MockPlan
    sections: tuple[SectionResult, ...]
    score: float | None
    """Self-scores (1-4) averaged over the scored questions, each weighted by its minutes."""
    study_next: tuple[StudyNext, ...]
    """Weakest first."""
    weak_dimensions: tuple[tuple[str, str, int], ...]
    """(template title, dimension, level) scored 1 or 2, lowest first."""

    @property
    def seconds_used(self) -> float:
        return sum(section.seconds_used for section in self.sections)


#: Below this mean self-score a question sends its topic to "study next" (3 reads as solid in
#: the rubric templates' descriptors).
SOLID_SCORE = 3.0


class MockSession:
    """A mock interview in progress: sections open and close on the clock, answers are typed into
    the open section, and at the end each question is self-scored against its rubric."""

    def __init__(self, bank: Bank, plan: MockPlan, *, clock: Clock = system_clock) -> None:
        self.bank = bank
        self.plan = plan
        self.clock = clock
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
        return self.current

    def _open(self, index: int, at: datetime) -> None:
        self.index = index
        if index < len(self.runs):
            self.runs[index].opened_at = at

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
        return self.current

    def end(self) -> None:
        """Stop the mock now: the open section closes, the ones not reached are left unused."""
        self.tick()
        now = self.clock()
        for run in self.runs[max(self.index, 0) :]:
            run.used = run.elapsed(now)
            run.opened_at = None
        self.index = len(self.runs)

    # Answers

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
        self.answers[question_id] = text

    def answer(self, question_id: str) -> str:
        return self.answers.get(question_id, "")

    def record_drill(self, question_id: str, passed: bool, summary: str = "") -> None:
        """The judge's verdict on the kernel drill's submission (from a DrillSession)."""
        question = self.bank.questions[question_id]
        if question.kind != "coding":
            raise MockError(f"{question_id} is a {question.kind} question, not a kernel drill")
        self._section_of(question_id)
        self.drill_verdicts[question_id] = (passed, summary)

    # Self-scoring, once the mock is over

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
        # Grading loads sympy; only a report with an estimate pays for it.
        from gpuprep.estimate.grading import grade

        result = grade(question, text, self.bank)
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
                questions=tuple(self._question_result(q) for q in run.section.question_ids),
            )
            for run in self.runs
        )
        results = [q for s in sections for q in s.questions]
        weighted = [
            (q.score, self.bank.questions[q.question_id].minutes)
            for q in results
            if q.score is not None
        ]
        score = sum(s * m for s, m in weighted) / sum(m for _, m in weighted) if weighted else None
        weak_dimensions = sorted(
            (
                (self.template(q.question_id).title, name, level)
                for q in results
                for name, level in q.levels.items()
                if level <= 2
            ),
            key=lambda entry: (entry[2], entry[0], entry[1]),
        )
        return MockReport(
            self.plan,
            sections,
            score,
            self._study_next(results),
            tuple(dict.fromkeys(weak_dimensions)),
        )

    def _study_next(self, results: list[QuestionResult]) -> tuple[StudyNext, ...]:
        reasons: dict[str, list[tuple[str, str]]] = {}
        lowest: dict[str, float] = {}
        for q in results:
            found = []
            if q.verdict in ("wrong", "close", "invalid"):
                found.append(f"estimate {q.verdict}: {q.verdict_message}")
            elif q.verdict == "failed":
                found.append(
                    f"drill failed: {q.verdict_message}" if q.verdict_message else "drill failed"
                )
            elif q.verdict in ("unanswered", "not submitted"):
                found.append(q.verdict)
            elif q.kind != "coding" and not q.answer.strip():
                found.append("nothing typed")
            found += [f"red flag: {flag}" for flag in q.red_flags]
            if q.score is not None and q.score < SOLID_SCORE:
                found.append(f"self-scored {q.score:.1f}/4")
            if found and q.topic is not None:
                reasons.setdefault(q.topic, []).extend((q.question_id, r) for r in found)
                lowest[q.topic] = min(lowest.get(q.topic, 5.0), q.score or 0.0)
        ranked = sorted(reasons, key=lambda t: (-len(reasons[t]), lowest[t], t))
        return tuple(
            StudyNext(
                topic,
                self.bank.topics[topic].title if topic in self.bank.topics else topic,
                tuple(dict.fromkeys(qid for qid, _ in reasons[topic])),
                tuple(f"{qid}: {reason}" for qid, reason in reasons[topic]),
            )
            for topic in ranked
        )

    # Resuming

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to resume, as JSON: the time each section has used so far, not the
        moments (time while the app was not running is not counted)."""
        self.tick()
        now = self.clock()
        return {
            "plan": self.plan.to_json(),
            "index": self.index,
            "sections": [
                {
                    "used_seconds": run.elapsed(now).total_seconds(),
                    "closed": run.is_closed,
                    "time_up": run.time_up,
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
        session = cls(bank, MockPlan.from_json(snapshot["plan"]), clock=clock)
        now = clock()
        for run, saved in zip(session.runs, snapshot["sections"], strict=True):
            used = timedelta(seconds=saved["used_seconds"])
            if saved["closed"]:
                run.used, run.time_up = used, saved["time_up"]
            else:
                run.used_before = used
        session.answers = dict(snapshot["answers"])
        session.drill_verdicts = {q: (bool(v[0]), str(v[1])) for q, v in snapshot["drills"].items()}
        session.levels = {q: dict(v) for q, v in snapshot["levels"].items()}
        session.signals = {q: set(v) for q, v in snapshot["signals"].items()}
        session.red_flags = {q: set(v) for q, v in snapshot["red_flags"].items()}
        if snapshot["index"] >= 0:
            session._open(snapshot["index"], now)
        return session
