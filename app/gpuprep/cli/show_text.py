"""`gpuprep show` for a person at a terminal: Markdown rendered, parameters labelled, and the GPU
line saying which GPU the text is about.

Prompts, worked answers and rubric items are Markdown: `**1.11 ms**` is printed bold on a
terminal and as plain `1.11 ms` through a pipe, never with its asterisks. The worked solution and
an artifact are printed line for line (reflowing them would break their columns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.markdown import Markdown

    from gpuprep.sessions.question_view import QuestionView


def print_view(view: QuestionView, *, answer: bool, bank_flags: str, variant_flags: str) -> None:
    """The question as `show` prints it; `answer` adds the worked answer, solution and rubric.

    `bank_flags` and `variant_flags` are repeated in the commands it suggests, so that they
    find the same question with the same GPU and params.
    """
    console = _console()
    question = view.question
    _echo(
        console,
        f"{question.title}  [{question.id}: {question.kind}, {question.level}, {question.minutes} min]",
    )
    for line in gpu_lines(view):
        _echo(console, line)
    _echo(console, "")
    _markdown(console, view.prompt)
    if view.artifact is not None:
        artifact = view.artifact
        language = f" ({artifact.language})" if artifact.language else ""
        _echo(console, f"\n--- {artifact.kind}{language} ---")
        _echo(console, artifact.text.rstrip())
    if view.drill is not None:
        drill_id = view.drill.drill_id
        _echo(
            console,
            f"\n(drill {drill_id}: write your kernel, then "
            f"`gpuprep submit {drill_id} FILE{bank_flags}`)",
        )
        # Where to begin: the drill's starters (copy one; the harness checks your copy).
        for starter in view.drill.starters:
            _echo(console, f"(starter: {starter})")
    if view.unit:
        command = f'gpuprep answer {question.id} "..."{variant_flags}{bank_flags}'
        _echo(console, f"\n(answer in {view.unit}: {command})")
    if answer:
        _print_answer(console, view)


def gpu_lines(view: QuestionView) -> list[str]:
    """The GPU the text is about, whether it may be another, and each parameter with its meaning.

    An estimation question names its GPU and the others it allows (or that it is fixed to
    one); a question whose text names GPUs itself (`hw.h100_sxm`) gets no GPU line, and a
    `--gpu` given for it is said not to apply rather than claimed.
    """
    lines = []
    if view.gpu_heading is not None:
        lines.append(f"GPU: {view.gpu_heading}")
    elif view.unused_gpu is not None:
        named = view.named_gpus
        about = (
            f"this {view.question.kind} question is written for the {' and the '.join(named)}"
            if named
            else f"this {view.question.kind} question reads no GPU's figures"
        )
        lines.append(f"(--gpu {view.unused_gpu} does not apply: {about})")
    if view.param_lines:
        lines.append("Parameters (--param NAME=VALUE):")
        width = max(len(said) for said, _meaning in view.param_lines)
        lines += [f"  {said:<{width}}  {meaning}".rstrip() for said, meaning in view.param_lines]
    return lines


def _print_answer(console: Console, view: QuestionView) -> None:
    from gpuprep.units.display import show as show_quantity

    _echo(console, "\n--- worked answer ---\n")
    _markdown(console, view.answer)
    if view.worked is not None:
        _echo(console, "\n--- worked solution ---\n")
        _echo(console, view.worked.text())
    if view.traps and view.unit is not None:
        _echo(console, "\n--- traps (graded wrong, with the reason) ---")
        for trap in view.traps:
            _echo(console, f"  - {trap.name}: {show_quantity(trap.value, view.unit)}")
    _echo(console, "\n--- rubric ---")
    for title, items in (
        ("strong signals", view.rubric.strong_signals),
        ("red flags", view.rubric.red_flags),
        ("follow-ups", view.rubric.follow_ups),
    ):
        if items:
            _echo(console, f"{title}:")
            _markdown(console, "\n".join(f"- {item}" for item in items))
    if view.rubric_template is not None:
        template = view.rubric_template
        dimensions = ", ".join(dimension.name for dimension in template.dimensions)
        _echo(console, f"scored on ({template.title}): {dimensions}")


def _console() -> Console:
    from rich.console import Console

    # highlight=False: rich would colour every number of the prompt, which reads as emphasis.
    return Console(highlight=False)


def _echo(console: Console, text: str) -> None:
    """Plain text, no markup: wrapped at words on a terminal, as written through a pipe."""
    console.print(text, markup=False, highlight=False, soft_wrap=not console.is_terminal)


def _markdown(console: Console, text: str) -> None:
    """Markdown for the terminal (styled there, plain through a pipe), without the blank lines
    rich puts around a block nor its padding to the full width."""
    with console.capture() as captured:
        # crop=False: a code block's long lines (a profiler's table) run on, as `cat` shows them.
        console.print(_document(text.rstrip()), crop=False)
    lines = [line.rstrip() for line in captured.get().splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    typer.echo("\n".join(lines), color=console.is_terminal)


def _document(text: str) -> Markdown:
    """rich's Markdown, with code blocks printed line for line, indented, never rewrapped."""
    from rich.markdown import CodeBlock, Markdown
    from rich.syntax import Syntax
    from rich.text import Text

    class VerbatimCode(CodeBlock):
        # rich wraps code to the width: a wrapped ncu table or kernel no longer lines up.
        def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
            code = str(self.text).rstrip()
            highlighted = Syntax(code, self.lexer_name, theme=self.theme).highlight(code)
            block = Text("\n").join(Text("  ") + line for line in highlighted.split("\n"))
            block.no_wrap = True
            block.overflow = "ignore"
            yield block

    class TerminalMarkdown(Markdown):
        elements = {**Markdown.elements, "fence": VerbatimCode, "code_block": VerbatimCode}

    return TerminalMarkdown(text, code_theme="ansi_dark", hyperlinks=False)
