"""A finished mock out of the app as a PDF: `gpuprep export pdf --mock ID` typesets the saved
report (read back with pypdf), an answer full of Typst markup characters printed as typed; an
unknown or unfinished mock is refused in words."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app
from gpuprep.sessions.clock import FrozenClock
from gpuprep.sessions.mock_plan import compose
from gpuprep.sessions.mock_run import MockRun
from gpuprep.store.database import Store

pypdf = pytest.importorskip("pypdf", reason="pypdf is in the test extra")

START = datetime(2026, 12, 1, 14, 0, tzinfo=UTC)
HOSTILE = "#set text(red) $x^2$ *bold* _it_ @ref <tag> \\ back — ünïcode"


def _run(builtin_bank, home, *, finish: bool) -> MockRun:
    """A 45-minute mock: a hostile warm-up answer, a wrong estimate, the warm-up self-scored."""
    clock = FrozenClock(START)
    store = Store(home / "progress.db")
    run = MockRun.begin(store, builtin_bank, compose(builtin_bank, seed=11), clock=clock, now=clock)
    session = run.session
    session.start()
    warm_up = session.plan.sections[0].question_ids[0]
    session.type_answer(warm_up, HOSTILE)
    clock.advance(minutes=session.plan.sections[0].minutes)
    estimate = session.plan.sections[1].question_ids[0]
    session.type_answer(estimate, "1 s")
    if finish:
        session.end()
        for dimension in session.template(warm_up).dimensions:
            session.score(warm_up, dimension.name, 2)
        session.tick_signal(warm_up, 0)
        run.finish()
    store.close()
    return run


def _text(path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def test_a_finished_mock_prints_its_report_with_answers_as_typed(
    builtin_bank, isolated_gpuprep_home, tmp_path
):
    run = _run(builtin_bank, isolated_gpuprep_home, finish=True)
    target = tmp_path / "mock.pdf"

    result = CliRunner().invoke(
        app, ["export", "pdf", "--mock", str(run.id), "-o", str(target), "--json"]
    )

    assert result.exit_code == 0, result.output
    written = json.loads(result.stdout)
    assert written["mock"] == run.id and written["pages"] >= 2
    text = " ".join(_text(target).split())
    assert f"Mock interview {run.id}" in text
    assert "Self-score 2/4" in text or "Self-score 2.0/4" in text
    for question_id in run.session.plan.question_ids:
        assert question_id in text
    assert "#set text(red) $x^2$ *bold* _it_ @ref <tag>" in text
    assert "ünïcode" in text
    assert (
        "STUDY NEXT" in text and f"{run.session.plan.sections[1].question_ids[0]}: estimate" in text
    )


def test_the_same_report_gives_the_same_bytes(builtin_bank, isolated_gpuprep_home, tmp_path):
    run = _run(builtin_bank, isolated_gpuprep_home, finish=True)
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"

    for target in (first, second):
        assert (
            CliRunner()
            .invoke(app, ["export", "pdf", "--mock", str(run.id), "-o", str(target)])
            .exit_code
            == 0
        )

    assert first.read_bytes() == second.read_bytes()


def test_an_unknown_or_unfinished_mock_is_refused_and_nothing_is_written(
    builtin_bank, isolated_gpuprep_home, tmp_path
):
    run = _run(builtin_bank, isolated_gpuprep_home, finish=False)
    target = tmp_path / "mock.pdf"

    unknown = CliRunner().invoke(app, ["export", "pdf", "--mock", "99", "-o", str(target)])
    unfinished = CliRunner().invoke(
        app, ["export", "pdf", "--mock", str(run.id), "-o", str(target)]
    )

    assert unknown.exit_code == 2 and "no mock #99" in unknown.stderr
    assert unfinished.exit_code == 2
    assert f"mock #{run.id} has no report yet: it was interrupted" in unfinished.stderr
    assert not target.exists()
