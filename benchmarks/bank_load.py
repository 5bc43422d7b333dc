"""How long loading and checking a 300-question bank takes (issue 2: under half a second).

Builds a synthetic extra bank of 300 questions (a third estimation) beside an empty built-in
bank, then times `load_bank` + `check_bank` in one process, median of several runs.

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

from gpuprep.bank.check import check_bank
from gpuprep.bank.loader import load_bank
from gpuprep.paths import builtin_folder


def _question(index: int) -> dict:
    base = {
        "id": f"synthetic-{index}",
        "title": f"Synthetic question {index}",
        "level": "mid",
        "minutes": 5,
        "tags": ["synthetic"],
        "hints": ["Think about bytes.", "Then about bandwidth."],
        "rubric": {
            "strong_signals": ["Names the bound", "Counts bytes", "Checks units"],
            "red_flags": ["Uses the sparse rate", "Forgets the write"],
            "follow_ups": ["What if the tensor fits in L2?"],
        },
    }
    if index % 3 == 0:
        return base | {
            "kind": "estimation",
            "prompt": "How long does streaming {{ size }} take on {{ gpu.name }}?",
            "answer": "**Assumptions.** One pass. {{ bytes }} / {{ gpu.hbm_bandwidth }} = **{{ answer }}**.",
            "estimate": {
                "solution": "bytes / gpu.hbm_bandwidth",
                "unit": "us",
                "gpu": "h100_sxm",
                "params": {"size": {"value": 1, "unit": "GB", "values": [2, 4]}},
                "steps": [{"name": "bytes", "formula": "2 * size", "unit": "GB"}],
            },
        }
    return base | {"kind": "concept", "prompt": "Explain coalescing " * 20, "answer": "Because " * 80}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        bank_dir = Path(folder)
        (bank_dir / "questions").mkdir()
        questions = [_question(i) for i in range(300)]
        document = {"topic": {"id": "synthetic", "title": "Synthetic"}, "questions": questions}
        (bank_dir / "questions" / "synthetic.yaml").write_text(yaml.safe_dump(document, sort_keys=False))
        (bank_dir / "hardware").mkdir()
        (bank_dir / "hardware" / "h100_sxm.yaml").write_text((builtin_folder("hardware") / "h100_sxm.yaml").read_text())

        timings = []
        for _ in range(7):
            start = time.perf_counter()
            bank, problems = load_bank([bank_dir], builtin=False)
            problems += check_bank(bank)
            timings.append(time.perf_counter() - start)
        assert len(bank.questions) == 300, len(bank.questions)
        assert not problems, problems[:3]

    print(f"# bank load + check, {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, {platform.machine()}, {sys.platform}")
    print(f"{'case':<36} {'median s':>9} {'min s':>7} {'target':>7}")
    print(f"{'300 questions (100 estimation)':<36} {statistics.median(timings):>9.3f} {min(timings):>7.3f} {'< 0.5':>7}")


if __name__ == "__main__":
    main()
