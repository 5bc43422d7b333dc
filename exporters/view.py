"""A question as every exporter shows it: rendered for its GPU, with its worked solution.

`view_question` is the one place an exporter turns a bank question into text: it builds the
same `QuestionView` as `gpuprep show` and the app's screens, so an exported answer is the one
the app shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question

#: What an exporter reports as it goes: (done, total, what it is on); the CLI draws a bar.
Progress = Callable[[int, int, str], None]


class ExportError(Exception):
    """An export that cannot be made; `usage` is True when the command line is at fault."""

    def __init__(self, message: str, *, usage: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.usage = usage


@dataclass(frozen=True)
class Artifact:
    """The code, profile or log a debugging question shows."""

    kind: str
    """code | ncu | nsys | log | trace."""
    language: str
    """Highlighting language for code ('cuda', 'python'); '' for plain text."""
    text: str


@dataclass(frozen=True)
class Rubric:
    """What an interviewer listens for."""

    strong_signals: tuple[str, ...]
    red_flags: tuple[str, ...]
    follow_ups: tuple[str, ...]


@dataclass(frozen=True)
class ExportedQuestion:
    """One question, rendered: Markdown prompt and answer, the worked solution's lines, the rubric."""

    id: str
    title: str
    topic: str
    topic_title: str
    kind: str
    level: str
    minutes: int
    tags: tuple[str, ...]
    prompt: str
    """Markdown, placeholders filled for `gpu`."""
    answer: str
    """The worked answer in Markdown, as a strong candidate would say it."""
    hints: tuple[str, ...]
    rubric: Rubric
    rubric_template: str
    """Id of the rubric template that scores this question (its kind's by default)."""
    gpu: str | None = None
    """GPU id an estimation question was rendered for; None for the other kinds."""
    gpu_name: str | None = None
    params: tuple[tuple[str, str], ...] = ()
    """(name, value as shown) of each parameter of an estimation question."""
    expected: str | None = None
    """The expected answer of an estimation question, with its unit ('1.11 ms')."""
    worked: tuple[str, ...] = ()
    """The worked solution, one line per step, then the answer (napkin math, pasteable into calc)."""
    artifact: Artifact | None = None
    drill: str | None = None
    """The drill a coding question names (`gpuprep submit DRILL FILE`)."""


def view_question(question: Question, bank: Bank, preferred_gpu: str | None) -> ExportedQuestion:
    """The question as the app shows it (one `QuestionView`), for `preferred_gpu` where an
    estimation question is asked for it, else for its own GPU, with its worked solution."""
    from gpuprep.estimate.render import ParamFigure
    from gpuprep.sessions.question_view import QuestionView
    from gpuprep.units.display import show

    view = QuestionView.build(question, bank, preferred_gpu=preferred_gpu)
    rendered = view.rendered
    topic = question.topic or ""
    topic_model = bank.topics.get(topic)
    artifact = question.artifact
    common: dict[str, Any] = dict(
        id=question.id,
        title=question.title,
        topic=topic,
        topic_title=topic_model.title if topic_model is not None else topic,
        kind=question.kind,
        level=question.level,
        minutes=question.minutes,
        tags=tuple(question.tags),
        prompt=rendered.prompt,
        answer=rendered.answer,
        hints=tuple(question.hints),
        rubric=Rubric(
            tuple(question.rubric.strong_signals),
            tuple(question.rubric.red_flags),
            tuple(question.rubric.follow_ups),
        ),
        rubric_template=question.rubric_template or question.kind,
        artifact=Artifact(artifact.kind, artifact.language, artifact.text) if artifact else None,
        drill=question.drill,
    )
    estimate = question.estimate
    if estimate is None or rendered.solution is None or rendered.gpu is None:
        return ExportedQuestion(**common)
    worked = view.worked
    assert worked is not None
    return ExportedQuestion(
        **common,
        gpu=rendered.gpu,
        gpu_name=bank.hardware[rendered.gpu].name,
        params=tuple(
            (name, str(ParamFigure(value, estimate.params[name].unit or "")))
            for name, value in rendered.params.items()
        ),
        expected=show(rendered.expected, rendered.unit, 3)
        if rendered.expected is not None and rendered.unit is not None
        else None,
        worked=tuple(str(line) for line in worked.lines),
    )


def select_questions(
    bank: Bank,
    topics: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
) -> list[Question]:
    """The bank's questions in book order (topics as the bank lists them, each in file order),
    narrowed to `topics` and `kinds`; raises :class:`ExportError` for an unknown topic or kind
    or when nothing is left."""
    from difflib import get_close_matches

    from gpuprep.bank.question import KINDS

    for topic in topics or ():
        if topic not in bank.topics:
            near = get_close_matches(topic, list(bank.topics), n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise ExportError(
                f"unknown topic {topic!r}{hint} (the topics are {', '.join(sorted(bank.topics))})",
                usage=True,
            )
    for kind in kinds or ():
        if kind not in KINDS:
            raise ExportError(
                f"unknown kind {kind!r}; the kinds are {', '.join(KINDS)}", usage=True
            )
    wanted_topics = set(topics or bank.topics)
    wanted_kinds = set(kinds or KINDS)
    chosen = [
        question
        for topic in bank.topics
        if topic in wanted_topics
        for question in bank.questions_in(topic)
        if question.kind in wanted_kinds
    ]
    if not chosen:
        raise ExportError(
            "no question matches "
            + " and ".join(
                part
                for part in (
                    f"topic {', '.join(topics)}" if topics else "",
                    f"kind {', '.join(kinds)}" if kinds else "",
                )
                if part
            ),
            usage=True,
        )
    return chosen


def check_gpu(bank: Bank, gpu: str | None) -> None:
    """Raise :class:`ExportError` (usage) when `gpu` is given and the bank has no such GPU."""
    if gpu is not None and gpu not in bank.hardware:
        from difflib import get_close_matches

        near = get_close_matches(gpu, list(bank.hardware), n=3)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise ExportError(
            f"unknown GPU {gpu!r}{hint} (the GPUs are {', '.join(sorted(bank.hardware))})",
            usage=True,
        )


def view_all(
    questions: Iterable[Question],
    bank: Bank,
    preferred_gpu: str | None,
    progress: Progress | None = None,
) -> list[ExportedQuestion]:
    """Every question rendered, reporting each to `progress`."""
    questions = list(questions)
    views = []
    for done, question in enumerate(questions, start=1):
        views.append(view_question(question, bank, preferred_gpu))
        if progress is not None:
            progress(done, len(questions), question.id)
    return views
