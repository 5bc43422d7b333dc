"""A filled interview scorecard as a PDF (`gpuprep export pdf --scorecard ID`), typeset by Typst.

The data is the scorecard's report document (`sessions.scorecard_report.scorecard_document`),
the same one the Markdown export and `gpuprep scorecards ID --json` use; it reaches Typst as
JSON through `sys.inputs`, and every string is placed as text, never as markup, so a candidate's
name or a note full of `#`, `$`, `*` or `_` prints as typed. The PDF's date is the scorecard's
last change, so the same scorecard gives the same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gpuprep.exporters.files import write_atomically
from gpuprep.exporters.view import ExportError

if TYPE_CHECKING:
    from gpuprep.sessions.scorecard import ScorecardSession

SOURCE = r"""
#let d = json(bytes(sys.inputs.data))
#let grey = luma(95)
#let faint = luma(235)
#set document(title: "Scorecard " + str(d.id) + ": " + d.candidate, author: "gpuprep")
#set page(paper: "a4", margin: (x: 20mm, y: 18mm), numbering: "1 / 1", number-align: center)
#set text(font: "Libertinus Serif", size: 10.5pt, lang: "en")
#set par(justify: false, leading: 0.6em)
#show raw: set text(font: "DejaVu Sans Mono", size: 8.5pt)

#let label(body) = block(above: 0.9em, below: 0.4em, sticky: true,
  text(size: 8.5pt, weight: "bold", fill: grey, upper(body)))

#text(size: 20pt, weight: "bold")[Scorecard #str(d.id): #d.candidate]
#v(1mm)
#text(fill: grey)[Set: #(if d.set == "" { "assembled for this interview" } else { d.set }) · started #d.created_at.slice(0, 16).replace("T", " ") UTC · last change #d.updated_at.slice(0, 16).replace("T", " ") UTC]

#block(width: 100%, fill: faint, inset: 8pt, radius: 3pt, above: 1em, {
  text(size: 14pt, weight: "bold")[Recommendation: #upper(if d.recommendation == none { "none yet" } else { d.recommendation })]
  if d.provisional [ #text(fill: grey)[(provisional: #str(d.scored) of #str(d.to_score) dimensions scored)]]
  linebreak()
  [Overall #(if d.overall == none { "not scored" } else { str(calc.round(d.overall, digits: 2)) }) of 4 · red flags #str(d.red_flags) · strong signals heard #str(d.signals)]
  if d.reasons.len() > 0 { linebreak(); [Why: #d.reasons.join("; ")] }
})
#text(size: 8.5pt, fill: grey)[How the recommendation is computed: #d.rule]

#if d.notes != "" { label("Notes"); d.notes }

#for (n, q) in d.questions.enumerate(start: 1) {
  block(above: 1.6em, below: 0.5em, sticky: true,
    text(size: 13pt, weight: "bold")[#str(n). #q.title])
  text(size: 9pt, fill: grey)[#raw(q.id) · #q.kind · #q.level · score #(if q.score == none { "not scored" } else { str(calc.round(q.score, digits: 2)) })]
  if q.dimensions.len() > 0 {
    label("Levels" + if q.template != none { " (" + q.template + ")" } else { "" })
    table(columns: (auto, auto, 1fr), stroke: 0.4pt + grey, inset: 4pt,
      [*Dimension*], [*Level*], [*What that level sounds like*],
      ..q.dimensions.map(x => (x.name, if x.level == none { "-" } else { str(x.level) }, x.descriptor)).flatten())
  }
  label("Strong signals")
  list(tight: true, marker: [],
    ..q.signals.map(s => if s.heard [☑ #s.text] else [☐ #s.text]))
  if q.red_flags.len() > 0 { label("Red flags seen"); list(tight: true, ..q.red_flags) }
  if q.notes != "" { label("Notes"); q.notes }
}
"""


@dataclass(frozen=True)
class ScorecardPdf:
    """What the export wrote."""

    path: Path
    scorecard_id: int
    pages: int
    size: int


def export_scorecard_pdf(session: ScorecardSession, path: Path) -> ScorecardPdf:
    """Typeset the scorecard and write it at `path` (atomically); raises :class:`ExportError`."""
    import typst

    from gpuprep.exporters.pdf import page_count
    from gpuprep.sessions.scorecard_report import scorecard_document

    document = scorecard_document(session)
    try:
        pdf = typst.compile(
            SOURCE.encode(),
            format="pdf",
            sys_inputs={"data": json.dumps(document, ensure_ascii=False)},
            timestamp=int(session.updated_at.timestamp()),
        )
    except typst.TypstError as error:
        raise ExportError(
            f"typst could not typeset scorecard {session.id}: {error.message}"
        ) from None
    if not isinstance(pdf, bytes):  # pragma: no cover - PDF is one document
        raise ExportError("typst returned pages instead of one PDF")
    write_atomically(path, pdf)
    return ScorecardPdf(path, session.id, page_count(pdf), len(pdf))
