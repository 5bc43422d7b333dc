"""What the store holds, as plain dataclasses (no SQL, no UI)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Attempt:
    """One try at a question: what was asked, what was answered, how it went."""

    question_id: str
    kind: str
    verdict: str
    """correct | close | wrong | invalid for estimation; the self-rating's name otherwise."""
    started_at: datetime
    seconds_taken: float
    answer: str = ""
    variant: dict[str, Any] = field(default_factory=dict)
    """The GPU and parameter values the question was asked with."""
    rating: int | None = None
    """The spaced-repetition rating given afterwards (1 Again .. 4 Easy), if any."""
    signals_hit: tuple[int, ...] = ()
    """Indices of the rubric's strong signals the user said they hit."""
    hints_used: int = 0
    id: int | None = None
    trap: str | None = None
    """The trap an estimation answer fell into (its name), if any."""
    from_table: bool = False
    """The estimation answer named a hardware figure instead of recalling it (closed book)."""


@dataclass(frozen=True)
class DrillResult:
    """One submission of a kernel drill, as the harness reported it."""

    drill_id: str
    language: str
    submitted_at: datetime
    passed: bool
    summary: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
