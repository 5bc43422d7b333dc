"""How long exporting the whole built-in bank takes, as a user runs it (issue 15: Anki under 3 s,
a PDF under 10 s on a 2-core machine).

Each case runs `gpuprep export ...` in a fresh process, start-up and bank loading included,
several times; prints the median wall time and the median CPU time (user + system of the
process and its threads). On a machine shared with other work the wall time is the larger; the
CPU time is what the export itself costs.

    python benchmarks/export_bench.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = [
    ("anki", ["anki"], "deck.apkg", 3.0),
    ("pdf --book study", ["pdf", "--book", "study"], "study.pdf", 10.0),
    ("pdf --book answers", ["pdf", "--book", "answers"], "answers.pdf", 10.0),
    ("pdf --book interviewer", ["pdf", "--book", "interviewer"], "interviewer.pdf", 10.0),
]


def _run(args: list[str], home: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "gpuprep", "export", *args],
        check=True,
        env={**os.environ, "GPUPREP_HOME": str(home)},
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    print(
        f"# gpuprep export, whole built-in bank, {time.strftime('%Y-%m-%d')}, "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'case':<26} {'wall s':>7} {'CPU s':>7} {'target':>7}  size")
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        home.mkdir()
        _run(["anki", "-o", str(Path(folder) / "warm.apkg")], home)  # the bank-check stamp
        for name, args, output, target in CASES:
            path = Path(folder) / output
            timings = [_run([*args, "-o", str(path)], home) for _ in range(runs)]
            wall = statistics.median(t[0] for t in timings)
            cpu = statistics.median(t[1] for t in timings)
            size = path.stat().st_size / (1 << 20)
            print(f"{name:<26} {wall:>7.2f} {cpu:>7.2f} {'< ' + str(target):>7}  {size:.1f} MiB")


if __name__ == "__main__":
    main()
