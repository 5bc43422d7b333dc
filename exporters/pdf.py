"""PDF books typeset by Typst through the `typst` package: no TeX, no browser.

- study: a title page, contents, a chapter per topic (each question with its id, level,
  minutes, prompt, artifact and hints; the answers at the chapter's end) and a hardware appendix
  with a roofline chart per GPU, drawn by Typst from the tables;
- interviewer: per question, the question, the model answer, the rubric with the kind's 1-4
  level descriptors and follow-ups, then a blank scorecard sheet;
- answers: the worked answers alone, chapter by chapter.

The bank reaches Typst as data: one JSON document passed through `sys.inputs`, which the
template in `book_typ.py` walks. Question text is never pasted into markup, so `#`, `$`, `*`,
`_`, `@`, `<` and backslashes print as typed; Markdown arrives as a tree (see `markdown.py`),
math as Typst math, code as `raw` blocks that Typst highlights.

The text is set in the fonts embedded in Typst (Libertinus Serif, DejaVu Sans Mono, New
Computer Modern Math); the system's fonts are only a fallback for characters those lack (CJK,
say). The creation date is the bank's (`files.bank_timestamp`), so the same bank gives the same
bytes on the same machine.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpuprep.exporters.files import bank_timestamp, write_atomically
from gpuprep.exporters.markdown import code_block, inline_blocks, to_blocks
from gpuprep.exporters.view import ExportedQuestion, ExportError, Progress, view_all

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question

BOOKS = ("study", "interviewer", "answers")

TITLES = {
    "study": ("Study book", "Questions and hints by topic, the answers at each chapter's end."),
    "interviewer": (
        "Interviewer packet",
        "Each question with its model answer, its rubric and a blank scorecard.",
    ),
    "answers": ("Answer key", "The worked answer to every question, by topic."),
}


@dataclass(frozen=True)
class PdfExport:
    """What a PDF export wrote."""

    path: Path
    book: str
    questions: int
    pages: int
    size: int


# --- The data Typst reads ----------------------------------------------------------------------


def question_data(view: ExportedQuestion) -> dict[str, Any]:
    """One question as the template reads it: Markdown as block trees, the rest as text."""
    artifact = None
    if view.artifact is not None:
        language = view.artifact.language if view.artifact.kind == "code" else ""
        artifact = {
            "kind": view.artifact.kind,
            "label": view.artifact.kind + (f" ({view.artifact.language})" if language else ""),
            **code_block(view.artifact.text, language),
        }
    rubric = view.rubric
    return {
        "id": view.id,
        "title": view.title,
        "kind": view.kind,
        "level": view.level,
        "minutes": view.minutes,
        "template": view.rubric_template,
        "gpu": view.gpu_name,
        "params": [f"{name} = {value}" for name, value in view.params],
        "prompt": to_blocks(view.prompt),
        "artifact": artifact,
        "hints": [inline_blocks(hint) for hint in view.hints],
        "answer": to_blocks(view.answer),
        "expected": view.expected,
        "worked": list(view.worked),
        "drill": view.drill,
        "rubric": {
            "strong": [inline_blocks(item) for item in rubric.strong_signals],
            "red": [inline_blocks(item) for item in rubric.red_flags],
            "follow": [inline_blocks(item) for item in rubric.follow_ups],
        },
    }


def _figure(gpu: Hardware, name: str, unit: str) -> float | None:
    value = gpu.get(name)
    return None if value is None else round(value.to(unit), 6)


def _text(value: float | None, unit: str, digits: int = 3) -> str:
    if value is None:
        return "—"
    from gpuprep.units.display import plain_number

    return f"{plain_number(value, digits)} {unit}".strip()


def hardware_data(gpu: Hardware) -> dict[str, Any]:
    """A GPU's headline figures as text, and its roofline: the memory roof and each compute roof
    (fp32, bf16 or fp16, fp8, fp4 where the table has them) with its ridge point."""
    bandwidth = _figure(gpu, "hbm_bandwidth", "TB/s") or 0.0
    roofs: list[dict[str, Any]] = []
    half = "bf16_dense" if gpu.get("bf16_dense") is not None else "fp16_dense"
    for name, label in (
        ("fp32", "fp32"),
        (half, half.removesuffix("_dense")),
        ("fp8_dense", "fp8"),
        ("fp4_dense", "fp4"),
    ):
        peak = _figure(gpu, name, "TFLOP/s")
        if peak:
            roofs.append(
                {
                    "label": label,
                    "peak": peak,
                    "ridge": round(peak / bandwidth, 4) if bandwidth else None,
                    "text": _text(peak, "TFLOP/s", 4),
                    "ridge_text": _text(peak / bandwidth if bandwidth else None, "FLOP/B", 3),
                }
            )
    ridges = [roof["ridge"] for roof in roofs if roof["ridge"]]
    peaks = [roof["peak"] for roof in roofs]
    # Axes: intensity from 1/8 FLOP/B to a power of two past the highest ridge; rate from the
    # memory roof at the left edge to twice the highest peak, both in whole decades or octaves.
    x_max = 2.0 ** math.ceil(math.log2(max(ridges) * 8)) if ridges else 4096.0
    x_min = 0.125
    y_min = 10.0 ** math.floor(math.log10(bandwidth * x_min)) if bandwidth else 0.01
    y_max = 10.0 ** math.ceil(math.log10(max(peaks) * 1.5)) if peaks else 1000.0
    capacity = gpu.figures().get("hbm_capacity")
    return {
        "id": gpu.id,
        "name": gpu.name,
        "memory": gpu.memory or "",
        "capacity": _text(capacity.value, capacity.unit, 4) if capacity is not None else "—",
        "bandwidth": bandwidth,
        "bandwidth_text": _text(bandwidth, "TB/s", 3),
        "fp32": _text(_figure(gpu, "fp32", "TFLOP/s"), "TFLOP/s", 4),
        "half": _text(_figure(gpu, half, "TFLOP/s"), "TFLOP/s", 4),
        "half_label": half.removesuffix("_dense"),
        "fp8": _text(_figure(gpu, "fp8_dense", "TFLOP/s"), "TFLOP/s", 4),
        "ridge": _text(roofs[1]["ridge"] if len(roofs) > 1 else None, "FLOP/B", 3),
        "l2": _text(_figure(gpu, "l2_size", "MiB"), "MiB", 3),
        "sms": _text(_figure(gpu, "sms", "1"), "", 4),
        "tdp": _text(_figure(gpu, "tdp", "W"), "W", 4),
        "roofs": roofs,
        "x": [x_min, x_max],
        "y": [y_min, y_max],
    }


def rubric_data(bank: Bank, template_ids: set[str]) -> dict[str, Any]:
    """The rubric templates the questions use: dimensions with their 1-4 level descriptors."""
    out: dict[str, Any] = {}
    for template_id in sorted(template_ids):
        template = bank.rubrics.get(template_id)
        if template is None:
            continue
        out[template_id] = {
            "title": template.title,
            "dimensions": [
                {
                    "name": dimension.name,
                    "description": dimension.description,
                    "levels": [dimension.levels.get(level, "") for level in (1, 2, 3, 4)],
                }
                for dimension in template.dimensions
            ],
        }
    return out


def book_data(
    bank: Bank, views: list[ExportedQuestion], book: str, gpu: str | None, timestamp: int
) -> dict[str, Any]:
    """The whole document: title page, chapters of questions, appendices."""
    title, description = TITLES[book]
    chapters: list[dict[str, Any]] = []
    for view in views:
        if not chapters or chapters[-1]["id"] != view.topic:
            topic = bank.topics.get(view.topic)
            chapters.append(
                {
                    "id": view.topic,
                    "title": view.topic_title,
                    "summary": topic.summary if topic is not None else "",
                    "questions": [],
                }
            )
        chapters[-1]["questions"].append(question_data(view))
    data: dict[str, Any] = {
        "book": book,
        "title": title,
        "description": description,
        "date": datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d"),
        "gpu": bank.hardware[gpu].name if gpu is not None and gpu in bank.hardware else None,
        "count": len(views),
        "chapters": chapters,
        "hardware": [hardware_data(bank.hardware[g]) for g in sorted(bank.hardware)]
        if book == "study"
        else [],
        "rubrics": rubric_data(bank, {view.rubric_template for view in views})
        if book == "interviewer"
        else {},
    }
    return data


# --- Typesetting ---------------------------------------------------------------------------------


def typeset(data: dict[str, Any], timestamp: int) -> bytes:
    """Compile the book template over `data` to PDF bytes; raises :class:`ExportError`."""
    import typst

    from gpuprep.exporters.book_typ import SOURCE

    try:
        compiled = typst.compile(
            SOURCE.encode(),
            format="pdf",
            sys_inputs={"data": json.dumps(data, ensure_ascii=False, separators=(",", ":"))},
            timestamp=timestamp,
        )
    except typst.TypstError as error:
        detail = "; ".join(
            part
            for part in [
                error.message,
                getattr(error, "diagnostic", ""),
                *getattr(error, "hints", []),
            ]
            if part
        )
        raise ExportError(f"typst could not typeset the book: {detail}") from None
    if not isinstance(compiled, bytes):  # pragma: no cover - PDF is one document
        raise ExportError("typst returned pages instead of one PDF")
    return compiled


def page_count(pdf: bytes) -> int:
    """Pages of a PDF Typst wrote (its page tree's /Count), without a PDF library."""
    import re

    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", pdf)]
    counts += [int(n) for n in re.findall(rb"/Count\s+(\d+)[^>]*?/Type\s*/Pages\b", pdf)]
    return max(counts, default=0)


def export_pdf(
    bank: Bank,
    questions: list[Question],
    path: Path,
    *,
    book: str = "study",
    gpu: str | None = None,
    progress: Progress | None = None,
) -> PdfExport:
    """Write one of the books at `path` (estimation questions for `gpu` where they are asked
    for it, else for their own GPU)."""
    if book not in BOOKS:
        raise ExportError(f"unknown book {book!r}; the books are {', '.join(BOOKS)}", usage=True)
    total = len(questions) + 1
    views = view_all(questions, bank, gpu, _steps(progress, total))
    timestamp = bank_timestamp(bank)
    data = book_data(bank, views, book, gpu, timestamp)
    if progress is not None:
        progress(len(questions), total, "typesetting")
    pdf = typeset(data, timestamp)
    write_atomically(path, pdf)
    if progress is not None:
        progress(total, total, "written")
    return PdfExport(path, book, len(views), page_count(pdf), len(pdf))


def _steps(progress: Progress | None, total: int) -> Progress | None:
    if progress is None:
        return None

    def step(done: int, _count: int, what: str) -> None:
        progress(done, total, what)

    return step
