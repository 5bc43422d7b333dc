"""`gpuprep rubrics`: the interviewer's view of the bank, question by question with its rubric,
and each kind's rubric template with what an answer sounds like at each level, 1 to 4."""

from __future__ import annotations

from difflib import get_close_matches
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gpuprep.cli.common import (
    KINDS,
    LEVELS,
    USAGE_ERROR,
    BankOption,
    JsonOption,
    KindOption,
    LevelOption,
    emit_json,
    fail,
    load_bank_or_exit,
)

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question
    from gpuprep.bank.rubric_template import RubricTemplate


def check_choice(
    what: str, value: str | None, known: list[str] | tuple[str, ...], as_json: bool
) -> None:
    """Exit 2 on a value that is not one of `known`, naming the nearest ones and the rest."""
    if value is None or value in known:
        return
    near = get_close_matches(value, list(known), n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    fail(
        f"unknown {what} {value!r}{hint} (choose from {', '.join(known)})",
        code=USAGE_ERROR,
        as_json=as_json,
    )


def template_of(bank: Bank, question: Question) -> RubricTemplate | None:
    """The rubric template a question is scored against: its own, else its kind's."""
    return bank.rubrics.get(question.rubric_template or question.kind)


def template_json(template: RubricTemplate) -> dict[str, Any]:
    return {
        "id": template.id,
        "kind": template.kind,
        "title": template.title,
        "dimensions": [
            {
                "name": dimension.name,
                "description": dimension.description,
                "levels": {str(level): text for level, text in sorted(dimension.levels.items())},
            }
            for dimension in template.dimensions
        ],
    }


def _rendered(question: Question, bank: Bank) -> tuple[str, str]:
    """The prompt and model answer with their figures filled in for the question's own GPU."""
    from gpuprep.estimate.errors import EstimateError
    from gpuprep.estimate.render import render_question

    try:
        rendered = render_question(question, bank)
    except EstimateError as error:
        return question.prompt, f"{question.answer}\n(not rendered: {error})"
    return rendered.prompt, rendered.answer


def question_json(question: Question, bank: Bank) -> dict[str, Any]:
    prompt, answer = _rendered(question, bank)
    template = template_of(bank, question)
    document: dict[str, Any] = {
        "id": question.id,
        "title": question.title,
        "topic": question.topic,
        "kind": question.kind,
        "level": question.level,
        "minutes": question.minutes,
        "prompt": prompt,
        "answer": answer,
        "strong_signals": list(question.rubric.strong_signals),
        "red_flags": list(question.rubric.red_flags),
        "follow_ups": list(question.rubric.follow_ups),
        "rubric_template": template_json(template) if template is not None else None,
    }
    if question.artifact is not None:
        document["artifact"] = question.artifact.model_dump()
    if question.drill is not None:
        document["drill"] = question.drill
    return document


def _indented(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line.strip() else "" for line in text.strip().splitlines())


def template_text(template: RubricTemplate) -> str:
    lines = [f"== Rubric template: {template.title} ({template.id}, {template.kind} questions) =="]
    for dimension in template.dimensions:
        lines.append(
            f"  {dimension.name}" + (f": {dimension.description}" if dimension.description else "")
        )
        lines += [f"    {level}  {text}" for level, text in sorted(dimension.levels.items())]
    return "\n".join(lines)


def question_text(question: Question, bank: Bank) -> str:
    prompt, answer = _rendered(question, bank)
    rubric = question.rubric
    lines = [
        f"-- {question.id} --",
        f"  {question.title}",
        f"  {question.topic} · {question.kind} · {question.level} · {question.minutes} min",
        "  Question:",
        _indented(prompt),
    ]
    if question.artifact is not None:
        lines += [f"  Artifact ({question.artifact.kind}):", _indented(question.artifact.text)]
    if question.drill is not None:
        lines.append(f"  Drill: {question.drill}")
    lines += ["  Model answer:", _indented(answer), "  Strong signals:"]
    lines += [f"    + {signal}" for signal in rubric.strong_signals]
    lines.append("  Red flags:")
    lines += [f"    - {flag}" for flag in rubric.red_flags]
    if rubric.follow_ups:
        lines.append("  Follow-ups:")
        lines += [f"    ? {follow_up}" for follow_up in rubric.follow_ups]
    return "\n".join(lines)


def select(bank: Bank, topic: str | None, kind: str | None, level: str | None) -> list[Question]:
    """The questions matching every filter given, grouped by template (kind order), then by id."""
    chosen = [
        q
        for q in bank.questions.values()
        if (topic is None or q.topic == topic)
        and (kind is None or q.kind == kind)
        and (level is None or q.level == level)
    ]
    return sorted(
        chosen,
        key=lambda q: (KINDS.index(q.kind), q.rubric_template or q.kind, q.topic or "", q.id),
    )


def register(app: typer.Typer) -> None:
    """Add `gpuprep rubrics` to the app."""

    @app.command("rubrics")
    def rubrics(
        topic: Annotated[
            str | None, typer.Option("--topic", "-t", help="Only one topic, e.g. roofline.")
        ] = None,
        kind: KindOption = None,
        level: LevelOption = None,
        banks: BankOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Questions with their model answer, strong signals, red flags and follow-ups, and each
        kind's rubric template with its 1-4 level descriptors: what an interviewer listens for."""
        check_choice("kind", kind, KINDS, as_json)
        check_choice("level", level, LEVELS, as_json)
        from gpuprep.sessions.checked_bank import load_checked_bank

        bank = load_bank_or_exit(banks, as_json=as_json, loader=load_checked_bank)
        check_choice("topic", topic, sorted(bank.topics), as_json)
        questions = select(bank, topic, kind, level)
        if as_json:
            emit_json([question_json(q, bank) for q in questions])
            return
        if not questions:
            asked = " · ".join(part for part in (topic, kind, level) if part)
            typer.echo(f"No questions match {asked}.", err=True)
            return
        shown: set[str] = set()
        blocks = []
        for question in questions:
            template = template_of(bank, question)
            if template is not None and template.id not in shown:
                shown.add(template.id)
                blocks.append(template_text(template))
            blocks.append(question_text(question, bank))
        typer.echo("\n\n".join(blocks))
