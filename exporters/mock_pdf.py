"""A mock interview's report as a PDF (`gpuprep export pdf --mock ID`), typeset by Typst.

The data is the saved report (`MockReport.to_json`, the one `gpuprep mock --report ID --json`
prints and the Markdown is written from); it reaches Typst as JSON through `sys.inputs`, and
every string is placed as text, never as markup, so an answer full of `#`, `$`, `*`, `_` or `<`
prints as typed. The PDF's date is the mock's end, so the same report gives the same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from gpuprep.exporters.files import write_atomically
from gpuprep.exporters.view import ExportError

SOURCE = r"""
#let d = json(bytes(sys.inputs.data))
#let grey = luma(95)
#let faint = luma(235)
#set document(title: "Mock interview " + str(d.id), author: "gpuprep")
#set page(paper: "a4", margin: (x: 20mm, y: 18mm), numbering: "1 / 1", number-align: center)
#set text(font: "Libertinus Serif", size: 10.5pt, lang: "en")
#set par(justify: false, leading: 0.6em)
#show raw: set text(font: "DejaVu Sans Mono", size: 8.5pt)

#let label(body) = block(above: 0.9em, below: 0.4em, sticky: true,
  text(size: 8.5pt, weight: "bold", fill: grey, upper(body)))
#let clock(s) = {
  let t = calc.max(int(s), 0)
  str(calc.quo(t, 60)) + ":" + (if calc.rem(t, 60) < 10 { "0" } else { "" }) + str(calc.rem(t, 60))
}
#let score(x) = if x == none { "not scored" } else { str(calc.round(x, digits: 1)) + "/4" }

#text(size: 20pt, weight: "bold")[Mock interview #str(d.id)]
#v(1mm)
#text(fill: grey)[#d.started · #str(d.plan.minutes)-minute #(if d.plan.level != none { d.plan.level + " " } else { "" })#d.plan.track loop · seed #str(d.plan.seed)#(if d.gpu != none { " · estimates for " + d.gpu } else { "" })]

#block(width: 100%, fill: faint, inset: 8pt, radius: 3pt, above: 1em, {
  text(size: 14pt, weight: "bold")[Self-score #score(d.score)]
  linebreak()
  [Time used #clock(d.seconds_used) of #clock(d.given * 60)#(if d.verdicts != "" { " · " + d.verdicts } else { "" })]
})

#label("Sections")
#table(columns: (auto, 1fr, auto, auto, auto, auto), stroke: 0.4pt + grey, inset: 4pt,
  [*\#*], [*Section*], [*Given*], [*Used*], [*Ended*], [*Outcome*],
  ..d.sections.enumerate(start: 1).map(((n, s)) => (
    str(n), s.title, str(s.minutes) + ":00", clock(s.seconds_used), s.ended, s.outcome,
  )).flatten())

#label("Study next")
#if d.study_next.len() == 0 [Nothing stood out: every answer was graded right or self-scored 3 or more.]
#enum(..d.study_next.map(item => [*#item.title* (#raw(item.topic))
  #list(tight: true, ..item.reasons)]))

#if d.weak_dimensions.len() > 0 {
  label("Weak rubric dimensions")
  list(tight: true, ..d.weak_dimensions.map(w => w.at(1) + " (" + w.at(0) + "): " + str(w.at(2)) + "/4"))
}

#for (n, s) in d.sections.enumerate(start: 1) {
  block(above: 1.6em, below: 0.5em, sticky: true, text(size: 14pt, weight: "bold")[#str(n). #s.title])
  for q in s.questions {
    block(above: 1.2em, below: 0.4em, sticky: true, text(size: 12pt, weight: "bold", q.title))
    text(size: 9pt, fill: grey)[#raw(q.question_id) · #(if q.topic != none { q.topic } else { "no topic" }) · #q.kind]
    if q.kind != "coding" or q.answer != "" {
      label("Your answer")
      if q.answer.trim() == "" { text(fill: grey)[(nothing typed)] } else {
        block(width: 100%, fill: faint, inset: 6pt, radius: 3pt, q.answer)
      }
    }
    if q.verdict != none {
      label("Verdict")
      [#q.verdict#(if q.verdict_message != "" { ": " + q.verdict_message } else { "" })]
    }
    if q.levels.len() > 0 {
      label("Self-score " + score(q.score))
      list(tight: true, ..q.dimensions.filter(x => x in q.levels).map(x => x + ": " + str(q.levels.at(x)) + "/4"))
    }
    if q.signals_hit.len() > 0 or q.levels.len() > 0 {
      label("Strong signals")
      list(tight: true, marker: [], ..q.signals_hit.map(x => [☑ #x]), ..q.signals_missed.map(x => [☐ #x]))
    }
    if q.red_flags.len() > 0 { label("Red flags"); list(tight: true, ..q.red_flags) }
  }
}
"""


@dataclass(frozen=True)
class MockPdf:
    """What the export wrote."""

    path: Path
    mock_id: int
    pages: int
    size: int


def mock_document(
    report: dict[str, Any], mock_id: int, started_at: datetime, outcomes: list[tuple[str, str]]
) -> dict[str, Any]:
    """The report as the template reads it: the saved JSON with the id, the start, and each
    section's way of ending and outcome in words (`outcomes`, from the Markdown report's rules)."""
    verdicts: dict[str, int] = {}
    for section in report["sections"]:
        for question in section["questions"]:
            if question["verdict"] is not None:
                verdicts[question["verdict"]] = verdicts.get(question["verdict"], 0) + 1
    return {
        **report,
        "id": mock_id,
        "started": started_at.strftime("%Y-%m-%d %H:%M UTC"),
        "given": sum(section["minutes"] for section in report["sections"]),
        "verdicts": ", ".join(f"{n} {verdict}" for verdict, n in verdicts.items()),
        "sections": [
            {**section, "ended": ended, "outcome": outcome}
            for section, (ended, outcome) in zip(report["sections"], outcomes, strict=True)
        ],
    }


def export_mock_pdf(document: dict[str, Any], path: Path, timestamp: int) -> MockPdf:
    """Typeset the report document and write it at `path` (atomically); raises :class:`ExportError`."""
    import typst

    from gpuprep.exporters.pdf import page_count

    try:
        pdf = typst.compile(
            SOURCE.encode(),
            format="pdf",
            sys_inputs={"data": json.dumps(document, ensure_ascii=False)},
            timestamp=timestamp,
        )
    except typst.TypstError as error:
        detail = "; ".join(part for part in [error.message, *getattr(error, "hints", [])] if part)
        raise ExportError(
            f"typst could not typeset the report of mock {document['id']}: {detail}"
        ) from None
    if not isinstance(pdf, bytes):  # pragma: no cover - PDF is one document
        raise ExportError("typst returned pages instead of one PDF")
    write_atomically(path, pdf)
    return MockPdf(path, document["id"], page_count(pdf), len(pdf))
