"""Render every estimation question on every GPU it allows, into one Markdown file for review.

    .venv/bin/python scripts/render_all.py                 # -> renders.md
    .venv/bin/python scripts/render_all.py --topic warps --out /tmp/warps.md
    .venv/bin/python scripts/render_all.py --question roofline-gemm-time --variants

A reviewer reads the prompt and the worked answer as each GPU shows them, one after another,
and looks for prose the numbers do not support (a conclusion that holds on one GPU only, "HBM"
on a GDDR card, fp8 offered to an A100). Renders that fail, or that leave a template or a
`nan` behind, are listed first. tests/test_bank_renders_everywhere.py runs the same checks.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.question import Question
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.render import render_question

#: What a placeholder must never render to: template syntax, Python's None, the lowercase
#: nan/inf a float prints, or nothing at all ("****", "= .", "( )"). Prose may use the same
#: words ("masked lanes load -inf", `rows[:, None]`), so a render is faulted only where it has
#: more of them than its template's own text (the template with every tag removed).
_LEFTOVERS = {
    "an unfilled template": re.compile(r"\{\{|\}\}|\{%|%\}|\{#|#\}"),
    "a None": re.compile(r"\bNone\b"),
    "a nan or inf": re.compile(r"(?<![\w.])-?(?:nan|inf)(?![\w])"),
    "an empty placeholder": re.compile(r"\*\*[ \t]*\*\*|=[ \t]*[.,;]|(?<![\w`>\]])\([ \t]*\)"),
}
_TAGS = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)


def _static_text(template: str) -> str:
    """What a template says in every render: its text with every Jinja tag replaced by a mark
    (not removed, so that "= {{ x }}." does not read as an empty placeholder itself)."""
    return _TAGS.sub("X", template)


@dataclass(frozen=True)
class Render:
    """One question on one GPU: its text, or the error that stopped it."""

    question: Question
    gpu: str
    params: tuple[tuple[str, float], ...] = ()
    """Params changed from their defaults (empty: the default variant)."""
    prompt: str = ""
    answer: str = ""
    error: str = ""

    def faults(self) -> list[str]:
        """What is wrong with this render, in words; empty when it reads clean."""
        if self.error:
            return [f"render error: {self.error}"]
        found = []
        for part, text in (("prompt", self.prompt), ("answer", self.answer)):
            static = _static_text(getattr(self.question, part))
            for what, pattern in _LEFTOVERS.items():
                matches = list(pattern.finditer(text))
                if len(matches) > len(pattern.findall(static)):
                    match = matches[-1]
                    start = max(match.start() - 30, 0)
                    context = text[start : match.end() + 30].replace("\n", " ")
                    found.append(f"{part} has {what}: ...{context}...")
        return found


def estimation_questions(bank: Bank, topic: str | None = None, ids: list[str] | None = None):
    """The estimation questions to render, in bank order."""
    for question in bank.questions.values():
        if question.estimate is None:
            continue
        if topic is not None and question.topic != topic:
            continue
        if ids and question.id not in ids:
            continue
        yield question


def param_variants(question: Question) -> list[tuple[tuple[str, float], ...]]:
    """The defaults, then each param's other values one at a time (not every combination)."""
    assert question.estimate is not None
    variants: list[tuple[tuple[str, float], ...]] = [()]
    for name, param in question.estimate.params.items():
        variants += [((name, value),) for value in param.values if value != param.value]
    return variants


def render_everywhere(bank: Bank, question: Question, variants: bool = False) -> list[Render]:
    """The question rendered on each GPU it allows (that the bank has), with its default params
    or, with `variants`, also with each param's other values in turn."""
    assert question.estimate is not None
    renders = []
    for params in param_variants(question) if variants else [()]:
        for gpu in question.estimate.allowed_gpus():
            if gpu not in bank.hardware:
                renders.append(Render(question, gpu, params, error=f"unknown GPU {gpu!r}"))
                continue
            try:
                rendered = render_question(question, bank, gpu, dict(params))
            except EstimateError as error:
                renders.append(Render(question, gpu, params, error=error.message))
                continue
            renders.append(Render(question, gpu, params, rendered.prompt, rendered.answer))
    return renders


def _label(render: Render) -> str:
    changed = ", ".join(f"{name}={value:g}" for name, value in render.params)
    return f"{render.question.id} on {render.gpu}" + (f" ({changed})" if changed else "")


def write_markdown(renders: list[Render], out: Path) -> None:
    faulty = [(render, fault) for render in renders for fault in render.faults()]
    lines = ["# Every estimation question on every GPU it allows", ""]
    lines.append(f"{len(renders)} renders, {len(faulty)} faults.")
    lines.append("")
    if faulty:
        lines += ["## Faults", ""]
        lines += [f"- {_label(r)}: {fault}" for r, fault in faulty]
        lines.append("")
    current = None
    for render in renders:
        if render.question.id != current:
            current = render.question.id
            lines += [f"## {current} ({render.question.topic}): {render.question.title}", ""]
        lines += [f"### {_label(render)}", ""]
        if render.error:
            lines += [f"**Render error:** {render.error}", ""]
            continue
        lines += ["**Prompt**", "", render.prompt.strip(), "", "**Answer**", ""]
        lines += [render.answer.strip(), ""]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=Path("renders.md"), help="Markdown file to write"
    )
    parser.add_argument("--topic", help="only this topic's questions")
    parser.add_argument("--question", action="append", help="only this question (repeatable)")
    parser.add_argument("--bank", action="append", type=Path, help="extra bank folder")
    parser.add_argument(
        "--variants", action="store_true", help="also each param's other values, one at a time"
    )
    args = parser.parse_args(argv)
    bank, problems = load_bank(args.bank)
    for problem in problems:
        print(problem, file=sys.stderr)
    renders = [
        render
        for question in estimation_questions(bank, args.topic, args.question)
        for render in render_everywhere(bank, question, args.variants)
    ]
    write_markdown(renders, args.out)
    faults = sum(len(render.faults()) for render in renders)
    print(f"wrote {args.out}: {len(renders)} renders, {faults} faults")
    return 1 if faults or problems else 0


if __name__ == "__main__":
    sys.exit(main())
