"""A mock interview's composition: which questions, in which sections, for how many minutes.

Composition follows the order real loops run in: warm-up concepts, an estimation, a debugging
scenario (with its artifact), a kernel drill (a coding question) and a design question. Each
section lasts as long as its questions' own `minutes` add up to; the sections that fit the
total are kept in the order the track values them (a kernel loop keeps its drill before its
design question, an inference loop the other way round), and what time is left is filled with
more warm-ups, estimates and scenarios. The same seed gives the same interview; without one,
each of the user's weak topics (from their history) gets a question where a section has one.
Without a CUDA GPU (the caller says; the plan probes no hardware) the kernel drill is drawn only
from questions a candidate can write in Triton, whose kernels the judge runs through Triton's
interpreter: a CUDA kernel (CUDA C through CuPy) cannot run at all there. So the same seed gives
the same interview on every machine with a GPU, and on every machine without one.
Running the composed loop is `gpuprep.sessions.mock`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from statistics import median_low
from typing import TYPE_CHECKING, Any

from gpuprep.sessions.clock import system_clock
from gpuprep.sessions.coding import needs_cuda_gpu
from gpuprep.sessions.practice import LEVEL_ORDER
from gpuprep.sessions.stats import progress

if TYPE_CHECKING:
    from fsrs import Card

    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question
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
            "kernel-coding-ii", "profiling", "debugging", "amd",
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
    easier = sorted(
        (name for name, r in LEVEL_ORDER.items() if r < rank), key=LEVEL_ORDER.__getitem__
    )
    return [{level}, *({name} for name in reversed(easier))]


def _tiers(
    bank: Bank, kind: str, track: str, level: str | None, *, cuda_gpu: bool
) -> list[list[Question]]:
    """The questions a section may ask, in tiers tried in turn: on the track at the level, on
    the track at easier levels, then the same off the track (for a section the track has
    nothing for, such as an inference loop's kernel drill, or one it has run out of). Without
    `cuda_gpu`, no question that needs one."""
    of_kind = sorted(
        (
            q
            for q in bank.questions.values()
            if q.kind == kind
            and q.topic not in NOT_IN_MOCKS
            and (cuda_gpu or not needs_cuda_gpu(q))
        ),
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
    cuda_gpu: bool = False,
) -> MockPlan:
    """Compose an interview of at most `minutes`, the same one for the same seed and weak topics.

    `cuda_gpu`: the interview runs where a CUDA kernel can (a GPU, or an interviewer's set that
    runs nothing); without it, the kernel drill asks for no CUDA kernel."""
    if minutes not in MOCK_MINUTES:
        raise MockError(f"a mock lasts {', '.join(map(str, MOCK_MINUTES))} minutes, not {minutes}")
    if track not in TRACKS:
        raise MockError(f"unknown track {track!r}; choose one of {', '.join(TRACKS)}")
    if level is not None and level not in LEVEL_ORDER:
        raise MockError(f"unknown level {level!r}; choose one of {', '.join(LEVEL_ORDER)}")
    tiers = {kind: _tiers(bank, kind, track, level, cuda_gpu=cuda_gpu) for kind in SECTION_ORDER}
    cuda_left_out = (
        []
        if cuda_gpu
        else [
            q.id
            for q in bank.questions.values()
            if needs_cuda_gpu(q) and q.topic not in NOT_IN_MOCKS
        ]
    )
    shortest = {
        kind: min(q.minutes for tier in kind_tiers for q in tier)
        for kind, kind_tiers in tiers.items()
        if kind_tiers
    }
    notes = [
        f"no {SECTION_TITLES[kind].lower()} section: the bank has no {kind} question"
        + (f" at {level} level or easier" if level else "")
        + (" that runs without a CUDA GPU" if kind == "coding" and cuda_left_out else "")
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
    if cuda_left_out and "coding" in kept:
        notes.append(
            f"{len(cuda_left_out)} CUDA coding question{'s' if len(cuda_left_out) != 1 else ''}"
            " left out of the kernel drill: no CUDA GPU here to run a CUDA kernel"
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
    cuda_gpu: bool = False,
) -> MockPlan:
    """The interview to run: with `seed`, exactly that one (history is ignored, so the same seed
    gives the same interview on any machine with a CUDA GPU, and on any without); without, a
    fresh seed, and each weak topic of `history` (cards, attempts) asked about where a section
    has a question on it that fits. `cuda_gpu`: whether this machine can run a CUDA kernel."""
    weak: tuple[str, ...] = ()
    if seed is None:
        seed = (entropy or random.SystemRandom()).randrange(2**31)
        if history is not None:
            cards, attempts = history
            weak = weak_topics(bank, cards, attempts, now or system_clock())
    return compose(
        bank,
        minutes=minutes,
        track=track,
        level=level,
        seed=seed,
        weak_topics=weak,
        cuda_gpu=cuda_gpu,
    )
