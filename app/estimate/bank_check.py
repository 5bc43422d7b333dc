"""The engine's part of `gpuprep bank check`: evaluate every estimation formula.

Issue 3 fills this in; until then it finds nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.problems import Problem


def check_estimates(bank: Bank) -> list[Problem]:
    """Problems with estimation questions' formulas, units and hardware fields."""
    return []
