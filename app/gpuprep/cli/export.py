"""`gpuprep export anki | pdf`: the bank as an Anki deck, or as a PDF book.

Exit codes follow the other commands: 2 when the command line is at fault (an unknown topic,
kind or GPU, an output path that cannot be written), 1 when the bank or the export itself is.
The exporters live in `gpuprep.exporters`; this module parses, draws the progress bar and
reports.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import nullcontext
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from gpuprep.cli.common import USAGE_ERROR, BankOption, JsonOption, emit_json, fail
from gpuprep.wording import counted

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank

#: What an exporter returns (its file's path, size and counts).
Exported = TypeVar("Exported")

export_app = typer.Typer(
    help="Export the bank: an Anki deck for phones, PDF books for study and for interviewers.",
    no_args_is_help=True,
)

TopicOption = Annotated[
    list[str] | None,
    typer.Option("--topic", "-t", help="Only this topic (repeatable).", show_default=False),
]
KindOption = Annotated[
    list[str] | None,
    typer.Option(
        "--kind",
        "-k",
        help="Only this kind: concept, estimation, debugging, design or coding (repeatable).",
        show_default=False,
    ),
]
GpuOption = Annotated[
    str | None,
    typer.Option(
        "--gpu",
        help="GPU id whose worked solutions estimation questions show, where they are asked for"
        " it. Default: the GPU saved in the settings, else each question's own.",
        show_default=False,
    ),
]


class Book(StrEnum):
    """The PDF books."""

    study = "study"
    interviewer = "interviewer"
    answers = "answers"


def _preferred_gpu(bank: Bank, gpu: str | None, as_json: bool) -> str | None:
    from gpuprep.exporters.view import ExportError, check_gpu
    from gpuprep.settings import SettingsError, load_settings

    if gpu is not None:
        try:
            check_gpu(bank, gpu)
        except ExportError as error:
            fail(error.message, code=USAGE_ERROR, as_json=as_json)
        return gpu
    try:
        saved = load_settings().gpu
    except SettingsError as error:
        fail(str(error), as_json=as_json)
    return saved if saved in bank.hardware else None


def _progress(enabled: bool, total: int) -> tuple[Any, Any]:
    """A progress bar on stderr and the callback that advances it; nothing for --json."""
    if not enabled:
        return nullcontext(), None
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task("rendering the questions", total=total)

    def advance(done: int, total: int, what: str) -> None:
        bar.update(task, completed=done, total=total, description=what)

    return bar, advance


def _export(
    write: Callable[..., Exported],
    output: Path,
    banks: list[Path] | None,
    topics: list[str] | None,
    kinds: list[str] | None,
    gpu: str | None,
    as_json: bool,
    *,
    extra_steps: int = 0,
) -> tuple[Exported, str | None, float]:
    """Check the output path, load the checked bank, choose the questions and the GPU, then run
    the exporter under the progress bar: (what it wrote, the GPU used, the seconds taken), or an
    exit naming the fault. `extra_steps`: the bar's steps after the questions (typesetting)."""
    from gpuprep.cli.common import load_bank_or_exit
    from gpuprep.exporters.files import check_output
    from gpuprep.exporters.view import ExportError, select_questions
    from gpuprep.sessions.checked_bank import load_checked_bank

    started = time.perf_counter()
    try:
        path = check_output(output)
    except ExportError as error:
        fail(error.message, code=USAGE_ERROR, as_json=as_json)
    bank = load_bank_or_exit(banks, as_json=as_json, loader=load_checked_bank)
    try:
        questions = select_questions(bank, topics, kinds)
        preferred = _preferred_gpu(bank, gpu, as_json)
        bar, advance = _progress(not as_json, len(questions) + extra_steps)
        with bar:
            result = write(bank, questions, path, gpu=preferred, progress=advance)
    except ExportError as error:
        fail(error.message, code=USAGE_ERROR if error.usage else 1, as_json=as_json)
    return result, preferred, time.perf_counter() - started


def _size(size: int) -> str:
    return f"{size / 1024:.0f} KiB" if size < 1 << 20 else f"{size / (1 << 20):.1f} MiB"


def anki(
    topic: TopicOption = None,
    kind: KindOption = None,
    gpu: GpuOption = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The .apkg file to write.")] = Path(
        "gpuprep.apkg"
    ),
    banks: BankOption = None,
    as_json: JsonOption = False,
) -> None:
    """An Anki deck: a note per question, a deck per topic under gpuprep::, tagged by topic,
    kind and level. Re-importing it updates the notes you have instead of adding copies."""
    from gpuprep.exporters.anki import export_anki

    result, preferred, seconds = _export(export_anki, output, banks, topic, kind, gpu, as_json)
    if as_json:
        emit_json(
            {
                "path": str(result.path),
                "notes": result.notes,
                "decks": result.decks,
                "bytes": result.size,
                "gpu": preferred,
                "seconds": round(seconds, 3),
            }
        )
        return
    typer.echo(
        f"wrote {output}: {counted(result.notes, 'note')} in {counted(result.decks, 'deck')}"
        f" ({_size(result.size)}, {seconds:.1f} s); import it in Anki with File > Import"
    )


def pdf(
    book: Annotated[
        Book,
        typer.Option(
            "--book",
            help="study: questions and hints, answers at each chapter's end, a hardware appendix;"
            " interviewer: model answers, rubrics and a blank scorecard per question;"
            " answers: the worked answers alone.",
        ),
    ] = Book.study,
    topic: TopicOption = None,
    kind: KindOption = None,
    gpu: GpuOption = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="The PDF to write. Default: gpuprep-BOOK.pdf.",
            show_default=False,
        ),
    ] = None,
    banks: BankOption = None,
    as_json: JsonOption = False,
    scorecard: Annotated[
        int | None,
        typer.Option(
            "--scorecard",
            help="Instead of a book, a filled interview scorecard (ids: gpuprep scorecards)."
            " Default output: gpuprep-scorecard-ID.pdf.",
            show_default=False,
        ),
    ] = None,
    mock: Annotated[
        int | None,
        typer.Option(
            "--mock",
            help="Instead of a book, a finished mock interview's report (ids: gpuprep mock"
            " --history). Default output: gpuprep-mock-ID.pdf.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """A PDF book typeset by Typst (no TeX, no browser), or a filled scorecard."""
    from gpuprep.exporters.pdf import export_pdf

    if scorecard is not None and mock is not None:
        fail("--scorecard and --mock go separately; give one", code=USAGE_ERROR, as_json=as_json)
    if scorecard is not None:
        from gpuprep.cli.scorecards import export_scorecard_pdf

        export_scorecard_pdf(scorecard, output, banks, as_json)
        return
    if mock is not None:
        from gpuprep.cli.mock import export_mock_pdf

        export_mock_pdf(mock, output, as_json)
        return

    target = output if output is not None else Path(f"gpuprep-{book.value}.pdf")
    result, preferred, seconds = _export(
        partial(export_pdf, book=book.value),
        target,
        banks,
        topic,
        kind,
        gpu,
        as_json,
        extra_steps=1,
    )
    if as_json:
        emit_json(
            {
                "path": str(result.path),
                "book": book.value,
                "questions": result.questions,
                "pages": result.pages,
                "bytes": result.size,
                "gpu": preferred,
                "seconds": round(seconds, 3),
            }
        )
        return
    typer.echo(
        f"wrote {target}: the {book.value} book, {counted(result.questions, 'question')} on "
        f"{counted(result.pages, 'page')} ({_size(result.size)}, {seconds:.1f} s)"
    )


def register(app: typer.Typer) -> None:
    """Add `export anki` and `export pdf` to the app."""
    export_app.command("anki")(anki)
    export_app.command("pdf")(pdf)
    app.add_typer(export_app, name="export")
