"""What every CLI command shares: the `--bank` option, JSON output, errors with exit codes."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from gpuprep.wording import counted

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank


def _bank_folder(text: str) -> Path:
    """One --bank value: an empty one is a slip (it would mean the current folder), and
    the built-in folder is loaded anyway (naming it again made every file its own duplicate)."""
    if not text.strip():
        raise typer.BadParameter("an empty path; give the folder that holds your questions/")
    from gpuprep.paths import builtin_root

    folder = Path(text).expanduser()
    if folder.resolve() == builtin_root().resolve():
        raise typer.BadParameter(
            f"{text!r} is the built-in bank, which is always loaded; --bank adds another folder"
        )
    return folder


BankOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--bank",
        help="Extra bank folder merged with the built-in one (repeatable).",
        show_default=False,
        parser=_bank_folder,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]

# The bank's `KINDS` and `LEVELS` (gpuprep.bank.question), repeated so that `gpuprep --help`
# does not import pydantic; tests/test_cli_filters.py checks that they agree.
KINDS = ("concept", "estimation", "debugging", "design", "coding")
LEVELS = ("junior", "mid", "senior")
KindOption = Annotated[
    str | None, typer.Option("--kind", "-k", help=f"Only one kind: {', '.join(KINDS)}.")
]
LevelOption = Annotated[
    str | None, typer.Option("--level", "-l", help=f"Only one level: {', '.join(LEVELS)}.")
]


def emit_json(data: Any) -> None:
    """Print one JSON document on stdout."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


#: Exit status when the command line itself was wrong: an unknown id, topic or GPU, a bad
#: option value, a file that is not what the command takes, an answer that cannot be graded.
#: Problems found in the content (a bank, a table, the settings) exit with 1.
USAGE_ERROR = 2


def fail(message: str, *, code: int = 1, as_json: bool = False) -> NoReturn:
    """Report an error (as `{"error": ...}` with --json) and exit non-zero."""
    if as_json:
        emit_json({"error": message})
    else:
        typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def extra_banks(cli_banks: list[Path] | None) -> list[Path]:
    """Extra bank folders: those given with --bank, then those saved in the settings."""
    from gpuprep.settings import SettingsError, load_settings

    banks = list(cli_banks or [])
    try:
        saved = load_settings().extra_banks
    except SettingsError as error:
        fail(str(error))
    for folder in saved:
        if folder not in banks:
            banks.append(folder)
    return banks


def fix_hint(cli_banks: list[Path] | None) -> str:
    """What to do about bank problems: the folders may come from --bank or from the settings."""
    from gpuprep.settings import SettingsError, load_settings, settings_path

    try:
        saved = [
            folder for folder in load_settings().extra_banks if folder not in (cli_banks or [])
        ]
    except SettingsError:
        saved = []
    where = ["--bank"] if cli_banks else []
    if saved:
        where.append(f"the extra_banks of {settings_path()}")
    if not where:
        return "fix them"
    return f"fix them or drop the folder from {' or '.join(where)}"


def load_bank_or_exit(
    cli_banks: list[Path] | None,
    *,
    as_json: bool = False,
    loader: Callable[[list[Path]], Bank] | None = None,
) -> Bank:
    """Load and check the bank (with `loader`, default `load_clean_bank`); on any problem
    print them all and exit 1."""
    from gpuprep.bank.problems import BankError
    from gpuprep.sessions.checked_bank import load_clean_bank

    try:
        return (loader or load_clean_bank)(extra_banks(cli_banks))
    except BankError as error:
        if as_json:
            emit_json(
                {
                    "error": "the bank has problems; run `gpuprep bank check`",
                    "problems": [p.to_json() for p in error.problems],
                }
            )
        else:
            for problem in error.problems:
                typer.echo(str(problem), err=True)
            typer.echo(
                f"error: {counted(len(error.problems), 'problem')} in the bank; {fix_hint(cli_banks)}.",
                err=True,
            )
        raise typer.Exit(1) from None
