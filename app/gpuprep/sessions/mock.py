"""A mock interview: the loop composed, its sections timed, the answers self-scored, the report.

Composition follows the order real loops run in: warm-up concepts, an estimation, a debugging
scenario (with its artifact), a kernel drill (a coding question) and a design question. Each
section lasts as long as its questions' own `minutes` add up to; the sections that fit the
total are kept in the order the track values them (a kernel loop keeps its drill before its
design question, an inference loop the other way round), and what time is left is filled with
more warm-ups, estimates and scenarios. The same seed gives the same interview; without one,
each of the user's weak topics (from their history) gets a question where a section has one.

The session knows nothing of screens: it is driven through an injected clock, so a test (or a
TUI at a scaled clock) times sections out by moving the clock, and what was typed is kept when
a section closes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median_low
from typing import TYPE_CHECKING, Any

from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.sessions.practice import LEVEL_ORDER
from gpuprep.sessions.stats import progress

if TYPE_CHECKING:
    from fsrs import Card

    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question
    from gpuprep.bank.rubric_template import RubricTemplate
    from gpuprep.store.records import Attempt

#: Lengths a mock may have, in minutes.
MOCK_MINUTES: tuple[int, ...] = (45, 60, 90)
TRACKS: tuple[str, ...] = ("kernel", "inference", "training", "general")

#: The sections, in the order an interview runs them: (question kind, title).
SECTION_ORDER: tuple[str, ...] = ("concept", "estimation", "debugging", "coding", "design")
SECTION_TITLES: dict[str, str] = {
    "concept": "Warm-up concepts",
    "estimation": "Estimation",
    "debugging": "Debugging scenario",
    "coding": "Kernel drill",
    "design": "Design",
}
#: Which sections a track keeps first when the total cannot hold all five.
TRACK_PRIORITY: dict[str, tuple[str, ...]] = {
    "kernel": ("coding", "debugging", "estimation", "concept", "design"),
    "inference": ("design", "estimation", "debugging", "concept", "coding"),
    "training": ("design", "estimation", "debugging", "concept", "coding"),
    "general": ("estimation", "debugging", "coding", "concept", "design"),
}
#: How the time left once every kept section has its question is filled, in turn, and how many
#: questions a section may hold at most (one more each in a 90-minute loop; a loop without its
#: design question may hold a second drill instead).
FILL_ORDER: tuple[str, ...] = ("estimation", "concept", "debugging", "coding")
SECTION_CAP: dict[str, int] = {
    "concept": 3,
    "estimation": 3,
    "debugging": 2,
    "coding": 1,
    "design": 1,
}


def section_cap(kind: str, minutes: int, kept: list[str]) -> int:
    """How many questions a section may hold in a loop of `minutes` with the `kept` sections."""
    if kind == "coding":
        return 1 if "design" in kept else 2
    if kind == "design":
        return 1
    return SECTION_CAP[kind] + (1 if minutes >= 90 else 0)


#: Topics each track draws from; a question is on a track when its topic is listed or one of
#: its tags is. `general` is every topic but the behavioural one. A section with nothing on the
#: track (an inference loop's kernel drill) draws from the whole bank.
TRACK_TOPICS: dict[str, frozenset[str]] = {
    "kernel": frozenset(
        {
            "roofline", "memory-hierarchy", "latency-hiding", "coalescing", "shared-memory",
            "warps", "atomics-sync", "tensor-cores", "hopper-blackwell", "triton", "matmul",
            "flash-attention", "scan", "layernorm", "kernel-patterns", "kernel-coding",
            "profiling", "debugging", "amd",
        }
    ),
    "inference": frozenset(
        {
            "inference", "quantization", "flash-attention", "roofline", "memory-hierarchy",
            "streams", "host-device", "benchmarking", "profiling",
        }
    ),
    "training": frozenset(
        {
            "training", "distributed", "tensor-cores", "matmul", "streams", "host-device",
            "benchmarking", "profiling",
        }
    ),
}  # fmt: skip
TRACK_TAGS: dict[str, frozenset[str]] = {
    "kernel": frozenset(),
    "inference": frozenset({"inference", "decode", "serving", "kv-cache"}),
    "training": frozenset({"training", "data-parallel", "ddp", "fsdp", "zero", "mfu"}),
}
#: Behavioural questions are not part of the technical loop.
NOT_IN_MOCKS: frozenset[str] = frozenset({"experience"})
#: A topic is weak below this accuracy (over at least two judged attempts).
WEAK_ACCURACY = 0.7
#: How much less often a question is drawn when the loop has asked about its topic already.
REPEAT_TOPIC_WEIGHT = 0.25


class MockError(Exception):
    """The mock cannot be composed or driven as asked; the message says why."""


def on_track(question: Question, track: str) -> bool:
    """Whether a question belongs to a track's loop."""
    if question.topic in NOT_IN_MOCKS:
        return False
    if track == "general":
        return True
    return question.topic in TRACK_TOPICS[track] or bool(set(question.tags) & TRACK_TAGS[track])


# --- Composition ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MockSection:
    """One section of the interview: its questions and the minutes they are given."""

    kind: str
    """The question kind it asks (concept for the warm-up)."""
    title: str
    question_ids: tuple[str, ...]
    minutes: int
    """The sum of its questions' own `minutes`."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "title": self.title,
            "minutes": self.minutes,
            "question_ids": list(self.question_ids),
        }


@dataclass(frozen=True)
class MockPlan:
    """A composed interview, before (or without) running it."""

    minutes: int
    """The length asked for; the sections add up to at most this."""
    track: str
    level: str | None
    seed: int
    weak_topics: tuple[str, ...]
    """Topics each given a question where one fits (from the user's history; none when a seed
    was given)."""
    sections: tuple[MockSection, ...]
    notes: tuple[str, ...] = ()
    """Why a section was left out, in words."""

    @property
    def total_minutes(self) -> int:
        return sum(section.minutes for section in self.sections)

    @property
    def question_ids(self) -> tuple[str, ...]:
        return tuple(qid for section in self.sections for qid in section.question_ids)

    def to_json(self) -> dict[str, Any]:
        return {
            "minutes": self.minutes,
            "total_minutes": self.total_minutes,
            "track": self.track,
            "level": self.level,
            "seed": self.seed,
            "weak_topics": list(self.weak_topics),
            "notes": list(self.notes),
            "sections": [section.to_json() for section in self.sections],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MockPlan:
        return cls(
            minutes=data["minutes"],
            track=data["track"],
            level=data["level"],
            seed=data["seed"],
            weak_topics=tuple(data["weak_topics"]),
            notes=tuple(data["notes"]),
            sections=tuple(
                MockSection(s["kind"], s["title"], tuple(s["question_ids"]), s["minutes"])
                for s in data["sections"]
            ),
        )


def _level_tiers(level: str | None) -> list[set[str] | None]:
    """Levels to draw from, best first: the level asked for, then each easier one (a junior
    loop never gets a senior question); None means any level."""
    if level is None:
        return [None]
    rank = LEVEL_ORDER[level]
    easier = sorted((name for name, r in LEVEL_ORDER.items() if r < rank), key=LEVEL_ORDER.get)
    return [{level}, *({name} for name in reversed(easier))]


def _tiers(bank: Bank, kind: str, track: str, level: str | None) -> list[list[Question]]:
    """The questions a section may ask, in tiers tried in turn: on the track at the level, on
    the track at easier levels, then the same off the track (for a section the track has
    nothing for, such as an inference loop's kernel drill, or one it has run out of)."""
    of_kind = sorted(
        (q for q in bank.questions.values() if q.kind == kind and q.topic not in NOT_IN_MOCKS),
        key=lambda q: q.id,
    )
    tiers = []
    for on in (True, False):
        for levels in _level_tiers(level):
            tier = [
                q
                for q in of_kind
                if on_track(q, track) == on and (levels is None or q.level in levels)
            ]
            if tier:
                tiers.append(tier)
    return tiers


class _Drawer:
    """Seeded, weighted drawing of questions without repeats."""

    def __init__(self, rng: random.Random, weak_topics: tuple[str, ...]) -> None:
        self.rng = rng
        self.weak = set(weak_topics)
        self.chosen: set[str] = set()
        self.topics_used: set[str | None] = set()

    def draw(self, tiers: list[list[Question]], limit: int) -> Question | None:
        """One question of at most `limit` minutes from the first tier that has one."""
        for tier in tiers:
            fitting = [q for q in tier if q.minutes <= limit and q.id not in self.chosen]
            if not fitting:
                continue
            # A weak topic not asked about yet takes the draw whenever it has a question here.
            weak = [q for q in fitting if q.topic in self.weak and q.topic not in self.topics_used]
            if weak:
                fitting = weak
            weights = [REPEAT_TOPIC_WEIGHT if q.topic in self.topics_used else 1.0 for q in fitting]
            question = self.rng.choices(fitting, weights=weights)[0]
            self.chosen.add(question.id)
            self.topics_used.add(question.topic)
            return question
        return None


def compose(
    bank: Bank,
    *,
    minutes: int = 45,
    track: str = "general",
    level: str | None = None,
    seed: int,
    weak_topics: tuple[str, ...] = (),
) -> MockPlan:
    """Compose an interview of at most `minutes`, the same one for the same seed and weak topics."""
    if minutes not in MOCK_MINUTES:
        raise MockError(f"a mock lasts {', '.join(map(str, MOCK_MINUTES))} minutes, not {minutes}")
    if track not in TRACKS:
        raise MockError(f"unknown track {track!r}; choose one of {', '.join(TRACKS)}")
    if level is not None and level not in LEVEL_ORDER:
        raise MockError(f"unknown level {level!r}; choose one of {', '.join(LEVEL_ORDER)}")
    tiers = {kind: _tiers(bank, kind, track, level) for kind in SECTION_ORDER}
    shortest = {
        kind: min(q.minutes for tier in kind_tiers for q in tier)
        for kind, kind_tiers in tiers.items()
        if kind_tiers
    }
    notes = [
        f"no {SECTION_TITLES[kind].lower()} section: the bank has no {kind} question"
        + (f" at {level} level or easier" if level else "")
        for kind in SECTION_ORDER
        if kind not in shortest
    ]
    kept: list[str] = []
    for kind in TRACK_PRIORITY[track]:
        if kind not in shortest:
            continue
        if sum(shortest[k] for k in kept) + shortest[kind] <= minutes:
            kept.append(kind)
        else:
            notes.append(
                f"no {SECTION_TITLES[kind].lower()} section: its shortest question "
                f"({shortest[kind]} min) does not fit a {minutes}-minute {track} loop "
                "beside the sections that come first"
            )
    # A section's typical length: the median of the questions it would draw first.
    typical = {kind: median_low(q.minutes for q in tiers[kind][0]) for kind in kept}
    drawer = _Drawer(random.Random(seed), weak_topics)
    picked: dict[str, list[Question]] = {kind: [] for kind in kept}
    budget = minutes
    # The longest sections draw first, each leaving the sections after it their typical length
    # when it can (a 30-minute drill does not squeeze the warm-up to its shortest question), and
    # at least their shortest.
    waiting = sorted(kept, key=lambda k: (-shortest[k], SECTION_ORDER.index(k)))
    while waiting:
        kind = waiting.pop(0)
        at_most = budget - sum(shortest[k] for k in waiting)
        roomy = budget - sum(typical[k] for k in waiting)
        question = drawer.draw(tiers[kind], min(at_most, max(roomy, shortest[kind])))
        if question is None:  # cannot happen: the shortest question always fits
            raise MockError(f"no {kind} question fits {at_most} minutes")
        picked[kind].append(question)
        budget -= question.minutes
    growing = [kind for kind in FILL_ORDER if kind in kept]
    while growing:
        for kind in list(growing):
            question = None
            if len(picked[kind]) < section_cap(kind, minutes, kept):
                question = drawer.draw(tiers[kind], budget)
            if question is None:
                growing.remove(kind)
                continue
            picked[kind].append(question)
            budget -= question.minutes
    if budget > 10:
        notes.append(
            f"{minutes - budget} of {minutes} minutes planned: the bank has too few "
            + (f"{level} " if level else "")
            + f"{track} questions to fill the rest"
        )
    sections = tuple(
        MockSection(
            kind,
            SECTION_TITLES[kind],
            tuple(q.id for q in picked[kind]),
            sum(q.minutes for q in picked[kind]),
        )
        for kind in SECTION_ORDER
        if kind in picked
    )
    return MockPlan(minutes, track, level, seed, tuple(weak_topics), sections, tuple(notes))


def weak_topics(
    bank: Bank, cards: dict[str, Card], attempts: list[Attempt], now: datetime
) -> tuple[str, ...]:
    """The user's weakest topics as the home screen ranks them (lowest accuracy among those tried
    at least twice), keeping only those below :data:`WEAK_ACCURACY`."""
    return tuple(
        topic.topic
        for topic in progress(bank, cards, attempts, now).weakest()
        if (topic.accuracy or 0.0) < WEAK_ACCURACY
    )


def choose_mock(
    bank: Bank,
    *,
    minutes: int = 45,
    track: str = "general",
    level: str | None = None,
    seed: int | None = None,
    history: tuple[dict[str, Card], list[Attempt]] | None = None,
    now: datetime | None = None,
    entropy: random.Random | None = None,
) -> MockPlan:
    """The interview to run: with `seed`, exactly that one (history is ignored, so the same seed
    gives the same interview anywhere); without, a fresh seed, and each weak topic of `history`
    (cards, attempts) asked about where a section has a question on it that fits."""
    weak: tuple[str, ...] = ()
    if seed is None:
        seed = (entropy or random.SystemRandom()).randrange(2**31)
        if history is not None:
            cards, attempts = history
            weak = weak_topics(bank, cards, attempts, now or system_clock())
    return compose(bank, minutes=minutes, track=track, level=level, seed=seed, weak_topics=weak)


# --- Running it -----------------------------------------------------------------------------


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
