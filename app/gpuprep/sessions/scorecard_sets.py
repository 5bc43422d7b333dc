"""The interviewer's library: rubrics found by filter, and interview sets assembled or generated.

A set is assembled question by question, or generated from a seed by the mock interview's
composition (`sessions.mock_plan.compose`), so "set 42, 45 minutes, kernel track" is the same
questions on every machine. Sets are saved by name in the store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.sessions.mock_plan import MockError, compose
from gpuprep.store.scorecards import InterviewSet, ScorecardStore

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question

KIND_ORDER = ("concept", "estimation", "debugging", "design", "coding")


class InterviewSetError(ValueError):
    """A set that cannot be saved or generated; the message says why."""


def find_rubrics(
    bank: Bank,
    *,
    text: str = "",
    topic: str | None = None,
    kind: str | None = None,
    level: str | None = None,
) -> list[Question]:
    """Questions matching every filter, by kind (interview order), topic and id.

    `text` matches, case-insensitively, anywhere in the id, title or topic; several words must
    all match."""
    words = text.lower().split()
    found = [
        q
        for q in bank.questions.values()
        if (topic is None or q.topic == topic)
        and (kind is None or q.kind == kind)
        and (level is None or q.level == level)
        and all(w in f"{q.id} {q.title} {q.topic or ''}".lower() for w in words)
    ]
    return sorted(found, key=lambda q: (KIND_ORDER.index(q.kind), q.topic or "", q.id))


def generated_set(
    bank: Bank,
    seed: int,
    *,
    minutes: int = 45,
    track: str = "general",
    level: str | None = None,
) -> tuple[str, ...]:
    """The questions of the mock interview composed from `seed` (the same on every machine)."""
    try:
        # An interviewer's set runs no kernel: CUDA questions stay in on every machine.
        plan = compose(bank, minutes=minutes, track=track, level=level, seed=seed, cuda_gpu=True)
    except MockError as error:
        raise InterviewSetError(str(error)) from None
    return plan.question_ids


def save_set(
    store: ScorecardStore,
    bank: Bank,
    name: str,
    question_ids: tuple[str, ...],
    *,
    seed: int | None = None,
    clock: Clock = system_clock,
) -> InterviewSet:
    """Save a set under `name` (replacing one of that name) and return it."""
    name = name.strip()
    if not name:
        raise InterviewSetError("a set needs a name")
    if not question_ids:
        raise InterviewSetError("the set is empty: add questions first (a)")
    unknown = [qid for qid in question_ids if qid not in bank.questions]
    if unknown:
        raise InterviewSetError(f"unknown question(s): {', '.join(unknown)}")
    saved = InterviewSet(name, tuple(dict.fromkeys(question_ids)), clock(), seed)
    store.save_set(saved)
    return saved


def set_minutes(bank: Bank, question_ids: tuple[str, ...]) -> int:
    """How long the set takes, from the questions' own estimates."""
    return sum(bank.questions[qid].minutes for qid in question_ids if qid in bank.questions)
