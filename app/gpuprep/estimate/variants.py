"""Random variants of an estimation question: another allowed GPU, other param values.

A memorised number should not pass: a practice session can ask the same question on a B200
with M = 16384. The choice is seeded, so `--seed 7` gives the same variant every time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gpuprep.estimate.solve import estimate_of

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question


@dataclass(frozen=True)
class Variant:
    """A GPU id and param values (in each param's unit) to render and grade a question with."""

    gpu: str
    params: dict[str, float] = field(default_factory=dict)


def random_variant(
    question: Question, seed: int | None = None, bank: Bank | None = None
) -> Variant:
    """Pick a GPU among the allowed ones and each param among its default and variant values.

    With a bank, only GPUs it has a table for are picked. The same seed gives the same variant.
    """
    estimate = estimate_of(question)
    rng = random.Random(seed)
    gpus = [gpu for gpu in estimate.allowed_gpus() if bank is None or gpu in bank.hardware] or [
        estimate.gpu
    ]
    gpu = rng.choice(gpus)
    params = {
        name: rng.choice([param.value, *param.values]) for name, param in estimate.params.items()
    }
    return Variant(gpu, params)


def default_variant(question: Question) -> Variant:
    """The question as written: its default GPU and every param at its default."""
    estimate = estimate_of(question)
    return Variant(estimate.gpu, {name: param.value for name, param in estimate.params.items()})
