"""Messages the screens and widgets post, as dataclasses."""

from __future__ import annotations

from dataclasses import dataclass

from fsrs import Rating
from textual.message import Message

from gpuprep.sessions.practice import PracticeFilter


@dataclass
class StartPractice(Message):
    """Open a practice session over a filter (from home, browse or the command palette)."""

    filter: PracticeFilter


@dataclass
class RatingChosen(Message):
    """The user picked a spaced-repetition rating for the current card."""

    rating: Rating


@dataclass
class ProgressChanged(Message):
    """Something was saved to the store: screens showing progress should refresh."""


@dataclass
class LevelPicked(Message):
    """The interviewer gave a dimension of a question's rubric a level, 1-4 (None clears it)."""

    dimension: str
    level: int | None
