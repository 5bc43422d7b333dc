"""The end of a practice session: how it went, what was missed, and the session to redo those.

Accuracy is Stats' (`stats.succeeded`), taken on each question's first answer of the session:
a card that came back for a learning step and was right the second time was still missed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fsrs import Rating

from gpuprep.sessions.practice import PracticeFilter
from gpuprep.sessions.srs import RATINGS
from gpuprep.sessions.stats import succeeded
from gpuprep.wording import counted

if TYPE_CHECKING:
    from gpuprep.bank.question import Question
    from gpuprep.sessions.practice import PracticeSession


@dataclass(frozen=True)
class SessionSummary:
    """What the summary screen shows."""

    ratings: dict[Rating, int]
    """How many times each rating was given (a card back for a learning step counts again)."""
    questions: int
    """Questions rated at least once."""
    judged: int
    """Questions whose first answer can be judged right or wrong (see `stats.succeeded`)."""
    right: int
    """Questions right at the first answer."""
    missed: tuple[Question, ...]
    """Questions not right at the first answer (judged wrong, or given up on with Again), in the
    order they were asked."""
    left: int
    """Items not asked when the session ended (ended early: planned ones and learning steps)."""

    @property
    def accuracy(self) -> float | None:
        return self.right / self.judged if self.judged else None

    def review_missed(self) -> PracticeFilter | None:
        """A session of the missed questions, or None when none was missed."""
        if not self.missed:
            return None
        return PracticeFilter(
            questions=tuple(q.id for q in self.missed),
            label=f"the {counted(len(self.missed), 'question')} missed just now",
        )


def summarize(session: PracticeSession) -> SessionSummary:
    """How the session went, from the ratings given in it."""
    first: dict[str, bool | None] = {}
    asked: list[Question] = []
    for rated in session.rated:
        question = rated.item.question
        if question.id in first:
            continue
        went_well = succeeded(rated.attempt)
        if went_well is None and rated.rating == Rating.Again:
            went_well = False
        first[question.id] = went_well
        asked.append(question)
    ratings = {rating: sum(1 for r in session.rated if r.rating == rating) for rating in RATINGS}
    return SessionSummary(
        ratings=ratings,
        questions=len(asked),
        judged=sum(1 for q in asked if first[q.id] is not None),
        right=sum(1 for q in asked if first[q.id]),
        missed=tuple(q for q in asked if first[q.id] is False),
        left=session.left,
    )
