"""The end-of-session summary as Markdown for the practice screen."""

from __future__ import annotations

from gpuprep.sessions.practice_summary import SessionSummary
from gpuprep.wording import counted


def summary_markdown(summary: SessionSummary) -> str:
    """'## Session done', the first-answer accuracy, the ratings given and the missed questions."""
    title = "## Session ended" if summary.left else "## Session done"
    lines = [title, ""]
    if summary.accuracy is not None:
        lines.append(
            f"**Right the first time:** {summary.right} of {summary.judged}"
            f" ({summary.accuracy:.0%})"
        )
    else:
        lines.append(f"You rated {counted(summary.questions, 'question')}.")
    given = [f"{rating.name} {count}" for rating, count in summary.ratings.items() if count]
    if given:
        lines += ["", "**Ratings:** " + ", ".join(given)]
    if summary.left:
        lines += ["", f"Left for another session: {summary.left}."]
    if summary.missed:
        lines += ["", f"### Missed ({len(summary.missed)})", ""]
        lines += [f"- {question.title} (`{question.id}`)" for question in summary.missed]
    return "\n".join(lines) + "\n"
