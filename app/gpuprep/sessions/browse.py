"""Finding questions: a filter over topic, kind, level, tags and words, parsed from one search line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, get_args

from gpuprep.bank.question import Kind, Level, Question

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank


@dataclass(frozen=True)
class QuestionQuery:
    """What the user asked for; empty fields match everything."""

    topic: str | None = None
    kinds: frozenset[str] = frozenset()
    levels: frozenset[str] = frozenset()
    tags: frozenset[str] = frozenset()
    words: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str, *, topic: str | None = None) -> QuestionQuery:
        """'kind:concept level:mid tag:hbm warp' -> a query; unknown prefixes are plain words."""
        kinds, levels, tags, words = set(), set(), set(), []
        for token in text.lower().split():
            prefix, _, value = token.partition(":")
            if value and prefix == "kind":
                kinds.add(value)
            elif value and prefix == "level":
                levels.add(value)
            elif value and prefix == "tag":
                tags.add(value)
            else:
                words.append(token)
        return cls(topic, frozenset(kinds), frozenset(levels), frozenset(tags), tuple(words))

    def matches(self, question: Question) -> bool:
        if self.topic is not None and question.topic != self.topic:
            return False
        if self.kinds and question.kind not in self.kinds:
            return False
        if self.levels and question.level not in self.levels:
            return False
        if self.tags and not self.tags <= {t.lower() for t in question.tags}:
            return False
        haystack = " ".join([question.id, question.title, question.prompt, *question.tags]).lower()
        return all(word in haystack for word in self.words)


def no_match_message(query: QuestionQuery) -> str:
    """Why a search found nothing, naming a kind or level that no question can have."""
    message = "No question matches this search."
    for field, asked, known in (
        ("kind", query.kinds, get_args(Kind)),
        ("level", query.levels, get_args(Level)),
    ):
        unknown = sorted(asked - set(known))
        if unknown:
            message += f" There is no {field} {', '.join(unknown)}: try {', '.join(known)}."
    return message


def find_questions(bank: Bank, query: QuestionQuery) -> list[Question]:
    """The matching questions in bank order."""
    return [q for q in bank.questions.values() if query.matches(q)]


#: Orders the Browse list offers, in the order `o` cycles through them.
SORTS = ("bank", "due", "seen", "level", "title", "id")
_LEVEL_ORDER = {level: index for index, level in enumerate(get_args(Level))}


@dataclass(frozen=True)
class BrowseRow:
    """One question as Browse lists it, with the user's progress on it."""

    question: Question
    seen: int
    """How many times it was rated."""
    due: datetime | None
    """When its card is due; None: never rated (new)."""

    def due_text(self, now: datetime) -> str:
        """'new', 'now', or how long until it is due ('in 3 d', 'in 5 h')."""
        if self.due is None:
            return "new"
        left = self.due - now
        if left <= timedelta(0):
            return "now"
        if left < timedelta(hours=1):
            return f"in {max(1, int(left.total_seconds() // 60))} min"
        if left < timedelta(days=1):
            return f"in {int(left.total_seconds() // 3600)} h"
        return f"in {left.days} d"


def browse_rows(
    bank: Bank,
    query: QuestionQuery,
    cards: Mapping[str, datetime],
    seen: Mapping[str, int],
    sort: str = "bank",
) -> list[BrowseRow]:
    """The matching questions with their progress, in the order asked for.

    `cards` maps a question id to its card's due moment; `seen` to how often it was rated.
    'due' puts the most overdue first and new questions last."""
    if sort not in SORTS:
        raise ValueError(f"unknown sort {sort!r}; choose one of {', '.join(SORTS)}")
    rows = [BrowseRow(q, seen.get(q.id, 0), cards.get(q.id)) for q in find_questions(bank, query)]
    far = datetime.max.replace(tzinfo=UTC)
    keys: dict[str, Callable[[BrowseRow], Any]] = {
        "bank": lambda row: 0,
        "due": lambda row: (row.due is None, row.due or far),
        "seen": lambda row: -row.seen,
        "level": lambda row: _LEVEL_ORDER.get(row.question.level, 99),
        "title": lambda row: row.question.title.lower(),
        "id": lambda row: row.question.id,
    }
    return sorted(rows, key=keys[sort])  # stable: ties keep the bank's order
