"""Today's cards: what is due (learning steps and reviews) and the new questions the cap allows.

The home screen counts these lists and a practice session asks from them, so the numbers on Home
are the session a key opens. A day is a UTC day, as everywhere else in the app.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from fsrs import Card

from gpuprep.sessions.srs import due_today, in_learning, start_of_day

if TYPE_CHECKING:
    from gpuprep.bank.question import Question
    from gpuprep.store.database import Store

LEVEL_ORDER = {"junior": 0, "mid": 1, "senior": 2}


@dataclass(frozen=True)
class TodaysCards:
    """The questions of one filter that today's practice holds."""

    due: tuple[Question, ...]
    """Cards due today (at a learning step or up for review), most overdue first."""
    learn: int
    """How many of `due` are at a learning step (new, or relearning after Again)."""
    new: tuple[Question, ...]
    """Questions never rated, easiest level first, as many as the daily cap still allows."""
    held_back: int
    """New questions the daily cap leaves for another day."""

    @property
    def review(self) -> int:
        """How many of `due` are reviews (graduated cards whose interval has come round)."""
        return len(self.due) - self.learn


def todays_cards(
    questions: Iterable[Question],
    cards: dict[str, Card],
    now: datetime,
    *,
    new_left: int | None = None,
) -> TodaysCards:
    """Sort `questions` into today's due cards and new ones; `new_left` None means no cap."""
    questions = list(questions)
    due = sorted(
        (q for q in questions if q.id in cards and due_today(cards[q.id], now)),
        key=lambda q: cards[q.id].due,
    )
    unseen = sorted(
        (q for q in questions if q.id not in cards), key=lambda q: LEVEL_ORDER.get(q.level, 9)
    )
    new = unseen if new_left is None else unseen[: max(new_left, 0)]
    return TodaysCards(
        due=tuple(due),
        learn=sum(1 for q in due if in_learning(cards[q.id])),
        new=tuple(new),
        held_back=len(unseen) - len(new),
    )


def new_cards_left(store: Store, now: datetime, new_per_day: int | None) -> int | None:
    """How many new questions today's cap still allows (None: no cap).

    A question counts as introduced on the day of its first rating, so undoing that rating
    gives its place back."""
    if new_per_day is None:
        return None
    return max(0, new_per_day - len(store.first_reviewed_since(start_of_day(now))))
