"""A mock interview's report as Markdown: what the TUI shows at the end, and `--report ID --md`.

One text for both, so the report a candidate reads in the app is the one they export.
"""

from __future__ import annotations

from datetime import datetime

from gpuprep.sessions.mock_report import MockReport, QuestionResult, SectionResult


def clock_text(seconds: float) -> str:
    """'7:05' (minutes:seconds), '1:02:03' past an hour; never negative."""
    whole = max(int(seconds), 0)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def score_text(score: float | None) -> str:
    return f"{score:.1f}/4" if score is not None else "not scored"


def section_outcome(section: SectionResult) -> str:
    """'correct, wrong' for graded sections, '2.5/4' for self-scored ones."""
    parts = list(section.verdicts)
    if section.score is not None:
        parts.append(score_text(section.score))
    return ", ".join(parts) or "not scored"


def section_ended(section: SectionResult) -> str:
    """How a section ended: 'time up', 'moved on', or 'not reached' (the mock ended before it)."""
    if section.time_up:
        return "time up"
    return "moved on" if section.reached else "not reached"


def _quote(text: str) -> str:
    lines = text.strip().splitlines() or [""]
    return "\n".join(f"> {line}" if line.strip() else ">" for line in lines)


def _question(number: str, q: QuestionResult) -> list[str]:
    lines = [
        f"### {number} {q.title}",
        "",
        f"`{q.question_id}` · {q.topic or 'no topic'} · {q.kind}",
        "",
    ]
    if q.kind != "coding":
        lines += [
            "**Your answer**",
            "",
            _quote(q.answer) if q.answer.strip() else "*(nothing typed)*",
            "",
        ]
    if q.verdict is not None:
        if q.verdict_message.startswith(q.verdict):  # a drill's headline names its verdict
            lines += [f"**Verdict:** {q.verdict_message}", ""]
        else:
            message = f": {q.verdict_message}" if q.verdict_message else ""
            lines += [f"**Verdict:** {q.verdict}{message}", ""]
    if q.levels:
        scored = ", ".join(f"{name} {q.levels[name]}" for name in q.dimensions if name in q.levels)
        lines += [f"**Self-score:** {score_text(q.score)} ({scored})", ""]
    if q.signals_hit:
        lines += ["**Strong signals hit**", "", *(f"- {s}" for s in q.signals_hit), ""]
    if q.signals_missed and (q.levels or q.signals_hit):
        lines += ["**Strong signals missed**", "", *(f"- {s}" for s in q.signals_missed), ""]
    if q.red_flags:
        lines += ["**Red flags**", "", *(f"- {f}" for f in q.red_flags), ""]
    return lines


def report_markdown(
    report: MockReport, *, mock_id: int | None = None, started_at: datetime | None = None
) -> str:
    """The whole report: a summary, the sections' times and outcomes, each question, and what
    to study next."""
    plan = report.plan
    level = f" {plan.level}" if plan.level else ""
    title = f"Mock interview #{mock_id}" if mock_id is not None else "Mock interview"
    given = sum(section.minutes for section in report.sections) * 60
    facts = [
        f"{plan.minutes}-minute{level} {plan.track} loop, seed {plan.seed}",
        f"time used {clock_text(report.seconds_used)} of {clock_text(given)}",
        f"self-score {score_text(report.score)}",
    ]
    if started_at is not None:
        facts.insert(0, started_at.strftime("%Y-%m-%d %H:%M UTC"))
    if counts := report.verdict_counts:
        facts.append(", ".join(f"{n} {verdict}" for verdict, n in counts.items()))
    lines = [f"# {title}", "", " · ".join(facts), ""]
    lines += [
        "## Sections",
        "",
        "| # | Section | Given | Used | Ended | Outcome |",
        "|---|---|---|---|---|---|",
    ]
    for number, section in enumerate(report.sections, 1):
        ended = section_ended(section)
        lines.append(
            f"| {number} | {_cell(section.title)} | {section.minutes}:00 "
            f"| {clock_text(section.seconds_used)} | {ended} | {_cell(section_outcome(section))} |"
        )
    lines += ["", "## Study next", ""]
    if report.study_next:
        for number, item in enumerate(report.study_next, 1):
            lines.append(f"{number}. **{item.title}** (`{item.topic}`)")
            lines += [f"    - {reason}" for reason in item.reasons]
    else:
        lines.append("Nothing stood out: every answer was graded right or self-scored 3 or more.")
    if report.weak_dimensions:
        lines += ["", "## Weak rubric dimensions", ""]
        lines += [
            f"- {name} ({template}): {level}/4" for template, name, level in report.weak_dimensions
        ]
    lines += ["", "## Questions", ""]
    for number, section in enumerate(report.sections, 1):
        lines += [f"## {number}. {section.title}", ""]
        for index, question in enumerate(section.questions, 1):
            lines += _question(f"{number}.{index}", question)
    return "\n".join(lines).rstrip() + "\n"
