"""Drills: the model of `drills/<id>/drill.yaml`, a kernel to write and its reference ladder.

The harness issue fills in the input generator, tolerances, byte/FLOP formulas and
forbidden ops; this is the part the bank checker needs to resolve references.
"""

from __future__ import annotations

from pydantic import Field

from gpuprep.bank.base import ID_PATTERN, BankModel


class Rung(BankModel):
    """One step of the reference ladder."""

    name: str = Field(pattern=r"^v\d+_[a-z0-9_]+$")
    """Module name under kernels_ref/<drill>/, e.g. 'v2_shared'."""
    summary: str
    """One line: what this rung changes and why it is faster."""


class Drill(BankModel):
    """A kernel drill."""

    id: str = Field(pattern=ID_PATTERN)
    """Drill id; must match the folder name."""
    title: str
    """Human title."""
    topic: str
    """Topic id the drill practises."""
    entry: str
    """Name of the function a submission defines."""
    contract: str
    """What the entry function takes and returns, in words."""
    ladder: list[Rung] = Field(default_factory=list)
    """The reference ladder, naive first."""
