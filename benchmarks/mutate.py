"""Mutation testing of the modules where a silent bug costs users most (`./dev mutate`, issue 19).

A mutant is the module with one small change (`<` for `<=`, a constant off by one, a call
dropped); a test suite that passes on it has let that bug through. For each module named in
benchmarks/mutation.toml this runs mutmut 3 over a private copy of the working tree, with only
the tests the config maps to that module, and writes a table (mutants, killed, survived,
timeout, kill rate) to benchmarks/results/mutation-<date>.md. Runs of one module at a time add
to or replace that module's row, so a day's file collects every module.

The copy is laid out as mutmut expects (the package under src/, the data folders beside it,
where gpuprep.paths finds them in a checkout): mutmut never edits the checkout, and other
people's edits made during a run do not leak into it. mutmut and its few libraries missing from
.venv are installed under build/mutate/tools, not into .venv. Not run in CI: it takes minutes
per module. Survivors' diffs go to build/mutate/<module>/survivors.md.

    ./dev mutate                          # every module in the config
    ./dev mutate estimate.parser store.migrations --jobs 1
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "benchmarks" / "mutation.toml"
WORK = ROOT / "build" / "mutate"
TOOLS = WORK / "tools"
RESULTS = ROOT / "benchmarks" / "results"
# Pinned: mutmut's exit codes and .meta files are read below. Installed without their
# dependencies, which .venv already has (pytest, click, textual, pyyaml).
TOOL_WHEELS = ("mutmut==3.8.1", "libcst==1.9.0", "setproctitle==1.3.8", "coverage==7.17.5")
DATA_FOLDERS = ("questions", "rubrics", "hardware", "drills", "kernels_ref")
IGNORED = shutil.ignore_patterns("__pycache__", ".mypy_cache", "*.pyc", ".hypothesis")
TABLE_START, TABLE_END = "<!-- mutate:table -->", "<!-- /mutate:table -->"
HEADER = (
    "| module | mutants | killed | survived | timeout | no tests | SQL case | kill rate | tests run |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---|"
)
_SQL_KEYWORD = re.compile(
    r"\b(SELECT|INSERT|INTO|VALUES|UPDATE|SET|DELETE|FROM|WHERE|AND|ORDER|BY|GROUP|HAVING|"
    r"ON|CONFLICT|DO|PRAGMA|BEGIN|IMMEDIATE|COMMIT|ROLLBACK|DESC|MIN|MAX|COUNT)\b"
)

# mutmut 3's per-mutant exit codes (mutmut/stats.py); anything else is "suspicious".
KILLED_CODES = {1, 3}
SURVIVED_CODES = {0}
TIMEOUT_CODES = {36, 24, -24, 152, 255}
NO_TEST_CODES = {5, 33}


class MutateError(Exception):
    """A bad module name, a broken config or a failed run: said plainly, exit code 2."""


@dataclass(frozen=True)
class Tally:
    """How one module's mutants fared."""

    module: str
    mutants: int
    killed: int
    survived: int
    timeout: int
    no_tests: int
    tests: tuple[str, ...]
    survivors: tuple[str, ...]
    """Mutants not killed, less the SQL-case ones."""
    sql_case: int = 0
    """Survivors that only change the letter case of SQL keywords (equivalent: SQL ignores it)."""

    @property
    def kill_rate(self) -> float:
        """Killed or timed out (a mutant that hangs the tests is caught), over the mutants that
        are not SQL-case equivalents: one no test reaches counts against the rate."""
        judged = self.mutants - self.sql_case
        return (self.killed + self.timeout) / judged if judged else 0.0

    def row(self) -> str:
        tests = ", ".join(Path(t).name for t in self.tests)
        rate = f"{self.kill_rate:.1%}" if self.mutants else "n/a: no function to mutate"
        return (
            f"| {self.module} | {self.mutants} | {self.killed} | {self.survived} | {self.timeout} "
            f"| {self.no_tests} | {self.sql_case} | {rate} | {tests} |"
        )


def load_config(path: Path = CONFIG) -> dict[str, tuple[str, ...]]:
    """The module -> test files map; every test file must exist."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise MutateError(f"{path}: cannot read the mutation config: {error}") from None
    modules = data.get("modules")
    if not isinstance(modules, dict) or not modules:
        raise MutateError(f"{path}: needs a [modules] table of module = [test files]")
    config: dict[str, tuple[str, ...]] = {}
    for module, tests in modules.items():
        if not isinstance(tests, list) or not tests or not all(isinstance(t, str) for t in tests):
            raise MutateError(f"{path}: {module!r} needs a non-empty list of test file paths")
        if not module_source(module).is_file():
            raise MutateError(
                f"{path}: {module!r} is not a module: {module_source(module)} is missing"
            )
        missing = [t for t in tests if not (ROOT / t).is_file()]
        if missing:
            raise MutateError(
                f"{path}: {module!r} maps to missing test files: {', '.join(missing)}"
            )
        config[module] = tuple(tests)
    return config


def module_source(module: str) -> Path:
    return ROOT / "app" / "gpuprep" / Path(*module.split(".")).with_suffix(".py")


def has_functions(module: str) -> bool:
    """mutmut 3 mutates function bodies only: a module of constants (the migrations) has none."""
    tree = ast.parse(module_source(module).read_text(encoding="utf-8"))
    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in ast.walk(tree))


def ensure_tools() -> None:
    if (TOOLS / "mutmut" / "__init__.py").is_file():
        return
    print(f"mutate: installing {', '.join(TOOL_WHEELS)} into {TOOLS.relative_to(ROOT)}")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(TOOLS),
            *TOOL_WHEELS,
        ],
        check=True,
    )


def scratch_tree(module: str, tests: tuple[str, ...]) -> Path:
    """A fresh copy of the working tree laid out for mutmut, with its [tool.mutmut] config."""
    scratch = WORK / module
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    shutil.copytree(ROOT / "app" / "gpuprep", scratch / "src" / "gpuprep", ignore=IGNORED)
    # pyproject maps gpuprep.exporters to exporters/; in the copy it is simply a subpackage.
    shutil.copytree(ROOT / "exporters", scratch / "src" / "gpuprep" / "exporters", ignore=IGNORED)
    shutil.copy(
        ROOT / "benchmarks" / "mutate_plugin.py", scratch / "src" / "gpuprep_mutate_plugin.py"
    )
    for folder in DATA_FOLDERS:
        shutil.copytree(ROOT / folder, scratch / folder, ignore=IGNORED)
    shutil.copytree(ROOT / "tests", scratch / "tests", ignore=IGNORED)
    target = "src/gpuprep/" + "/".join(module.split(".")) + ".py"
    mutmut_config = (
        "\n[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        f"only_mutate = [{json.dumps(target)}]\n"
        f"also_copy = {json.dumps(list(DATA_FOLDERS))}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(list(tests))}\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "gpuprep_mutate_plugin", "-q"]\n'
        "use_git_change_detection = false\n"
    )
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    if "[tool.mutmut]" in pyproject:
        raise MutateError(
            "pyproject.toml has a [tool.mutmut] table: keep the map in benchmarks/mutation.toml"
        )
    (scratch / "pyproject.toml").write_text(pyproject + mutmut_config, encoding="utf-8")
    return scratch


def run_mutmut(scratch: Path, jobs: int) -> None:
    """Run mutmut in the copy; its spinner goes to mutmut.log, finished lines to the terminal."""
    env = dict(os.environ, PYTHONPATH=str(TOOLS), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs)]
    log = scratch / "mutmut.log"
    with log.open("w", encoding="utf-8") as sink:
        process = subprocess.Popen(
            command, cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        assert process.stdout is not None
        for raw in process.stdout:
            line = raw.decode("utf-8", "replace")
            sink.write(line)
            # The spinner redraws with carriage returns: show each line as it was left.
            print("    " + line.rstrip("\n").split("\r")[-1].strip(), flush=True)
        returncode = process.wait()
    if returncode != 0:
        raise MutateError(
            f"mutmut failed (exit {returncode}; its output is in {log}): if the clean run failed, "
            "run the mapped tests with `.venv/bin/python -m pytest FILES` and fix them first"
        )


def tally(module: str, tests: tuple[str, ...], scratch: Path) -> tuple[Tally, dict[str, str]]:
    """Count the mutants' fates from mutmut's .meta file; the survivors' diffs beside."""
    target = Path("src", "gpuprep", *module.split("."))
    meta = scratch / "mutants" / target.with_suffix(".py.meta")
    if not meta.is_file():
        raise MutateError(f"mutmut wrote no results for {module} ({meta} is missing)")
    codes: dict[str, int | None] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    fates = list(codes.values())
    alive = [name for name, code in codes.items() if code not in KILLED_CODES | TIMEOUT_CODES]
    diffs = survivor_diffs(scratch, alive)
    sql_case = {n for n in alive if codes[n] in SURVIVED_CODES and sql_case_only(diffs[n])}
    result = Tally(
        module=module,
        mutants=len(fates),
        killed=sum(code in KILLED_CODES for code in fates),
        survived=sum(code in SURVIVED_CODES for code in fates),
        timeout=sum(code in TIMEOUT_CODES for code in fates),
        no_tests=sum(code in NO_TEST_CODES for code in fates),
        tests=tests,
        survivors=tuple(n for n in alive if n not in sql_case),
        sql_case=len(sql_case),
    )
    return result, diffs


def sql_case_only(diff: str) -> bool:
    """The mutant only changes the case of a line of SQL with no quoted literal in it.

    SQLite reads keywords and names in any case, so `select` for `SELECT` is an equivalent
    mutant; a line holding a quoted SQL value, or no SQL keyword, is not assumed to be."""
    removed = [line[1:] for line in diff.splitlines() if line[:1] == "-" and line[:3] != "---"]
    added = [line[1:] for line in diff.splitlines() if line[:1] == "+" and line[:3] != "+++"]
    return (
        bool(removed)
        and len(removed) == len(added)
        and all(
            old != new
            and old.lower() == new.lower()
            and "'" not in old
            and _SQL_KEYWORD.search(old)
            for old, new in zip(removed, added, strict=True)
        )
    )


# Run inside the copy, so mutmut reads its config there: one process for all the diffs.
_SHOW_DIFFS = """
import sys
from mutmut.__main__ import find_mutant, get_diff_for_mutant
for name in sys.argv[1:]:
    print(get_diff_for_mutant(name, path=find_mutant(name).path).strip())
    print("\\x00")
"""


def survivor_diffs(scratch: Path, names: list[str]) -> dict[str, str]:
    """Each named mutant's diff, read by mutmut in one process (seconds, not a process each)."""
    if not names:
        return {}
    shown = subprocess.run(
        [sys.executable, "-c", _SHOW_DIFFS, *names],
        cwd=scratch,
        env=dict(os.environ, PYTHONPATH=str(TOOLS)),
        capture_output=True,
        text=True,
    )
    diffs = [d.strip() for d in shown.stdout.split("\x00") if d.strip()]
    if len(diffs) != len(names):
        raise MutateError(f"mutmut could not show the survivors: {shown.stderr.strip()[-500:]}")
    return dict(zip(names, diffs, strict=True))


def write_survivors(result: Tally, diffs: dict[str, str], scratch: Path) -> Path:
    """Each surviving mutant's diff, for reading (not committed)."""
    parts = [
        f"# Survivors of {result.module} ({len(result.survivors)}, "
        f"besides {result.sql_case} SQL-case equivalents)\n"
    ]
    parts += [f"## {name}\n```diff\n{diffs[name]}\n```\n" for name in result.survivors]
    path = scratch / "survivors.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def merge_table(results_file: Path, tallies: list[Tally], provenance: str) -> None:
    """Add or replace the rows of the modules just run; keep other rows and hand-written notes."""
    title = f"# Mutation testing, {results_file.stem.removeprefix('mutation-')}\n\n"
    before, rows, after = title + "Last run: \n\n", {}, "\n"
    if results_file.exists():
        text = results_file.read_text(encoding="utf-8")
        if TABLE_START not in text or TABLE_END not in text:
            raise MutateError(f"{results_file}: the table markers {TABLE_START} are missing")
        before, rest = text.split(TABLE_START, 1)
        table, after = rest.split(TABLE_END, 1)
        rows = {line.split("|")[1].strip(): line for line in table.strip().splitlines()[2:]}
    for result in tallies:
        rows[result.module] = result.row()
    before = re.sub(r"^Last run: .*$", f"Last run: {provenance}", before, count=1, flags=re.M)
    body = "\n".join(rows[module] for module in sorted(rows))
    results_file.write_text(
        f"{before}{TABLE_START}\n{HEADER}\n{body}\n{TABLE_END}{after}", encoding="utf-8"
    )


def provenance() -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{now}, commit {commit or '?'} plus the working tree, mutmut 3.8.1, {os.cpu_count()} CPUs"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev mutate", description=__doc__.splitlines()[0])
    parser.add_argument(
        "modules", nargs="*", help="dotted modules under gpuprep (default: all in the config)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument(
        "--table-only",
        action="store_true",
        help="rewrite the rows and survivors from the last run's results, without running mutmut",
    )
    args = parser.parse_args(argv)
    try:
        config = load_config()
        unknown = [m for m in args.modules if m not in config]
        if unknown:
            raise MutateError(
                f"not in {CONFIG.relative_to(ROOT)}: {', '.join(unknown)}; known: {', '.join(config)}"
            )
        if args.jobs < 1:
            raise MutateError(f"--jobs must be at least 1, not {args.jobs}")
        ensure_tools()
        results_file = RESULTS / f"mutation-{datetime.date.today().isoformat()}.md"
        for module in args.modules or list(config):
            if not has_functions(module):
                merge_table(
                    results_file, [Tally(module, 0, 0, 0, 0, 0, config[module], ())], provenance()
                )
                print(f"mutate: {module} has no function for mutmut to mutate; row written")
                continue
            scratch = WORK / module if args.table_only else scratch_tree(module, config[module])
            print(
                f"mutate: {module} with {len(config[module])} test files in {scratch.relative_to(ROOT)}"
            )
            if not args.table_only:
                run_mutmut(scratch, args.jobs)
            result, diffs = tally(module, config[module], scratch)
            survivors = write_survivors(result, diffs, scratch)
            merge_table(results_file, [result], provenance())
            print(
                f"mutate: {module}: {result.mutants} mutants, kill rate {result.kill_rate:.1%}; "
                f"survivors in {survivors.relative_to(ROOT)}; table in {results_file.relative_to(ROOT)}"
            )
    except MutateError as error:
        print(f"mutate: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
