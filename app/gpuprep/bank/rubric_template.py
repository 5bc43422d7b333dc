"""Rubric templates: the model of `rubrics/<kind>.yaml`, how an interviewer scores a kind."""

from __future__ import annotations

from pydantic import Field, field_validator

from gpuprep.bank.base import ID_PATTERN, BankModel
from gpuprep.bank.question import Kind


class Dimension(BankModel):
    """One scored dimension ('reasoning from the bound'), with a descriptor per level 1-4."""

    name: str
    """Short name of the dimension."""
    description: str = ""
    """What the dimension measures."""
    levels: dict[int, str]
    """Level (1 = weak ... 4 = strong) to what an answer at that level sounds like."""

    @field_validator("levels")
    @classmethod
    def _levels_one_to_four(cls, levels: dict[int, str]) -> dict[int, str]:
        bad = sorted(set(levels) - {1, 2, 3, 4})
        if bad:
            raise ValueError(f"levels must be 1 to 4, got {bad}")
        if not levels:
            raise ValueError("a dimension needs at least one level descriptor")
        return levels


class RubricTemplate(BankModel):
    """How an interviewer scores one kind of question."""

    id: str = Field(pattern=ID_PATTERN)
    """Template id; a question's `rubric_template` names it (default: the question's kind)."""
    kind: Kind
    """The question kind this template scores."""
    title: str
    """Human title."""
    dimensions: list[Dimension] = Field(min_length=1)
    """The scored dimensions."""
