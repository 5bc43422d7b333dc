"""A filled scorecard as a report: one document for Markdown, the CLI, `--json` and the PDF.

`scorecard_document` lays out everything an interviewer hands on (per question: the signals
heard and missed, the red flags seen, each dimension's level with its descriptor, notes; then
the recommendation and the rule that gave it); `scorecard_markdown` writes it as Markdown.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from gpuprep.paths import gpuprep_home
from gpuprep.sessions.scorecard import RULE, ScorecardSession


def scorecard_document(session: ScorecardSession) -> dict[str, Any]:
    """The scorecard as plain data (what `--json` prints and the PDF typesets)."""
    recommendation = session.recommendation
    questions = []
    for qid in session.question_ids:
        question = session.question(qid)
        score = session.scores[qid]
        template = session.template(qid)
        dimensions = []
        for dimension in template.dimensions if template is not None else []:
            level = score.levels.get(dimension.name)
            dimensions.append(
                {
                    "name": dimension.name,
                    "level": level,
                    "descriptor": dimension.levels.get(level, "") if level is not None else "",
                }
            )
        rubric = question.rubric
        questions.append(
            {
                "id": qid,
                "title": question.title,
                "kind": question.kind,
                "level": question.level,
                "template": template.title if template is not None else None,
                "score": score.score,
                "signals": [
                    {"text": signal, "heard": i in score.signals}
                    for i, signal in enumerate(rubric.strong_signals)
                ],
                "signals_heard": [rubric.strong_signals[i] for i in sorted(score.signals)],
                "signals_missed": [
                    s for i, s in enumerate(rubric.strong_signals) if i not in score.signals
                ],
                "red_flags": [rubric.red_flags[i] for i in sorted(score.red_flags)],
                "dimensions": dimensions,
                "notes": score.notes,
            }
        )
    return {
        "id": session.id,
        "candidate": session.candidate,
        "set": session.set_name,
        "created_at": session.created_at.isoformat(),
        "updated_at": session.updated_at.isoformat(),
        "recommendation": recommendation.verdict or None,
        "provisional": recommendation.provisional,
        "overall": None if recommendation.overall is None else round(recommendation.overall, 3),
        "red_flags": recommendation.red_flags,
        "signals": recommendation.signals,
        "scored": recommendation.scored,
        "to_score": recommendation.to_score,
        "reasons": list(recommendation.reasons),
        "rule": RULE,
        "notes": session.notes,
        "questions": questions,
        "missing_questions": list(session.missing),
    }


def _score(value: float | None) -> str:
    return "not scored" if value is None else f"{value:.2f}"


def scorecard_markdown(session: ScorecardSession) -> str:
    """The scorecard as a Markdown document."""
    doc = scorecard_document(session)
    verdict = doc["recommendation"] or "none yet"
    lines = [
        f"# Scorecard {doc['id']}: {doc['candidate']}",
        "",
        f"- Set: {doc['set'] or '(assembled for this interview)'}",
        f"- Started: {session.created_at:%Y-%m-%d %H:%M} UTC; last change: {session.updated_at:%Y-%m-%d %H:%M} UTC",
        f"- **Recommendation: {verdict}**"
        + (
            f" (provisional: {doc['scored']} of {doc['to_score']} dimensions scored)"
            if doc["provisional"]
            else ""
        ),
        f"- Overall: {_score(doc['overall'])} of 4; red flags: {doc['red_flags']}; strong signals heard: {doc['signals']}",
    ]
    if doc["reasons"]:
        lines.append(f"- Why: {'; '.join(doc['reasons'])}")
    lines += ["", f"_How the recommendation is computed_: {RULE}", ""]
    if doc["notes"]:
        lines += ["## Notes", "", doc["notes"], ""]
    for number, question in enumerate(doc["questions"], start=1):
        lines += [
            f"## {number}. {question['title']}",
            "",
            f"`{question['id']}` · {question['kind']} · {question['level']} · score {_score(question['score'])}",
            "",
        ]
        if question["dimensions"]:
            lines += ["| Dimension | Level | What that level sounds like |", "|---|---|---|"]
            for dimension in question["dimensions"]:
                level = dimension["level"] if dimension["level"] is not None else "-"
                descriptor = dimension["descriptor"].replace("|", "\\|")
                lines.append(f"| {dimension['name']} | {level} | {descriptor} |")
            lines.append("")
        lines += ["Strong signals (ticked: heard):", ""]
        lines += [f"- [{'x' if s['heard'] else ' '}] {s['text']}" for s in question["signals"]]
        lines.append("")
        if question["red_flags"]:
            lines += (
                ["Red flags seen:", ""] + [f"- {flag}" for flag in question["red_flags"]] + [""]
            )
        if question["notes"]:
            lines += ["Notes:", "", question["notes"], ""]
    if doc["missing_questions"]:
        lines.append(f"_Not in the bank any more_: {', '.join(doc['missing_questions'])}")
    return "\n".join(lines).rstrip() + "\n"


def markdown_path(session: ScorecardSession) -> Path:
    """Where the app writes a scorecard's Markdown: <gpuprep home>/exports/scorecard-ID-NAME.md."""
    name = "".join(c if c.isalnum() else "-" for c in session.candidate.lower()).strip("-")
    return gpuprep_home() / "exports" / f"scorecard-{session.id}-{name or 'candidate'}.md"


def write_markdown(session: ScorecardSession, path: Path | None = None) -> Path:
    """Write the scorecard's Markdown (by default at :func:`markdown_path`), replacing the file
    only once the new one is complete; returns the path."""
    target = path or markdown_path(session)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".part"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(scorecard_markdown(session))
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target
