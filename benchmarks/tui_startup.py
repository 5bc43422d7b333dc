"""Time to the first screen of the TUI with the full built-in bank.

Each run is a fresh Python process (imports are part of what a user waits for): it loads the
bank as `gpuprep drill` does (the full check is remembered while no file changes; the first
start, which runs it, is reported on its own), opens the store in a temporary GPUPREP_HOME, builds the app with `make_app`
and runs it headless; the time is taken when Textual's auto-pilot starts, which is after the
first screen has been composed, mounted and drawn. The parent process measures from spawn to
the child's report, so interpreter start-up counts too.

    python benchmarks/tui_startup.py            # prints a table, writes benchmarks/results/tui-startup.json
    python benchmarks/tui_startup.py --runs 10
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "tui-startup.json"
LIMIT_S = 1.0

SCENARIOS = {
    "home": [],
    "drill --topic roofline": ["--topic", "roofline"],
}


def child(topic: str | None) -> None:
    started = time.perf_counter()
    from gpuprep.sessions.checked_bank import load_checked_bank
    from gpuprep.sessions.practice import PracticeFilter
    from gpuprep.store.database import Store
    from gpuprep.tui.app import make_app

    bank = load_checked_bank()  # as `gpuprep drill` does: the full check runs when a file changed
    store = Store.open()
    app = make_app(bank=bank, store=store, practice=PracticeFilter(topic=topic) if topic else None)
    report = {}

    async def first_screen(pilot) -> None:  # noqa: ANN001
        report["in_process_s"] = time.perf_counter() - started
        report["screen"] = type(pilot.app.screen).__name__
        report["questions"] = len(bank.questions)
        print("READY " + json.dumps(report), flush=True)
        pilot.app.exit()

    app.run(headless=True, size=(120, 36), auto_pilot=first_screen)
    store.close()


def measure(args: list[str], home: str) -> dict:
    env = {**os.environ, "GPUPREP_HOME": home}
    spawned = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, __file__, "--child", *args], stdout=subprocess.PIPE, text=True, env=env
    )
    report: dict = {}
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("READY "):
            report = json.loads(line[6:])
            report["wall_s"] = time.perf_counter() - spawned
    process.wait()
    if not report:
        raise SystemExit(f"the app did not reach its first screen (exit {process.returncode})")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--topic", help=argparse.SUPPRESS)
    parser.add_argument("--no-write", action="store_true", help="only print")
    options = parser.parse_args()
    if options.child:
        child(options.topic)
        return
    load_before = os.getloadavg()[0]
    home = tempfile.mkdtemp(prefix="gpuprep-bench-")
    # The first start after a change also runs the full bank check (and warms .pyc files): shown, not counted.
    first = measure([], home)
    print(f"{'first start (full bank check)':28} {first['screen']:16} {first['wall_s']:.3f} s")
    results = {}
    for name, args in SCENARIOS.items():
        runs = [measure(args, home) for _ in range(options.runs)]
        walls = [r["wall_s"] for r in runs]
        results[name] = {
            "screen": runs[0]["screen"],
            "median_wall_s": round(statistics.median(walls), 3),
            "max_wall_s": round(max(walls), 3),
            "median_in_process_s": round(statistics.median(r["in_process_s"] for r in runs), 3),
            "runs": options.runs,
        }
        print(
            f"{name:28} {results[name]['screen']:16} median {results[name]['median_wall_s']:.3f} s"
            f"  max {results[name]['max_wall_s']:.3f} s"
        )
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    document = {
        "what": "seconds from spawning `python` to the first drawn TUI screen, full built-in bank",
        "limit_s": LIMIT_S,
        "questions": runs[0]["questions"],
        "first_start_with_full_check_s": round(first["wall_s"], 3),
        "commit": commit,
        "load_average_1min_before": round(load_before, 2),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "results": results,
    }
    if not options.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    slow = [name for name, r in results.items() if r["median_wall_s"] >= LIMIT_S]
    if slow:
        raise SystemExit(f"over {LIMIT_S} s: {', '.join(slow)}")


if __name__ == "__main__":
    main()
