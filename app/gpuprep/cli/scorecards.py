"""`gpuprep scorecards [ID] [--md] [--json] [-o FILE]`: the interviewer's saved scorecards.

Without an id, the list (candidate, set, recommendation, last change); with one, that scorecard
as Markdown (the same document the app's export writes). Scorecards are filled in the app's
interviewer screen (F6); `gpuprep export pdf --scorecard ID` prints one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gpuprep.cli.common import USAGE_ERROR, BankOption, JsonOption, emit_json, fail

if TYPE_CHECKING:
    from gpuprep.sessions.scorecard import ScorecardSession


def register(app: typer.Typer) -> None:
    """Add `gpuprep scorecards` to the app."""

    @app.command("scorecards")
    def scorecards(
        scorecard_id: Annotated[
            int | None,
            typer.Argument(
                metavar="[ID]", help="Show one scorecard (as Markdown) instead of the list."
            ),
        ] = None,
        output: Annotated[
            Path | None,
            typer.Option("--output", "-o", help="Write the scorecard's Markdown to this file."),
        ] = None,
        banks: BankOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Interview scorecards filled in the app (F6): the list, or one as Markdown."""
        from gpuprep.cli.common import load_bank_or_exit
        from gpuprep.sessions.scorecard import ScorecardError, ScorecardSession
        from gpuprep.sessions.scorecard_report import scorecard_document, scorecard_markdown
        from gpuprep.store.database import Store, StoreError
        from gpuprep.store.scorecards import ScorecardStore

        if output is not None and scorecard_id is None:
            fail(
                "-o writes one scorecard: give its id (gpuprep scorecards ID -o FILE)",
                code=USAGE_ERROR,
                as_json=as_json,
            )
        bank = load_bank_or_exit(banks, as_json=as_json)
        try:
            store = ScorecardStore(Store.open())
        except StoreError as error:
            fail(str(error), as_json=as_json)
        if scorecard_id is None:
            sessions = [ScorecardSession(bank, store, saved) for saved in store.scorecards()]
            if as_json:
                emit_json([_summary(s) for s in sessions])
                return
            if not sessions:
                typer.echo(
                    "No scorecards yet: open the app (gpuprep), press F6, pick questions and score a candidate."
                )
                return
            for session in sessions:
                item = _summary(session)
                verdict = item["recommendation"] or "not scored"
                if item["provisional"] and item["recommendation"]:
                    verdict += f" (provisional, {item['scored']}/{item['to_score']})"
                typer.echo(
                    f"{item['id']:>4}  {item['updated_at'][:16].replace('T', ' ')}  {item['candidate']}"
                    f" · {item['set'] or 'assembled'} · {len(session.question_ids)} questions · {verdict}"
                )
            return
        try:
            session = ScorecardSession.open(bank, store, scorecard_id)
        except ScorecardError as error:
            fail(str(error), code=USAGE_ERROR, as_json=as_json)
        if as_json:
            emit_json(scorecard_document(session))
            return
        text = scorecard_markdown(session)
        if output is None:
            typer.echo(text, nl=False)
            return
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as error:
            fail(f"cannot write {output}: {error.strerror or error}", code=USAGE_ERROR)
        typer.echo(f"wrote {output}: scorecard {scorecard_id} ({session.candidate}) as Markdown")


def _summary(session: ScorecardSession) -> dict[str, Any]:
    recommendation = session.recommendation
    return {
        "id": session.id,
        "candidate": session.candidate,
        "set": session.set_name,
        "questions": list(session.question_ids),
        "created_at": session.created_at.isoformat(),
        "updated_at": session.updated_at.isoformat(),
        "recommendation": recommendation.verdict or None,
        "overall": None if recommendation.overall is None else round(recommendation.overall, 3),
        "red_flags": recommendation.red_flags,
        "provisional": recommendation.provisional,
        "scored": recommendation.scored,
        "to_score": recommendation.to_score,
    }


def export_scorecard_pdf(
    scorecard_id: int, output: Path | None, banks: list[Path] | None, as_json: bool
) -> None:
    """`gpuprep export pdf --scorecard ID`: the filled scorecard as a PDF (exits on a problem)."""
    from gpuprep.cli.common import load_bank_or_exit
    from gpuprep.exporters.files import check_output
    from gpuprep.exporters.scorecard_pdf import export_scorecard_pdf as typeset_scorecard
    from gpuprep.exporters.view import ExportError
    from gpuprep.sessions.scorecard import ScorecardError, ScorecardSession
    from gpuprep.store.database import Store, StoreError
    from gpuprep.store.scorecards import ScorecardStore

    target = output if output is not None else Path(f"gpuprep-scorecard-{scorecard_id}.pdf")
    try:
        path = check_output(target)
    except ExportError as error:
        fail(error.message, code=USAGE_ERROR, as_json=as_json)
    bank = load_bank_or_exit(banks, as_json=as_json)
    try:
        store = ScorecardStore(Store.open())
    except StoreError as error:
        fail(str(error), as_json=as_json)
    try:
        session = ScorecardSession.open(bank, store, scorecard_id)
    except ScorecardError as error:
        fail(str(error), code=USAGE_ERROR, as_json=as_json)
    try:
        result = typeset_scorecard(session, path)
    except ExportError as error:
        fail(error.message, code=USAGE_ERROR if error.usage else 1, as_json=as_json)
    if as_json:
        emit_json(
            {
                "path": str(result.path),
                "scorecard": scorecard_id,
                "pages": result.pages,
                "bytes": result.size,
            }
        )
        return
    typer.echo(
        f"wrote {target}: scorecard {scorecard_id} ({session.candidate}), "
        f"{result.pages} page{'s' if result.pages != 1 else ''}"
    )
