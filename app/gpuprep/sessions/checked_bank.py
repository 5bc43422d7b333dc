"""Loading the bank for the app, checked: every time (`load_clean_bank`), or without paying for
the full check at every start (`load_checked_bank`).

`bank check` evaluates every formula and renders every template for every GPU; that takes a
noticeable part of the one second the app has to show its first screen. The result depends only
on the bank's files and on the checking code, so a clean result is remembered under a
fingerprint of both (paths, sizes and modification times) and the check is skipped while
nothing has changed. Any change, in a YAML file or in gpuprep itself, runs it again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import gpuprep
from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.problems import BankError, Problem
from gpuprep.estimate.bank_check import check_bank
from gpuprep.paths import gpuprep_home

#: The code a check's verdict depends on (the models, the engine, the units and formulas).
CODE_PACKAGES = ("bank", "estimate", "units")


def load_clean_bank(extra: list[Path] | None = None) -> Bank:
    """Load and check the bank, raising :class:`BankError` if anything is wrong."""
    bank, problems = load_bank(extra)
    problems += check_bank(bank)
    if problems:
        raise BankError(sorted(problems))
    return bank


def _code_files() -> list[Path]:
    package = Path(gpuprep.__file__).resolve().parent
    return sorted(path for name in CODE_PACKAGES for path in (package / name).glob("*.py"))


def fingerprint(bank: Bank) -> str:
    """A digest of every file the bank was loaded from and of the code that checks it."""
    digest = hashlib.sha256()
    files = sorted(set(bank.line_maps) | set(_code_files()))
    for path in files:
        try:
            status = path.stat()
        except OSError:
            continue
        digest.update(f"{path}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    digest.update(json.dumps(sorted(str(root.path) for root in bank.roots)).encode())
    return digest.hexdigest()


def stamp_path() -> Path:
    return gpuprep_home() / "cache" / "bank-check.json"


def load_checked_bank(extra: list[Path] | None = None, *, builtin: bool = True) -> Bank:
    """Like `load_clean_bank`: raises :class:`BankError` listing every problem; faster when unchanged."""
    bank, problems = load_bank(extra, builtin=builtin)
    if problems:
        # The questions that did load are checked too, as `bank check` does: a misspelt
        # hardware field must not wait until every schema error elsewhere is fixed.
        raise BankError(sorted(problems + check_bank(bank)))
    stamp_key = fingerprint(bank)
    stamp = stamp_path()
    try:
        if json.loads(stamp.read_text(encoding="utf-8")).get("clean") == stamp_key:
            return bank
    except (OSError, ValueError):
        pass
    problems = check_bank(bank)
    if problems:
        raise BankError(sorted(problems))
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(json.dumps({"clean": stamp_key}), encoding="utf-8")
    except OSError:
        pass  # a read-only home only costs the check next time
    return bank


@dataclass(frozen=True)
class SkippedBank:
    """An extra bank folder left out so that the app still opens, and its first problem."""

    folder: Path
    problems: list[Problem]

    def __str__(self) -> str:
        more = len(self.problems) - 1
        return f"{self.folder} ({self.problems[0].what}{f'; {more} more' if more > 0 else ''})"


def _owner(problem: Problem, folders: list[Path]) -> Path | None:
    """The extra folder a problem's file lies in (a missing folder's problem names the folder)."""
    path = Path(problem.path).resolve()
    for folder in folders:
        root = folder.resolve()
        if path == root or root in path.parents:
            return folder
    return None


def load_bank_skipping_broken(
    required: list[Path], optional: list[Path]
) -> tuple[Bank, list[SkippedBank]]:
    """The checked bank with every `optional` extra folder that has problems left out.

    `optional` folders come from the settings: one that moved or broke must not lock the user
    out of the app whose Settings screen can remove it. Problems in the built-in bank or in a
    `required` folder (given on the command line) still raise :class:`BankError`.
    """
    try:
        return load_checked_bank([*required, *optional]), []
    except BankError as error:
        broken: dict[Path, list[Problem]] = {}
        for problem in error.problems:
            owner = _owner(problem, optional)
            if owner is None:
                raise
            broken.setdefault(owner, []).append(problem)
    kept = [folder for folder in optional if folder not in broken]
    bank = load_checked_bank([*required, *kept])
    return bank, [SkippedBank(folder, problems) for folder, problems in broken.items()]
