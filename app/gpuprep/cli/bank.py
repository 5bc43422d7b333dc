"""`gpuprep bank check | schema | stats`: keep a question bank healthy."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from gpuprep.cli.common import BankOption, JsonOption, emit_json, extra_banks, fail
from gpuprep.wording import counted

bank_app = typer.Typer(
    help="Check, describe and export the schema of question banks.", no_args_is_help=True
)


@bank_app.command("check")
def check(banks: BankOption = None, as_json: JsonOption = False) -> None:
    """Report every problem in the bank as `path:line: where: what`; exit 1 if any (warnings,
    such as a trap inside its correct band, are printed but do not fail)."""
    from gpuprep.bank.loader import load_bank
    from gpuprep.estimate.bank_check import check_bank_with_warnings

    bank, problems = load_bank(extra_banks(banks))
    found, warnings = check_bank_with_warnings(bank)
    problems = sorted(problems + found)
    if as_json:
        emit_json(
            {
                "ok": not problems,
                "problems": [p.to_json() for p in problems],
                "warnings": [w.to_json() for w in warnings],
                "questions": len(bank.questions),
            }
        )
    else:
        for problem in problems:
            typer.echo(str(problem))
        for warning in warnings:
            typer.echo(f"warning: {warning}", err=True)
        if problems:
            typer.echo(f"{counted(len(problems), 'problem')} found.", err=True)
        else:
            typer.echo(
                f"ok: {len(bank.questions)} questions in {len(bank.topics)} topics, {len(bank.hardware)} GPUs, "
                f"{counted(len(bank.drills), 'drill')}, {counted(len(bank.rubrics), 'rubric template')}, {counted(len(bank.plans), 'plan')}"
            )
    raise typer.Exit(1 if problems else 0)


@bank_app.command("schema")
def schema(
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder to write one .schema.json per file type into."),
    ] = None,
) -> None:
    """Write the JSON Schema of each bank file type (for editors); stdout without --out."""
    from gpuprep.bank.schema import SCHEMAS, schema_documents

    documents = schema_documents()
    if out is None:
        emit_json(documents)
        return
    import json

    try:
        out.mkdir(parents=True, exist_ok=True)
        for name in SCHEMAS:
            path = out / f"{name}.schema.json"
            path.write_text(json.dumps(documents[name], indent=2) + "\n", encoding="utf-8")
            typer.echo(f"wrote {path}")
    except OSError as error:
        where = error.filename or out
        fail(
            f"--out {out}: cannot write {where} ({error.strerror or error}); choose another folder"
        )


@bank_app.command("stats")
def stats(banks: BankOption = None, as_json: JsonOption = False) -> None:
    """Count questions by kind and topic."""
    from gpuprep.cli.common import load_bank_or_exit

    bank = load_bank_or_exit(banks, as_json=as_json)
    questions = list(bank.questions.values())
    by_kind = Counter(q.kind for q in questions)
    by_topic = Counter(q.topic for q in questions)
    ids_by_kind: dict[str, list[str]] = {}
    for q in questions:
        ids_by_kind.setdefault(q.kind, []).append(q.id)
    if as_json:
        emit_json(
            {
                "questions": len(questions),
                "by_kind": dict(sorted(by_kind.items())),
                "by_topic": dict(sorted(by_topic.items())),
                "plans": len(bank.plans),
                "ids": [q.id for q in questions],
                "ids_by_kind": ids_by_kind,
            }
        )
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"{counted(len(questions), 'question')}, {counted(len(bank.topics), 'topic')}, {counted(len(bank.plans), 'plan')}"
    )
    table = Table("topic", *sorted(by_kind), "total")
    for topic in sorted(bank.topics):
        counts = Counter(q.kind for q in questions if q.topic == topic)
        table.add_row(
            topic, *(str(counts.get(k, 0)) for k in sorted(by_kind)), str(sum(counts.values()))
        )
    console.print(table)


def register(app: typer.Typer) -> None:
    app.add_typer(bank_app, name="bank")
