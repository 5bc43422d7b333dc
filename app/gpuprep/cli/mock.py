"""`gpuprep mock`: a timed mock interview composed the way real loops run.

`gpuprep mock` opens it in the TUI; `--dry-run` prints the interview it would run; `--resume`
carries on the last interrupted one with the time it had used; `--history` lists past mocks;
`--report ID` prints one's report (`--md` as Markdown, to a file with `-o`). The sections'
clock runs `GPUPREP_CLOCK_SCALE` times faster than real time, for trying the whole loop in
seconds.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gpuprep.cli.common import (
    LEVELS,
    USAGE_ERROR,
    BankOption,
    JsonOption,
    emit_json,
    fail,
    load_bank_or_exit,
)
from gpuprep.cli.rubrics import check_choice

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.sessions.clock import Clock
    from gpuprep.sessions.mock_plan import MockPlan
    from gpuprep.store.database import Store

#: The same values as gpuprep.sessions.mock_plan's, kept here so that `--help` imports no session.
MOCK_MINUTES = (45, 60, 90)
TRACKS = ("kernel", "inference", "training", "general")


def _show(plan: MockPlan) -> None:
    level = f" {plan.level}" if plan.level else ""
    typer.echo(
        f"A {plan.minutes}-minute{level} {plan.track} mock, seed {plan.seed}"
        f" ({plan.total_minutes} min of questions):"
    )
    for number, section in enumerate(plan.sections, 1):
        typer.echo(
            f"  {number}. {section.title}, {section.minutes} min: {', '.join(section.question_ids)}"
        )
    if plan.weak_topics:
        typer.echo(f"Your weak topics were drawn more often: {', '.join(plan.weak_topics)}.")
    for note in plan.notes:
        typer.echo(f"Note: {note}.")


def _open_store(as_json: bool) -> Store:
    from gpuprep.store.database import Store, StoreError

    try:
        store = Store.open()
    except StoreError as error:
        fail(str(error), as_json=as_json)
    if store.recovery_message:
        typer.echo(store.recovery_message, err=True)
    return store


def _mock_clock() -> Clock:
    """Real time, or real time sped up by GPUPREP_CLOCK_SCALE."""
    from gpuprep.sessions.clock import CLOCK_SCALE_VARIABLE, ScaledClock, clock_scale, system_clock

    try:
        scale = clock_scale(os.environ.get(CLOCK_SCALE_VARIABLE))
    except ValueError as error:
        fail(str(error), code=USAGE_ERROR)
    return system_clock if scale == 1.0 else ScaledClock(scale)


def _settings_gpu(bank: Bank) -> str | None:
    from gpuprep.settings import SettingsError, load_settings

    try:
        gpu = load_settings().gpu
    except SettingsError:
        return None
    return gpu if gpu in bank.hardware else None


def _history(as_json: bool) -> None:
    from gpuprep.sessions.mock_markdown import clock_text, score_text
    from gpuprep.sessions.mock_run import history
    from gpuprep.store.mocks import MockStore

    store = _open_store(as_json)
    try:
        mocks = history(store)
        resumable = MockStore(store).latest_unfinished()
    finally:
        store.close()
    if as_json:
        emit_json({"mocks": [summary.to_json() for summary in mocks]})
        return
    if not mocks:
        typer.echo("No mock interviews yet: `gpuprep mock` starts one.")
        return
    for summary in mocks:
        state = ""
        if not summary.finished:
            resume = resumable is not None and resumable.id == summary.id
            state = " · interrupted" + (": `gpuprep mock --resume`" if resume else "")
        verdicts = ", ".join(f"{n} {verdict}" for verdict, n in summary.verdicts.items())
        study = f" · study {', '.join(summary.study_next[:3])}" if summary.study_next else ""
        typer.echo(
            f"#{summary.id}  {summary.started_at:%Y-%m-%d %H:%M}  {summary.minutes} min"
            f" {summary.track} · {clock_text(summary.seconds_used)} used"
            + (f" · self-score {score_text(summary.score)}" if summary.finished else "")
            + (f" · {verdicts}" if verdicts else "")
            + study
            + state
        )


def _saved_mock(mock_id: int, as_json: bool) -> tuple[Any, Any]:
    """A saved mock's report and its record, or exit 2 naming what is wrong with the id."""
    from gpuprep.sessions.mock_plan import MockError
    from gpuprep.sessions.mock_run import saved_report
    from gpuprep.store.mocks import MockStore

    store = _open_store(as_json)
    try:
        return saved_report(store, mock_id), MockStore(store).get(mock_id)
    except MockError as error:
        fail(str(error), code=USAGE_ERROR, as_json=as_json)
    finally:
        store.close()


def _report(mock_id: int, markdown: bool, output: Path | None, as_json: bool) -> None:
    from gpuprep.sessions.mock_markdown import report_markdown

    report, saved = _saved_mock(mock_id, as_json)
    if as_json:
        emit_json({"id": mock_id, **report.to_json()})
        return
    text = report_markdown(
        report, mock_id=mock_id, started_at=saved.started_at if saved is not None else None
    )
    if output is None:
        typer.echo(text, nl=False)
        return
    from gpuprep.exporters.files import check_output, write_atomically
    from gpuprep.exporters.view import ExportError

    try:
        write_atomically(check_output(output), text.encode("utf-8"))
    except ExportError as error:
        fail(error.message, code=USAGE_ERROR if error.usage else 1)
    typer.echo(f"wrote {output}: the report of mock #{mock_id}, as Markdown")


def _run(store: Store, bank: Bank, run: Any, *, left_behind: int | None = None) -> None:
    from gpuprep.tui.app import make_app

    app = make_app(bank=bank, store=store, mock=run, gpu=run.session.gpu)
    try:
        app.run()
    finally:
        store.close()
    if run.report is not None:
        typer.echo(
            f"Mock #{run.id} finished: `gpuprep mock --report {run.id} --md` prints its report."
        )
    else:
        typer.echo(f"Mock #{run.id} saved with the time it has used: `gpuprep mock --resume`.")
    if left_behind is not None:
        typer.echo(
            f"Mock #{left_behind}, left unfinished before this one, stays in `gpuprep mock"
            " --history`; --resume carries on the one worked on last.",
            err=True,
        )


def register(app: typer.Typer) -> None:
    """Add `gpuprep mock` to the app."""

    @app.command("mock")
    def mock(
        minutes: Annotated[
            int, typer.Option("--minutes", "-m", help="Length: 45, 60 or 90 minutes.")
        ] = 45,
        track: Annotated[
            str, typer.Option("--track", help=f"Which loop: {', '.join(TRACKS)}.")
        ] = "general",
        level: Annotated[
            str | None,
            typer.Option(
                "--level", "-l", help=f"Questions at this level or easier: {', '.join(LEVELS)}."
            ),
        ] = None,
        seed: Annotated[
            int | None,
            typer.Option(
                "--seed",
                help="The same seed gives the same interview (your history is then left out).",
                show_default=False,
            ),
        ] = None,
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help="Show the interview it would run; start nothing.")
        ] = False,
        resume: Annotated[
            bool,
            typer.Option(
                "--resume", help="Carry on the last interrupted mock, with its time used."
            ),
        ] = False,
        show_history: Annotated[
            bool, typer.Option("--history", help="List past mocks with their scores.")
        ] = False,
        report_id: Annotated[
            int | None,
            typer.Option("--report", help="Print the report of mock ID.", show_default=False),
        ] = None,
        markdown: Annotated[
            bool, typer.Option("--md", help="With --report: the report as Markdown.")
        ] = False,
        output: Annotated[
            Path | None,
            typer.Option(
                "--output", "-o", help="With --report: write it to this file.", show_default=False
            ),
        ] = None,
        banks: BankOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """A timed mock interview the way real loops run (warm-up concepts, an estimation, a
        debugging scenario, a kernel drill, a design question), fitted to the minutes given, in
        the app. GPUPREP_CLOCK_SCALE=60 runs its clock 60 times faster, to try it."""
        chosen = [flag for flag, on in (("--resume", resume), ("--history", show_history),
                  ("--report", report_id is not None), ("--dry-run", dry_run)) if on]  # fmt: skip
        if len(chosen) > 1:
            fail(
                f"{' and '.join(chosen)} go separately; give one", code=USAGE_ERROR, as_json=as_json
            )
        if (markdown or output is not None) and report_id is None:
            fail("--md and -o go with --report ID", code=USAGE_ERROR, as_json=as_json)
        if show_history:
            _history(as_json)
            return
        if report_id is not None:
            _report(report_id, markdown, output, as_json)
            return
        if minutes not in MOCK_MINUTES:
            fail(
                f"--minutes {minutes}: a mock lasts {', '.join(map(str, MOCK_MINUTES))} minutes",
                code=USAGE_ERROR,
                as_json=as_json,
            )
        check_choice("track", track, TRACKS, as_json)
        check_choice("level", level, LEVELS, as_json)
        if as_json and not dry_run:
            fail(
                "--json goes with --dry-run, --history or --report; the mock itself runs in the app",
                code=USAGE_ERROR,
                as_json=as_json,
            )
        from gpuprep.sessions.checked_bank import load_checked_bank
        from gpuprep.sessions.clock import system_clock
        from gpuprep.sessions.drill_report import nvidia_gpu_listed
        from gpuprep.sessions.mock_plan import MockError, choose_mock
        from gpuprep.sessions.mock_run import MockRun

        clock = _mock_clock() if not dry_run else system_clock
        bank = load_bank_or_exit(banks, as_json=as_json, loader=load_checked_bank)
        if resume:
            resumed = _open_store(as_json)
            try:
                run = MockRun.resume(resumed, bank, clock=clock)
            except MockError as error:
                resumed.close()
                fail(str(error), code=USAGE_ERROR)
            _run(resumed, bank, run)
            return
        history = None
        store: Store | None = None
        if seed is None or not dry_run:
            store = _open_store(as_json)
            if seed is None:
                history = (store.cards(), store.attempts())
        try:
            plan = choose_mock(
                bank,
                minutes=minutes,
                track=track,
                level=level,
                seed=seed,
                history=history,
                now=system_clock(),
                cuda_gpu=nvidia_gpu_listed(),
            )
        except MockError as error:
            if store is not None:
                store.close()
            fail(str(error), code=USAGE_ERROR, as_json=as_json)
        if dry_run:
            if store is not None:
                store.close()
            if as_json:
                emit_json(plan.to_json())
            else:
                _show(plan)
                typer.echo("Dry run: nothing started.")
            return
        assert store is not None
        from gpuprep.store.mocks import MockStore

        unfinished = MockStore(store).latest_unfinished()
        run = MockRun.begin(store, bank, plan, clock=clock, gpu=_settings_gpu(bank))
        _run(store, bank, run, left_behind=unfinished.id if unfinished is not None else None)


def export_mock_pdf(mock_id: int, output: Path | None, as_json: bool) -> None:
    """`gpuprep export pdf --mock ID`: a finished mock's report as a PDF (exits on a problem)."""
    from gpuprep.exporters.files import check_output
    from gpuprep.exporters.mock_pdf import export_mock_pdf as typeset_mock
    from gpuprep.exporters.mock_pdf import mock_document
    from gpuprep.exporters.view import ExportError
    from gpuprep.sessions.mock_markdown import section_ended, section_outcome

    target = output if output is not None else Path(f"gpuprep-mock-{mock_id}.pdf")
    try:
        path = check_output(target)
    except ExportError as error:
        fail(error.message, code=USAGE_ERROR, as_json=as_json)
    report, saved = _saved_mock(mock_id, as_json)
    assert saved is not None and saved.finished_at is not None
    document = mock_document(
        report.to_json(),
        mock_id,
        saved.started_at,
        [(section_ended(s), section_outcome(s)) for s in report.sections],
    )
    try:
        result = typeset_mock(document, path, int(saved.finished_at.timestamp()))
    except ExportError as error:
        fail(error.message, code=USAGE_ERROR if error.usage else 1, as_json=as_json)
    if as_json:
        emit_json(
            {"path": str(result.path), "mock": mock_id, "pages": result.pages, "bytes": result.size}
        )
        return
    typer.echo(
        f"wrote {target}: the report of mock {mock_id}, "
        f"{result.pages} page{'s' if result.pages != 1 else ''}"
    )
