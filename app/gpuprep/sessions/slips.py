"""Which slips the user keeps making: trap hits and answers read from the table, from the store.

"You fell for 'bits for bytes' in 3 of 12 graded estimates": the Stats screen's count of the
traps each estimation attempt was saved with, and of the closed-book answers that read a figure
from the hardware table instead of recalling it (counted apart from accuracy).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from gpuprep.store.records import Attempt


@dataclass(frozen=True)
class Slips:
    """Trap hits and table look-ups over the graded estimation attempts."""

    graded: int
    """Estimation answers that were judged (invalid ones were not: the user tried again)."""
    traps: tuple[tuple[str, int], ...]
    """(trap name, hits), the most hit first."""
    from_table: int
    """Closed-book answers that read a hardware figure instead of recalling it."""

    def sentences(self, most: int = 3) -> list[str]:
        """What the Stats screen says, one line each; none when there is nothing to say."""
        said = [
            f"You fell for '{name}' in {hits} of {self.graded} graded estimates."
            for name, hits in self.traps[:most]
        ]
        if self.from_table:
            said.append(
                f"{self.from_table} of {self.graded} graded estimates read a figure from the "
                "hardware table (counted apart from accuracy)."
            )
        return said


def slips(attempts: Iterable[Attempt]) -> Slips:
    """Count trap hits and table look-ups over the estimation attempts that were graded."""
    graded = [
        a for a in attempts if a.kind == "estimation" and a.verdict in ("correct", "close", "wrong")
    ]
    hits = Counter(a.trap for a in graded if a.trap)
    ranked = tuple(sorted(hits.items(), key=lambda item: (-item[1], item[0])))
    return Slips(len(graded), ranked, sum(1 for a in graded if a.from_table))
