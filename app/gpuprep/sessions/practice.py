"""A practice session: the questions matching a filter, due ones first, then new ones.

The session owns the order, the variant each estimation question is asked with, the hints
shown, grading, and saving attempts and reviews to the store. Each item is shown through one
`QuestionView`, and its answer is graded against the solution that view showed. The session
knows nothing of screens: a TUI, a CLI or a test drives it the same way.

As in Anki, a card rated onto a learning step (Again, or a new card's first Good) comes back
before the session ends, once its step is due or when nothing else is left; the last ratings
can be undone, each as one store write.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from fsrs import Card, Rating, Scheduler

from gpuprep.estimate.grading import Grade
from gpuprep.estimate.variants import Variant, random_variant
from gpuprep.sessions.answers import AnswerPreview
from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.sessions.question_view import QuestionView, question_gpu
from gpuprep.sessions.queues import LEVEL_ORDER as LEVEL_ORDER
from gpuprep.sessions.queues import new_cards_left, todays_cards
from gpuprep.sessions.srs import Outcome, in_learning, new_card, outcomes, suggested_rating
from gpuprep.settings import NEW_PER_DAY
from gpuprep.store.records import Attempt

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question
    from gpuprep.estimate.solve import Solution
    from gpuprep.store.database import Store


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
    """The question has no card in the store yet (never rated)."""
    variant: Variant | None = None

    @property
    def queue(self) -> str:
        """'new', 'learning' (at a learning step) or 'review': what the user is told it is."""
        if self.is_new:
            return "new"
        return "learning" if in_learning(self.card) else "review"


@dataclass(frozen=True)
class RatedItem:
    """A rating given in this session, with the attempt it rated."""

    item: PracticeItem
    rating: Rating
    attempt: Attempt


@dataclass
class _BeforeRating:
    """The session as it was just before a rating, and the review that rating saved."""

    item: PracticeItem
    attempt: Attempt
    log_id: int
    signals_hit: tuple[int, ...]
    started_at: datetime
    hints_shown: int
    grade: Grade | None
    outcomes: dict[Rating, Outcome] | None
    view: QuestionView | None
    queue: list[PracticeItem] = field(default_factory=list)
    learning: list[PracticeItem] = field(default_factory=list)
    done: int = 0


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
    new_left: int | None = None,
    gpu: str | None = None,
) -> tuple[list[PracticeItem], int]:
    """The session's questions, and how many new ones the daily cap held back.

    Today's due cards (`queues.todays_cards`, what Home counts) most overdue first, then new
    questions, easiest first, as many as `new_left` allows (None: no cap). Questions picked by
    name (one from Browse, a plan's day) are asked whatever the cap. When nothing is due or new
    but the filter matches questions already seen (a topic drilled again the same day), those
    come back, soonest due first, so asking for a topic always gives one.
    """
    matching = [q for q in bank.questions.values() if practice_filter.matches(q)]
    by_name = practice_filter.question is not None or bool(practice_filter.questions)
    today = todays_cards(matching, cards, now, new_left=None if by_name else new_left)
    chosen = list(today.due) if practice_filter.due_only else [*today.due, *today.new]
    if practice_filter.questions and not practice_filter.due_only:
        # A plan's day asks for these questions, reviewed recently or not.
        chosen += sorted((q for q in matching if q not in chosen), key=lambda q: cards[q.id].due)
    if not chosen and not practice_filter.due_only and not today.held_back:
        chosen = sorted(matching, key=lambda q: cards[q.id].due)
    held_back = 0 if practice_filter.due_only else today.held_back
    items = []
    for question in chosen:
        card = cards.get(question.id) or new_card(question.id, now)
        variant = pick_variant(question, bank, rng, gpu) if question.kind == "estimation" else None
        items.append(PracticeItem(question, card, question.id not in cards, variant))
    return items, held_back


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
        gpu: str | None = None,
        open_book: bool = False,
        new_per_day: int | None = NEW_PER_DAY,
    ) -> None:
        self.bank = bank
        #: Closed book (the default): an answer that reads the hardware table is marked so.
        self.open_book = open_book
        self.store = store
        self.filter = practice_filter or PracticeFilter()
        self.clock = clock
        self.scheduler = scheduler or Scheduler()
        self.rng = random.Random(seed)
        self.gpu = gpu
        now = clock()
        self.items, self.new_held_back = plan_items(
            bank,
            store.cards(),
            self.filter,
            now,
            self.rng,
            new_left=new_cards_left(store, now, new_per_day),
            gpu=gpu,
        )
        """The questions planned at the start (learning steps add repeats as the session goes)."""
        self.new_per_day = new_per_day
        self.rated: list[RatedItem] = []
        self.undone_signals: tuple[int, ...] = ()
        """The ticks the last undone rating had, for the screen to show again."""
        self._queue = list(self.items)
        self._learning: list[PracticeItem] = []
        self._undo: list[_BeforeRating] = []
        self._done = 0
        self._ended = False
        self._current: PracticeItem | None = None
        self._advance()

    # The current item

    @property
    def current(self) -> PracticeItem | None:
        return None if self._ended else self._current

    @property
    def finished(self) -> bool:
        return self.current is None

    @property
    def position(self) -> tuple[int, int]:
        """(1-based number of the current item, total so far): a card back for a learning step
        adds one to the total."""
        if self.finished:
            return self._done, self._done
        left = 1 + len(self._queue) + len(self._learning)
        return self._done + 1, self._done + left

    @property
    def in_learning(self) -> int:
        """Items rated onto a learning step that come back before the session ends."""
        return len(self._learning)

    @property
    def left(self) -> int:
        """Items still to ask: the current one, the planned ones after it and learning steps."""
        return (self._current is not None) + len(self._queue) + len(self._learning)

    def _advance(self) -> None:
        """Move to the next item: a learning step that is due, else the next planned question,
        else the learning step due soonest (early, rather than make the user wait minutes)."""
        now = self.clock()
        ready = [item for item in self._learning if item.card.due <= now]
        if ready or not self._queue:
            upcoming = min(ready or self._learning, key=lambda i: i.card.due, default=None)
            if upcoming is not None:
                self._learning.remove(upcoming)
            self._current = upcoming
        else:
            self._current = self._queue.pop(0)
        self._begin_item()

    def _begin_item(self) -> None:
        self.started_at = self.clock()
        self.hints_shown = 0
        self.attempt: Attempt | None = None
        self.grade: Grade | None = None
        self._outcomes: dict[Rating, Outcome] | None = None
        self._view: QuestionView | None = None
        self.undone_signals = ()

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
        """Save the rating (card, review log, attempt) in one write and move to the next item;
        a card left at a learning step comes back later in the session."""
        item = self._item()
        if self.attempt is None:
            self.reveal()
        assert self.attempt is not None
        outcome = self.outcomes()[rating]
        # Only ticks of signals this question showed count: estimation questions show none (the
        # grader rates them), and a tick left over from another question must not leak in.
        shown = (
            0 if item.question.kind == "estimation" else len(item.question.rubric.strong_signals)
        )
        hit = tuple(sorted({index for index in signals_hit if 0 <= index < shown}))
        attempt = replace(self.attempt, signals_hit=hit, hints_used=self.hints_shown)
        log_id = self.store.save_review(
            item.question.id, outcome.card, outcome.log, attempt=attempt
        )
        self._undo.append(
            _BeforeRating(
                item,
                self.attempt,
                log_id,
                hit,
                self.started_at,
                self.hints_shown,
                self.grade,
                self._outcomes,
                self._view,
                list(self._queue),
                list(self._learning),
                self._done,
            )
        )
        self.rated.append(RatedItem(item, rating, replace(attempt, rating=int(rating))))
        self._done += 1
        if in_learning(outcome.card):
            self._learning.append(self._again(item, outcome.card))
        self._advance()
        return outcome

    def _again(self, item: PracticeItem, card: Card) -> PracticeItem:
        """The item asked again at its next learning step (an estimate with new numbers)."""
        question = item.question
        variant = (
            pick_variant(question, self.bank, self.rng, self.gpu)
            if question.kind == "estimation"
            else None
        )
        return PracticeItem(question, card, False, variant)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> PracticeItem:
        """Take back the last rating: the card as it was, its review log gone, the attempt
        unrated (one store write), and the item current again, answered and waiting for a rating."""
        if not self._undo:
            raise RuntimeError("no rating to undo in this session")
        before = self._undo.pop()
        item = before.item
        self.store.undo_review(
            item.question.id,
            None if item.is_new else item.card,
            before.log_id,
            attempt_before=before.attempt,
        )
        self.rated.pop()
        self._queue, self._learning, self._done = before.queue, before.learning, before.done
        self._ended = False
        self._current = item
        self.started_at, self.hints_shown = before.started_at, before.hints_shown
        self.attempt, self.grade = before.attempt, before.grade
        self._outcomes, self._view = before.outcomes, before.view
        self.undone_signals = before.signals_hit
        return item

    def skip(self) -> None:
        """Leave the current item unrated (any attempt already saved stays)."""
        self._item()
        self._done += 1
        self._advance()

    def end(self) -> None:
        """Stop here (the rest is left for another session); undo still takes back a rating."""
        self._ended = True
