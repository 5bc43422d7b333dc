"""Scorecards out of the app: `gpuprep scorecards` lists them and prints one as Markdown, and
`gpuprep export pdf --scorecard ID` typesets one (read back with pypdf), markup characters and all."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app
from gpuprep.sessions.clock import FrozenClock
from gpuprep.sessions.scorecard import ScorecardSession
from gpuprep.store.database import Store
from gpuprep.store.scorecards import ScorecardStore

pypdf = pytest.importorskip("pypdf", reason="pypdf is in the test extra")

START = datetime(2026, 12, 1, 14, 0, tzinfo=UTC)
HOSTILE = "#set text(red) $x^2$ *bold* _it_ @ref <tag> \\ back — ünïcode"


@pytest.fixture
def filled(builtin_bank, isolated_gpuprep_home):
    """A scorecard in the test's gpuprep home: two questions, one fully scored, hostile notes."""
    store = Store(isolated_gpuprep_home / "progress.db")
    ids = tuple(next(q.id for q in builtin_bank.questions.values() if q.kind == k) for k in ("estimation", "design"))
    session = ScorecardSession.start(
        builtin_bank, ScorecardStore(store), f"Ada {HOSTILE}", ids, set_name="onsite", clock=FrozenClock(START)
    )
    for dimension in session.dimensions(ids[0]):
        session.score(ids[0], dimension, 3)
    session.toggle_signal(ids[0], 0)
    session.toggle_red_flag(ids[1], 0)
    session.note(ids[0], HOSTILE)
    yield session
    store.close()


def test_scorecards_lists_each_with_its_recommendation(filled):
    result = CliRunner().invoke(app, ["scorecards", "--json"])
    assert result.exit_code == 0, result.output
    (item,) = json.loads(result.output)
    assert item["id"] == filled.id and item["candidate"].startswith("Ada ")
    assert item["recommendation"] == "hire" and item["provisional"] is True
    text = CliRunner().invoke(app, ["scorecards"]).output
    assert f"{filled.id}" in text and "hire (provisional" in text


def test_one_scorecard_prints_as_markdown_or_goes_to_a_file(filled, tmp_path):
    shown = CliRunner().invoke(app, ["scorecards", str(filled.id)])
    assert shown.exit_code == 0
    assert shown.output.startswith(f"# Scorecard {filled.id}: Ada #set text(red)")
    out = tmp_path / "card.md"
    written = CliRunner().invoke(app, ["scorecards", str(filled.id), "-o", str(out)])
    assert written.exit_code == 0 and out.read_text() == shown.output


def test_an_unknown_scorecard_is_a_usage_error_naming_the_saved_ones(filled):
    result = CliRunner().invoke(app, ["scorecards", "99"])
    assert result.exit_code == 2 and f"no scorecard 99 (saved: {filled.id})" in result.output
    result = CliRunner().invoke(app, ["export", "pdf", "--scorecard", "99", "-o", "x.pdf"])
    assert result.exit_code == 2 and "no scorecard 99" in result.output


def test_export_pdf_scorecard_typesets_the_filled_card_with_markup_as_text(filled, builtin_bank, tmp_path):
    out = tmp_path / "card.pdf"
    result = CliRunner().invoke(app, ["export", "pdf", "--scorecard", str(filled.id), "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    reader = pypdf.PdfReader(out)
    assert report["pages"] == len(reader.pages) >= 1
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "Recommendation: HIRE" in text
    assert "#set text(red) $x^2$ *bold* _it_ @ref <tag>" in text  # printed, not obeyed
    first = builtin_bank.questions[filled.question_ids[0]]
    assert first.id in text
    assert " ".join(first.rubric.strong_signals[0].split()[:4]) in text
    template = filled.template(first.id)
    assert " ".join(template.dimensions[0].levels[3].split()[:4]) in text


def test_an_unwritable_output_is_refused_before_any_work(filled, tmp_path):
    result = CliRunner().invoke(
        app, ["export", "pdf", "--scorecard", str(filled.id), "-o", str(tmp_path / "missing" / "x.pdf")]
    )
    assert result.exit_code == 2 and "does not exist" in result.output
