"""How long loading and checking a 300-question bank takes (issue 2: under half a second).

Merges the built-in bank with a renamed copy of its own questions (so the bank is about twice
the shipped size, with real templates and formulas evaluated for every allowed GPU), then
times `load_bank` + `check_bank` in one process, median of several runs.

    python benchmarks/bank_load.py
"""

from __future__ import annotations

import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

from gpuprep.bank.loader import load_bank
from gpuprep.estimate.bank_check import check_bank
from gpuprep.paths import builtin_folder


def _copy_of_the_built_in_questions(folder: Path) -> None:
    """A second copy of every built-in topic file, with ids renamed so nothing collides."""
    (folder / "questions").mkdir()
    for path in builtin_folder("questions").glob("*.yaml"):
        document = yaml.safe_load(path.read_text())
        document["topic"]["id"] += "-copy"
        for question in document["questions"]:
            question["id"] += "-copy"
            question.pop("topic", None)
        (folder / "questions" / path.name).write_text(yaml.safe_dump(document, sort_keys=False))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        bank_dir = Path(folder)
        _copy_of_the_built_in_questions(bank_dir)

        timings = []
        for _ in range(7):
            start = time.perf_counter()
            bank, problems = load_bank([bank_dir])
            problems += check_bank(bank)
            timings.append(time.perf_counter() - start)
        estimation = sum(q.kind == "estimation" for q in bank.questions.values())
        assert not problems, problems[:3]

    print(
        f"# bank load + check, {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, {platform.machine()}, {sys.platform}"
    )
    print(f"{'case':<36} {'median s':>9} {'min s':>7} {'target':>7}")
    case = f"{len(bank.questions)} questions ({estimation} estimation)"
    print(f"{case:<36} {statistics.median(timings):>9.3f} {min(timings):>7.3f} {'< 0.5':>7}")


if __name__ == "__main__":
    main()
