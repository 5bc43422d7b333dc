"""A practice session: the questions matching a filter, due ones first, then new ones.

The session owns the order, the variant each estimation question is asked with, the hints
shown, grading, and saving attempts and reviews to the store. Each item is shown through one
`QuestionView`, and its answer is graded against the solution that view showed. The session
knows nothing of screens: a TUI, a CLI or a test drives it the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from fsrs import Card, Rating, Scheduler

from gpuprep.estimate.grading import Grade
from gpuprep.estimate.variants import Variant, random_variant
from gpuprep.sessions.answers import AnswerPreview
from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.sessions.question_view import QuestionView, question_gpu
from gpuprep.sessions.srs import Outcome, new_card, outcomes, suggested_rating
from gpuprep.store.records import Attempt

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question
    from gpuprep.estimate.solve import Solution
    from gpuprep.store.database import Store

LEVEL_ORDER = {"junior": 0, "mid": 1, "senior": 2}


@dataclass(frozen=True)
class PracticeFilter:
    """Which questions a session draws from; None means any."""

    topic: str | None = None
    kind: str | None = None
    level: str | None = None
    due_only: bool = False
    """Only questions whose card is due (what `gpuprep drill` alone reviews)."""
    question: str | None = None
    """Exactly this question (one picked while browsing)."""
    questions: tuple[str, ...] = ()
    """Only these questions (a day of a prep plan)."""
    label: str | None = None
    """How to name the session instead of listing the filter ('Day 1 of Three days ...')."""

    def matches(self, question: Question) -> bool:
        return (
            (self.question is None or question.id == self.question)
            and (not self.questions or question.id in self.questions)
            and (self.topic is None or question.topic == self.topic)
            and (self.kind is None or question.kind == self.kind)
            and (self.level is None or question.level == self.level)
        )

    def describe(self) -> str:
        """'roofline · estimation · due' or 'everything'."""
        if self.label:
            return self.label
        parts = [p for p in (self.question, self.topic, self.kind, self.level) if p]
        if self.due_only:
            return " · ".join([*parts, "due"]) if parts else "due reviews"
        return " · ".join(parts) or "everything"


@dataclass
class PracticeItem:
    """One question of the session, with its card and (for estimation) its variant."""

    question: Question
    card: Card
    is_new: bool
    variant: Variant | None = None


def pick_variant(
    question: Question, bank: Bank, rng: random.Random, gpu: str | None = None
) -> Variant:
    """A random variant drawn by the estimate engine, its GPU picked by the rule every front end
    uses (:func:`question_gpu`): the preferred `gpu` wins when the question allows it."""
    drawn = random_variant(question, seed=rng.randrange(2**32), bank=bank)
    return Variant(
        question_gpu(question, bank, preferred=gpu, drawn=drawn.gpu) or drawn.gpu, drawn.params
    )


def variant_json(variant: Variant | None) -> dict[str, Any]:
    """How a variant is saved with an attempt."""
    return {"gpu": variant.gpu, "params": dict(variant.params)} if variant else {}


def plan_items(
    bank: Bank,
    cards: dict[str, Card],
    practice_filter: PracticeFilter,
    now: datetime,
    rng: random.Random,
    *,
    limit: int = 20,
    gpu: str | None = None,
) -> list[PracticeItem]:
    """The session's questions: due cards (most overdue first), then new questions, easiest first.

    When nothing is due or new but the filter matches questions (a topic drilled again the
    same day), those come back, soonest due first, so asking for a topic always gives one.
    """
    matching = [q for q in bank.questions.values() if practice_filter.matches(q)]
    due = sorted(
        (q for q in matching if q.id in cards and cards[q.id].due <= now),
        key=lambda q: cards[q.id].due,
    )
    new = sorted(
        (q for q in matching if q.id not in cards), key=lambda q: LEVEL_ORDER.get(q.level, 9)
    )
    chosen = due if practice_filter.due_only else due + new
    if practice_filter.questions and not practice_filter.due_only:
        # A plan's day asks for these questions, reviewed recently or not.
        chosen += sorted((q for q in matching if q not in chosen), key=lambda q: cards[q.id].due)
    if not chosen and not practice_filter.due_only:
        chosen = sorted(matching, key=lambda q: cards[q.id].due)
    items = []
    for question in chosen[:limit]:
        card = cards.get(question.id) or new_card(question.id, now)
        variant = pick_variant(question, bank, rng, gpu) if question.kind == "estimation" else None
        items.append(PracticeItem(question, card, question.id not in cards, variant))
    return items


class PracticeSession:
    """Practice over a filter: show a question, take hints, grade or reveal, rate, move on."""

    def __init__(
        self,
        bank: Bank,
        store: Store,
        practice_filter: PracticeFilter | None = None,
        *,
        clock: Clock = system_clock,
        seed: int | None = None,
        scheduler: Scheduler | None = None,
        limit: int = 20,
        gpu: str | None = None,
        open_book: bool = False,
    ) -> None:
        self.bank = bank
        #: Closed book (the default): an answer that reads the hardware table is marked so.
        self.open_book = open_book
        self.store = store
        self.filter = practice_filter or PracticeFilter()
        self.clock = clock
        self.scheduler = scheduler or Scheduler()
        self.rng = random.Random(seed)
        self.items = plan_items(
            bank, store.cards(), self.filter, clock(), self.rng, limit=limit, gpu=gpu
        )
        self.index = 0
        self.rated: list[tuple[PracticeItem, Rating]] = []
        self._begin_item()

    # The current item

    @property
    def current(self) -> PracticeItem | None:
        return self.items[self.index] if self.index < len(self.items) else None

    @property
    def finished(self) -> bool:
        return self.current is None

    @property
    def position(self) -> tuple[int, int]:
        """(1-based number of the current item, total)."""
        return min(self.index + 1, len(self.items)), len(self.items)

    def _begin_item(self) -> None:
        self.started_at = self.clock()
        self.hints_shown = 0
        self.attempt: Attempt | None = None
        self.grade: Grade | None = None
        self._outcomes: dict[Rating, Outcome] | None = None
        self._view: QuestionView | None = None

    def _item(self) -> PracticeItem:
        item = self.current
        if item is None:
            raise RuntimeError("the session is finished")
        return item

    def view(self) -> QuestionView:
        """The current question as it is shown, for its variant: built (and solved) once per item."""
        if self._view is None:
            item = self._item()
            self._view = QuestionView.for_variant(item.question, self.bank, item.variant)
        return self._view

    def solution(self) -> Solution:
        """The current estimation question worked out for its variant (what the view shows)."""
        return self.view().solution

    def preview_answer(self, text: str) -> AnswerPreview:
        """What the typed answer reads as, without saying whether it is right."""
        return self.view().preview(text)

    def next_hint(self) -> str | None:
        """The next hint (gentlest first), counted in the attempt; None when there are no more."""
        hints = self._item().question.hints
        if self.hints_shown >= len(hints):
            return None
        self.hints_shown += 1
        return hints[self.hints_shown - 1]

    # Answering

    def check_estimate(self, answer_text: str) -> Grade:
        """Grade an estimation answer against the solution shown, and save the attempt.

        An invalid answer (unparsable, or the wrong kind of unit) is graded and saved too:
        the user sees why, and may try again; the last graded answer is the one rated.
        """
        item = self._item()
        if item.question.kind != "estimation":
            raise ValueError(
                f"{item.question.id} is a {item.question.kind} question, not an estimation"
            )
        result = self.view().grade(answer_text, open_book=self.open_book)
        self.grade = result
        self._save_attempt(
            verdict=result.verdict,
            answer=answer_text,
            trap=result.trap,
            from_table=result.from_table,
        )
        return result

    def reveal(self) -> None:
        """The user has thought it through and shows the answer; saves the attempt."""
        item = self._item()
        if self.attempt is None or item.question.kind != "estimation":
            self._save_attempt(verdict="revealed", answer="")

    def _save_attempt(
        self, *, verdict: str, answer: str, trap: str | None = None, from_table: bool = False
    ) -> None:
        item = self._item()
        now = self.clock()
        attempt = Attempt(
            question_id=item.question.id,
            kind=item.question.kind,
            verdict=verdict,
            started_at=self.started_at,
            seconds_taken=(now - self.started_at).total_seconds(),
            answer=answer,
            variant=variant_json(item.variant),
            hints_used=self.hints_shown,
            trap=trap,
            from_table=from_table,
        )
        self.attempt = replace(attempt, id=self.store.record_attempt(attempt))
        self._outcomes = None

    @property
    def suggested_rating(self) -> Rating | None:
        """The rating the outcome suggests: from the verdict, or Again for an estimate given up on."""
        if self.grade is not None:
            return suggested_rating(self.grade)
        item = self.current
        if item is not None and item.question.kind == "estimation" and self.attempt is not None:
            return Rating.Again
        return None

    # Rating

    def outcomes(self) -> dict[Rating, Outcome]:
        """What each rating would do to the card, computed once so the preview is what is saved."""
        if self._outcomes is None:
            item = self._item()
            now = self.clock()
            duration_ms = int((now - self.started_at).total_seconds() * 1000)
            self._outcomes = outcomes(self.scheduler, item.card, now, duration_ms)
        return self._outcomes

    def rate(self, rating: Rating, signals_hit: tuple[int, ...] = ()) -> Outcome:
        """Save the rating (card, review log, attempt) in one write and move to the next item."""
        item = self._item()
        if self.attempt is None:
            self.reveal()
        assert self.attempt is not None
        outcome = self.outcomes()[rating]
        # Only ticks of signals this question showed count: estimation questions show none (the
        # grader rates them), and a tick left over from another question must not leak in.
        shown = 0 if item.question.kind == "estimation" else len(item.question.rubric.strong_signals)
        hit = tuple(sorted({index for index in signals_hit if 0 <= index < shown}))
        attempt = replace(self.attempt, signals_hit=hit, hints_used=self.hints_shown)
        self.store.save_review(item.question.id, outcome.card, outcome.log, attempt=attempt)
        self.rated.append((item, rating))
        self.index += 1
        self._begin_item()
        return outcome

    def skip(self) -> None:
        """Leave the current item unrated (any attempt already saved stays)."""
        self._item()
        self.index += 1
        self._begin_item()
