"""The Anki deck: one note per question, a deck per topic under `gpuprep::`.

Re-importing after the bank changes updates the notes a user already has instead of adding
copies: each note's GUID is a hash of a namespaced key of its question id, and the note type
(model) and the decks have fixed ids. Anki keeps the newer of two copies of a note, so the
package is stamped with the time its content last changed (`files.bank_timestamp`); the same
bank gives the same bytes.

Fields are HTML written by jinja2 templates with autoescaping: question text is escaped,
Markdown becomes HTML, math is left as `\\(...\\)` for Anki's MathJax, code is highlighted by
pygments with inline styles, and profiler excerpts and logs are monospace blocks.
"""

from __future__ import annotations

import hashlib
import io
import sqlite3
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpuprep.exporters.files import bank_timestamp, write_atomically
from gpuprep.exporters.markdown import code_html, inline_html, to_html
from gpuprep.exporters.view import ExportedQuestion, Progress, view_all

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question

#: The note type's id. Fixed forever: Anki matches the note type of a re-import by it.
MODEL_ID = 1_607_215_481
MODEL_NAME = "gpuprep question"
#: Namespace of note GUIDs: guid_for(GUID_NAMESPACE, question id).
GUID_NAMESPACE = "gpuprep/question"
DECK_ROOT = "gpuprep"

FIELDS = (
    "Id",
    "Title",
    "Topic",
    "Kind",
    "Level",
    "Minutes",
    "GPU",
    "Prompt",
    "Artifact",
    "Hints",
    "Answer",
    "Worked",
    "Rubric",
)

FRONT = """\
<div class="gp-meta">{{Topic}} · {{Kind}} · {{Level}} · {{Minutes}} min</div>
<div class="gp-title">{{Title}}</div>
{{#GPU}}<div class="gp-gpu">{{GPU}}</div>{{/GPU}}
<div class="gp-prompt">{{Prompt}}</div>
{{#Artifact}}<div class="gp-artifact">{{Artifact}}</div>{{/Artifact}}
{{#Hints}}<div class="gp-hints">{{hint:Hints}}</div>{{/Hints}}
"""

BACK = """\
{{FrontSide}}
<hr id="answer">
<div class="gp-answer">{{Answer}}</div>
{{#Worked}}<div class="gp-worked">{{Worked}}</div>{{/Worked}}
{{#Rubric}}<details class="gp-rubric"><summary>Rubric</summary>{{Rubric}}</details>{{/Rubric}}
<div class="gp-id">{{Id}}</div>
"""

CSS = """\
.card { font-family: -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 17px;
  line-height: 1.45; text-align: left; color: #1d1d1f; background: #fff; max-width: 46em;
  margin: 0 auto; }
.nightMode.card, .night_mode .card { color: #e8e8e8; background: #1e1e1e; }
.gp-meta, .gp-gpu, .gp-id { font-size: 13px; color: #777; }
.gp-title { font-size: 20px; font-weight: 600; margin: 4px 0 8px; }
.gp-hints { margin-top: 10px; }
pre, code { font-family: "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace;
  font-size: 13px; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; color: #1d1d1f;
  padding: 8px 10px; border-radius: 6px; overflow-x: auto; }
.nightMode pre, .night_mode pre { background: #f6f8fa; }
:not(pre) > code { background: rgba(127, 127, 127, 0.15); padding: 0 3px; border-radius: 3px; }
.gp-artifact .gp-label, .gp-worked .gp-label, .gp-rubric h4 { font-size: 13px; color: #777;
  text-transform: uppercase; letter-spacing: 0.04em; margin: 12px 0 4px; }
.gp-expected { font-weight: 600; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 6px; }
.gp-rubric summary { cursor: pointer; color: #777; margin-top: 12px; }
"""

# --- Field templates (jinja2, autoescaped) -----------------------------------------------------

_TEMPLATES = {
    "gpu": "{{ q.gpu_name }}{% for name, value in q.params %} · {{ name }} = {{ value }}"
    "{% endfor %}",
    "artifact": '<div class="gp-label">{{ label }}</div>{{ body }}',
    "hints": "<ol>{% for hint in hints %}<li>{{ hint }}</li>{% endfor %}</ol>",
    "answer": "{{ answer }}{% if q.expected %}"
    '<p class="gp-expected">Expected: {{ q.expected }}{% if q.gpu_name %} on the {{ q.gpu_name }}'
    "{% endif %}</p>{% endif %}",
    "worked": '<div class="gp-label">Worked solution{% if q.gpu_name %} ({{ q.gpu_name }})'
    '{% endif %}</div><pre class="gp-steps">{{ lines }}</pre>',
    "rubric": "{% for title, items in sections %}{% if items %}<h4>{{ title }}</h4><ul>"
    "{% for item in items %}<li>{{ item }}</li>{% endfor %}</ul>{% endif %}{% endfor %}",
}


@lru_cache(maxsize=1)
def _templates() -> dict[str, Any]:
    from jinja2 import Environment

    environment = Environment(autoescape=True, keep_trailing_newline=False)
    return {name: environment.from_string(source) for name, source in _TEMPLATES.items()}


def _markup(html: str) -> Any:
    from markupsafe import Markup

    return Markup(html)


def note_fields(view: ExportedQuestion) -> dict[str, str]:
    """The note's fields as HTML, by field name."""
    templates = _templates()
    artifact = ""
    if view.artifact is not None:
        language = view.artifact.language if view.artifact.kind == "code" else ""
        label = view.artifact.kind + (f" ({view.artifact.language})" if language else "")
        artifact = templates["artifact"].render(
            label=label, body=_markup(code_html(view.artifact.text, language).strip())
        )
    rubric = view.rubric
    return {
        "Id": view.id,
        "Title": _escape(view.title),
        "Topic": _escape(view.topic_title),
        "Kind": view.kind,
        "Level": view.level,
        "Minutes": str(view.minutes),
        "GPU": templates["gpu"].render(q=view) if view.gpu_name else "",
        "Prompt": to_html(view.prompt),
        "Artifact": artifact,
        "Hints": templates["hints"].render(hints=[_markup(inline_html(h)) for h in view.hints])
        if view.hints
        else "",
        "Answer": templates["answer"].render(q=view, answer=_markup(to_html(view.answer))),
        "Worked": templates["worked"].render(q=view, lines="\n".join(view.worked))
        if view.worked
        else "",
        "Rubric": templates["rubric"].render(
            sections=[
                (title, [_markup(inline_html(item)) for item in items])
                for title, items in (
                    ("Strong signals", rubric.strong_signals),
                    ("Red flags", rubric.red_flags),
                    ("Follow-ups", rubric.follow_ups),
                )
            ]
        ),
    }


def _escape(text: str) -> str:
    from html import escape

    return escape(text, quote=False)


def note_tags(view: ExportedQuestion) -> list[str]:
    """`gpuprep`, `topic::<id>`, `kind::<kind>`, `level::<level>`, then `tag::<tag>` per free tag."""
    tags = ["gpuprep", f"topic::{view.topic}", f"kind::{view.kind}", f"level::{view.level}"]
    tags += [f"tag::{'_'.join(tag.split())}" for tag in view.tags]
    return list(dict.fromkeys(tags))


def note_guid(question_id: str) -> str:
    """The note's GUID: the same for a question id in every export, on every machine."""
    import genanki

    return str(genanki.guid_for(GUID_NAMESPACE, question_id))


def deck_id(topic: str) -> int:
    """A topic deck's id, fixed by the topic id (Anki wants 1 << 30 <= id < 1 << 31 or so)."""
    digest = hashlib.sha256(f"gpuprep/deck/{topic}".encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:4], "big") % (1 << 30)


def deck_name(view: ExportedQuestion) -> str:
    # `::` nests decks in Anki; a title holding it would nest one level too deep.
    return f"{DECK_ROOT}::{view.topic_title.replace('::', ':')}"


def _model() -> Any:
    import genanki

    return genanki.Model(
        MODEL_ID,
        MODEL_NAME,
        fields=[{"name": name} for name in FIELDS],
        templates=[{"name": "Question", "qfmt": FRONT, "afmt": BACK}],
        css=CSS,
        sort_field_index=FIELDS.index("Title"),
    )


@dataclass(frozen=True)
class AnkiExport:
    """What an Anki export wrote."""

    path: Path
    notes: int
    decks: int
    size: int


def build_package(views: list[ExportedQuestion]) -> Any:
    """A genanki Package of every view, one deck per topic in the order first seen."""
    import genanki

    model = _model()
    decks: dict[str, Any] = {}
    for view in views:
        deck = decks.get(view.topic)
        if deck is None:
            deck = decks[view.topic] = genanki.Deck(
                deck_id(view.topic), deck_name(view), description=""
            )
        fields = note_fields(view)
        deck.add_note(
            genanki.Note(
                model=model,
                fields=[fields[name] for name in FIELDS],
                tags=note_tags(view),
                guid=note_guid(view.id),
            )
        )
    return genanki.Package(list(decks.values()))


def package_bytes(package: Any, timestamp: int) -> bytes:
    """The .apkg as bytes: a zip of `collection.anki2` and an empty `media` map, with fixed
    entry dates so that the same notes and timestamp give the same bytes."""
    import itertools

    # Built in memory and serialised: the same inserts give the same database image.
    connection = sqlite3.connect(":memory:")
    try:
        cursor = connection.cursor()
        package.write_to_db(cursor, timestamp, itertools.count(timestamp * 1000))
        connection.commit()
        collection = connection.serialize()
    finally:
        connection.close()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in (("collection.anki2", collection), ("media", b"{}")):
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data)
    return buffer.getvalue()


def export_anki(
    bank: Bank,
    questions: list[Question],
    path: Path,
    *,
    gpu: str | None = None,
    progress: Progress | None = None,
) -> AnkiExport:
    """Write `questions` as an Anki package at `path` (estimation questions for `gpu` where
    they are asked for it, else their own GPU)."""
    views = view_all(questions, bank, gpu, progress)
    package = build_package(views)
    data = package_bytes(package, bank_timestamp(bank))
    write_atomically(path, data)
    return AnkiExport(path, len(views), len(package.decks), len(data))
