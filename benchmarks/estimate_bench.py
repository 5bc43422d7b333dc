"""Napkin-math engine benchmark: `gpuprep calc` cold start, grading throughput, bank check.

Run from the repository root: `python benchmarks/estimate_bench.py`. It prints a table with
the date and versions; benchmarks/results/estimate-cpu.txt keeps a run from a 2-core CPU box.
Targets (issue 3): calc cold start < 1 s; 1,000 gradings in one process < 2 s; loading and
checking the bank < 0.5 s.
"""

from __future__ import annotations

import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from importlib import metadata

EXPRESSION = "2*8192^3 FLOP / h100_sxm.bf16_dense"


def calc_command() -> list[str]:
    script = shutil.which("gpuprep", path=str(__import__("pathlib").Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "gpuprep"]


def cold_start(runs: int = 5) -> tuple[float, float, float]:
    command = [*calc_command(), "calc", EXPRESSION]
    subprocess.run(command, check=True, capture_output=True)  # warm the disk cache and .pyc files
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times), min(times), max(times)


def grading(count: int = 1000) -> tuple[float, int, dict[str, int]]:
    from gpuprep.bank.loader import load_bank
    from gpuprep.estimate.grading import grade
    from gpuprep.estimate.solve import solve

    bank, _problems = load_bank()
    questions = [q for q in bank.questions.values() if q.estimate is not None]
    answers = []
    for question in questions:
        value, unit = solve(question, bank).answer_value, question.estimate.unit  # type: ignore[union-attr]
        answers += [
            (question, f"{value * 1.1:.3g} {unit}"),
            (question, f"about {value * 0.6:.3g} {unit}"),
            (question, f"{value * 5:.3g}"),
            (question, "3.35 TB/s"),
            (question, "2 * (3 +"),
        ]
    verdicts: dict[str, int] = {}
    started = time.perf_counter()
    for index in range(count):
        question, answer = answers[index % len(answers)]
        result = grade(question, answer, bank)
        verdicts[result.verdict] = verdicts.get(result.verdict, 0) + 1
    return time.perf_counter() - started, len(questions), verdicts


def big_bank_check(target: int = 300) -> tuple[float, int]:
    """Load and check the built-in bank plus copies of its question files: `target` questions or more."""
    import re
    import tempfile
    from pathlib import Path

    from gpuprep.bank.loader import load_bank
    from gpuprep.estimate.bank_check import check_bank
    from gpuprep.paths import builtin_folder

    files = sorted(builtin_folder("questions").glob("*.yaml"))
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "questions"
        root.mkdir()
        copies = 0
        while True:
            bank, _problems = load_bank([Path(folder)])
            if len(bank.questions) >= target:
                break
            copies += 1
            for path in files:
                text = path.read_text(encoding="utf-8")
                text = re.sub(r"^(\s*- id: )(\S+)", rf"\g<1>\g<2>-copy{copies}", text, flags=re.M)
                text = re.sub(
                    r"^(  id: )(\S+)", rf"\g<1>\g<2>-copy{copies}", text, count=1, flags=re.M
                )
                (root / f"{path.stem}-copy{copies}.yaml").write_text(text, encoding="utf-8")
        started = time.perf_counter()
        bank, _problems = load_bank([Path(folder)])
        check_bank(bank)
        return time.perf_counter() - started, len(bank.questions)


def bank_check_command(runs: int = 3) -> float:
    """`gpuprep bank check` as a user runs it: a new process, imports included (median)."""
    command = [*calc_command(), "bank", "check"]
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=False, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bank_check() -> tuple[float, int]:
    """Load and check the built-in bank in this process; the modules are imported beforehand."""
    from gpuprep.bank.loader import load_bank
    from gpuprep.estimate.bank_check import check_bank

    started = time.perf_counter()
    bank, _problems = load_bank()
    check_bank(bank)
    return time.perf_counter() - started, len(bank.questions)


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def main() -> None:
    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    median, fastest, slowest = cold_start()
    command_time = bank_check_command()
    check_time, question_count = bank_check()
    grading_time, estimation_count, verdicts = grading()
    big_time, big_count = big_bank_check()
    rows = [
        (
            "gpuprep calc cold start (median of 5)",
            f"{median:.3f} s",
            f"min {fastest:.3f}, max {slowest:.3f}",
            "< 1 s",
        ),
        (
            "grade 1000 answers, one process",
            f"{grading_time:.3f} s",
            f"{estimation_count} questions; {verdicts}",
            "< 2 s",
        ),
        (
            "load + check the built-in bank",
            f"{check_time:.3f} s",
            f"{question_count} questions",
            "< 0.5 s",
        ),
        (
            "load + check, bank copied to 300+",
            f"{big_time:.3f} s",
            f"{big_count} questions",
            "< 0.5 s",
        ),
        (
            "gpuprep bank check, whole process",
            f"{command_time:.3f} s",
            "median of 3, imports included",
            "-",
        ),
    ]
    load_after = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"# gpuprep napkin-math benchmark, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC"
    )
    print(
        f"# python {platform.python_version()}, {platform.machine()} {platform.system()}, "
        f"gpuprep {version('gpuprep')}, pydantic {version('pydantic')}, jinja2 {version('jinja2')}, "
        f"sympy {version('sympy')}, typer {version('typer')}; CPUs: {os.cpu_count()}; "
        f"load average {load_before} before, {load_after} after"
    )
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    header = ("measure", "time", "detail", "target")
    widths = [max(w, len(h)) for w, h in zip(widths, header, strict=True)]
    for row in (header, tuple("-" * w for w in widths), *rows):
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )


if __name__ == "__main__":
    main()
