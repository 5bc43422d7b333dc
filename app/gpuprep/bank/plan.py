"""Prep plans: the model of `questions/plans/<id>.yaml`, days of topics, questions and drills."""

from __future__ import annotations

from pydantic import Field, model_validator

from gpuprep.bank.base import ID_PATTERN, BankModel


class PlanItem(BankModel):
    """One item of a day: a topic (some of its questions), one question, or one drill."""

    topic: str | None = None
    """Topic id: practise `count` questions of it."""
    question: str | None = None
    """Question id."""
    drill: str | None = None
    """Drill id."""
    count: int = Field(default=5, ge=1, le=100)
    """For a topic item: how many questions."""
    note: str = ""
    """Why this item, today."""

    @model_validator(mode="after")
    def _exactly_one_target(self) -> PlanItem:
        named = [name for name in ("topic", "question", "drill") if getattr(self, name)]
        if len(named) != 1:
            raise ValueError("an item names exactly one of topic, question or drill")
        return self


class PlanDay(BankModel):
    """One day of a plan."""

    day: int = Field(ge=1)
    """Day number, from 1."""
    title: str
    """What the day is about."""
    items: list[PlanItem] = Field(min_length=1)
    """What to do."""


class Plan(BankModel):
    """A preparation plan, from a few days to several weeks."""

    id: str = Field(pattern=ID_PATTERN)
    """Plan id, used by `gpuprep plan ID`."""
    title: str
    """Human title ('Three days to a kernel interview')."""
    summary: str = ""
    """Who the plan is for."""
    days: list[PlanDay] = Field(min_length=1)
    """The days."""
