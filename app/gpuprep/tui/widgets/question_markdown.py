"""A `QuestionView` written as Markdown, the way the browse and practice screens show it.

Pure text: the screens put it in `Markdown` widgets. The figures come from the view alone, so the
TUI shows the GPU, params and numbers that `gpuprep show` prints for the same question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpuprep.bank.question import Artifact, Rubric
    from gpuprep.sessions.question_view import QuestionView


def gpu_line(view: QuestionView) -> str:
    """'GPU: NVIDIA H100 SXM5 80GB (also asked for a100_sxm)' and each param with its meaning,
    as `gpuprep show` prints them ('' without a GPU)."""
    if view.gpu_heading is None:
        return ""
    params = "\n".join(
        f"- `{said}`" + (f": {meaning}" if meaning else "") for said, meaning in view.param_lines
    )
    return f"GPU: {view.gpu_heading}" + (f"\n\n{params}" if params else "")


def artifact_markdown(artifact: Artifact | None) -> str:
    """A debugging question's artifact as a fenced block ('' when there is none)."""
    if artifact is None:
        return ""
    language = artifact.language or "text"
    return f"**{artifact.kind} excerpt**\n\n```{language}\n{artifact.text.rstrip()}\n```"


def red_flags_markdown(rubric: Rubric) -> str:
    flags = "\n".join(f"- {flag}" for flag in rubric.red_flags)
    return f"**Red flags** (what an interviewer would worry about)\n\n{flags}"


def drill_markdown(view: QuestionView) -> str:
    """Where a coding question's drill begins ('' for other kinds)."""
    drill = view.drill
    if drill is None:
        return ""
    title = f" ({drill.title})" if drill.title else ""
    return (
        f"**Drill** `{drill.drill_id}`{title}: press p to practise it, write the starter and run"
        f" the harness; or `gpuprep submit {drill.drill_id} FILE`."
    )


def rubric_markdown(view: QuestionView) -> list[str]:
    """The rubric's sections, and the dimensions its template scores."""
    rubric = view.rubric
    parts = [
        "## Rubric",
        "**Strong signals**\n\n" + "\n".join(f"- {s}" for s in rubric.strong_signals),
        "**Red flags**\n\n" + "\n".join(f"- {s}" for s in rubric.red_flags),
    ]
    if rubric.follow_ups:
        parts.append("**Follow-ups**\n\n" + "\n".join(f"- {s}" for s in rubric.follow_ups))
    if view.rubric_template is not None:
        template = view.rubric_template
        dimensions = ", ".join(dimension.name for dimension in template.dimensions)
        parts.append(f"*Scored on ({template.title}): {dimensions}.*")
    return parts


def question_markdown(view: QuestionView, *, with_answer: bool, review: str = "") -> str:
    """The whole question as one document; with the answer, the worked answer and solution
    (estimation) and the rubric."""
    question = view.question
    meta = (
        f"*{question.topic} · {question.kind} · {question.level} · ~{question.minutes} min · "
        f"{', '.join(question.tags) or 'no tags'}*"
    )
    parts = [f"# {question.title}", meta]
    if review:
        parts.append(review)
    if line := gpu_line(view):
        parts.append(line)
    parts.append(view.prompt)
    if artifact := artifact_markdown(view.artifact):
        parts.append(artifact)
    if drill := drill_markdown(view):
        parts.append(drill)
    if view.hints:
        parts.append("**Hints**\n\n" + "\n".join(f"{i}. {h}" for i, h in enumerate(view.hints, 1)))
    if not with_answer:
        parts.append("*Press a to show the worked answer and the rubric.*")
        return "\n\n".join(parts)
    parts += ["## Worked answer", view.answer]
    if view.worked is not None:
        parts += ["## Worked solution", f"```text\n{view.worked.text()}\n```"]
    parts += rubric_markdown(view)
    return "\n\n".join(parts)
