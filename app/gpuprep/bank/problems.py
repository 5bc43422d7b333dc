"""Problems found while loading or checking a bank, reported as `path:line: where: what`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gpuprep.wording import counted


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with a bank file."""

    path: Path
    line: int
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.where}: {self.what}"

    def to_json(self) -> dict[str, object]:
        return {"path": str(self.path), "line": self.line, "where": self.where, "what": self.what}


class BankError(Exception):
    """Raised when a bank that must be clean is not; carries every problem."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        shown = "\n".join(str(p) for p in problems[:20])
        more = f"\n... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(f"{counted(len(problems), 'problem')} in the bank:\n{shown}{more}")
