"""Finding questions: a filter over topic, kind, level, tags and words, parsed from one search line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, get_args

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
