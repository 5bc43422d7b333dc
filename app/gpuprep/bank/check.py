"""Cross-file checks of a loaded bank: references that must resolve, ids that must be unique.

Per-file faults (syntax, unknown fields, bad values) are found while loading; this adds
what needs the whole bank. Estimation formulas and templates are the napkin-math engine's
to check (`gpuprep.estimate.bank_check.check_bank` runs both, as `gpuprep bank check` does).
An item that failed validation still has its references checked from the mapping it was
parsed into, so that one run reports everything; a reference to such an item is not
"unknown", since the item's own problems are already reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gpuprep.bank.loader import Bank, Unvalidated
from gpuprep.bank.problems import Problem
from gpuprep.bank.question import KINDS, Question

Loc = tuple[str | int, ...]

#: How an unresolved reference of each kind is reported.
_UNKNOWN = {
    "topic": "unknown topic {!r}",
    "question": "unknown question {!r}",
    "drill": "unknown drill {!r}",
    "rubric": "unknown rubric template {0!r} (rubrics/{0}.yaml)",
    "hardware": "unknown gpu {0!r} (hardware/{0}.yaml)",
}


class _Ids:
    """The ids a reference may name: loaded items, and items defined but failing validation."""

    def __init__(self, bank: Bank) -> None:
        self.tables: dict[str, Any] = {
            "topic": bank.topics,
            "question": bank.questions,
            "drill": {**bank.drills, **bank.collective_dirs},
            "rubric": bank.rubrics,
            "hardware": bank.hardware,
        }
        self.broken = {(item.kind, item.item_id) for item in bank.unvalidated}

    def has(self, kind: str, item_id: str) -> bool:
        return item_id in self.tables[kind] or (kind, item_id) in self.broken


def _problem(
    bank: Bank, kind: str, item_id: str, inner: tuple[str | int, ...], where: str, what: str
) -> Problem:
    origin = bank.line_in(kind, item_id, *inner)
    return Problem(origin.path, origin.line, where, what)


def _references(question: Question, bank: Bank) -> Iterator[tuple[Loc, str, str]]:
    """(field, kind, id) of each reference a loaded question makes."""
    # No topic at all means the file's topic failed, which is reported where it is.
    if question.topic is not None:
        yield ("topic",), "topic", question.topic
    if question.rubric_template or bank.rubrics:
        yield ("rubric_template",), "rubric", question.rubric_template or question.kind
    if question.drill is not None:
        yield ("drill",), "drill", question.drill
    if question.estimate is not None:
        for index, gpu in enumerate(question.estimate.allowed_gpus()):
            yield ("estimate", "gpu") if index == 0 else ("estimate", "gpus"), "hardware", gpu


def _check_questions(bank: Bank, ids: _Ids) -> list[Problem]:
    return [
        _problem(
            bank,
            "question",
            question.id,
            inner,
            f"question {question.id}",
            _UNKNOWN[kind].format(target),
        )
        for question in bank.questions.values()
        for inner, kind, target in _references(question, bank)
        if not ids.has(kind, target)
    ]


def _check_plans(bank: Bank, ids: _Ids) -> list[Problem]:
    problems = []
    for plan in bank.plans.values():
        for day_index, day in enumerate(plan.days):
            for item_index, item in enumerate(day.items):
                inner = ("days", day_index, "items", item_index)
                where = f"plan {plan.id}: day {day.day}"
                for kind in ("topic", "question", "drill"):
                    target = getattr(item, kind)
                    if target is not None and not ids.has(kind, target):
                        problems.append(
                            _problem(
                                bank,
                                "plan",
                                plan.id,
                                (*inner, kind),
                                where,
                                _UNKNOWN[kind].format(target),
                            )
                        )
    return problems


def _check_drills(bank: Bank, ids: _Ids) -> list[Problem]:
    return [
        _problem(
            bank,
            "drill",
            drill.id,
            ("topic",),
            f"drill {drill.id}",
            _UNKNOWN["topic"].format(drill.topic),
        )
        for drill in bank.drills.values()
        if not ids.has("topic", drill.topic)
    ]


def _check_rubrics(bank: Bank) -> list[Problem]:
    problems = []
    for template in bank.rubrics.values():
        if template.id in KINDS and template.kind != template.id:
            problems.append(
                _problem(
                    bank,
                    "rubric",
                    template.id,
                    ("kind",),
                    f"rubric {template.id}",
                    f"template {template.id!r} must score kind {template.id!r}, not {template.kind!r}",
                )
            )
    return problems


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _raw_question_references(raw: dict[str, Any], bank: Bank) -> Iterator[tuple[Loc, str, str]]:
    """(field, kind, id) of each reference a question's mapping makes in a well-typed field."""
    if topic := _text(raw.get("topic")):
        yield ("topic",), "topic", topic
    template = raw.get("rubric_template")
    if template is None and raw.get("kind") in KINDS and bank.rubrics:
        # The template defaults to the kind; a bad kind is its own (validation) problem.
        template = raw["kind"]
    if template := _text(template):
        yield ("rubric_template",), "rubric", template
    if drill := _text(raw.get("drill")):
        yield ("drill",), "drill", drill
    estimate = raw.get("estimate")
    if isinstance(estimate, dict):
        gpu = _text(estimate.get("gpu"))
        if gpu:
            yield ("estimate", "gpu"), "hardware", gpu
        gpus = estimate.get("gpus")
        seen = {gpu}
        for index, other in enumerate(gpus if isinstance(gpus, list) else []):
            if isinstance(other, str) and other not in seen:
                seen.add(other)
                yield ("estimate", "gpus", index), "hardware", other


def _raw_plan_references(raw: dict[str, Any], where: str) -> Iterator[tuple[Loc, str, str, str]]:
    """(field, where, kind, id) of each reference a plan's mapping makes in a well-typed field."""
    days = raw.get("days")
    for day_index, day in enumerate(days if isinstance(days, list) else []):
        if not isinstance(day, dict):
            continue
        number = day.get("day")
        day_where = (
            f"{where}: day {number}"
            if isinstance(number, int) and not isinstance(number, bool)
            else f"{where}: days[{day_index}]"
        )
        items = day.get("items")
        for item_index, item in enumerate(items if isinstance(items, list) else []):
            if not isinstance(item, dict):
                continue
            for kind in ("topic", "question", "drill"):
                if target := _text(item.get(kind)):
                    inner = ("days", day_index, "items", item_index, kind)
                    yield inner, day_where, kind, target


def _check_unvalidated(bank: Bank, ids: _Ids) -> list[Problem]:
    """References made by items that failed validation, read from their parsed mappings."""
    problems = []

    def unknown(item: Unvalidated, inner: Loc, where: str, kind: str, target: str) -> None:
        if not ids.has(kind, target):
            line_map = bank.line_maps.get(item.path)
            line = line_map.line_of((*item.loc, *inner)) if line_map else 1
            problems.append(Problem(item.path, line, where, _UNKNOWN[kind].format(target)))

    for item in bank.unvalidated:
        if item.kind == "question":
            for inner, kind, target in _raw_question_references(item.raw, bank):
                unknown(item, inner, item.where, kind, target)
        elif item.kind == "plan":
            for inner, where, kind, target in _raw_plan_references(item.raw, item.where):
                unknown(item, inner, where, kind, target)
        elif item.kind == "drill" and (topic := _text(item.raw.get("topic"))):
            unknown(item, ("topic",), item.where, "topic", topic)
    return problems


def check_references(bank: Bank) -> list[Problem]:
    """Every cross-file problem in the bank, sorted by file and line."""
    ids = _Ids(bank)
    problems = (
        _check_questions(bank, ids)
        + _check_plans(bank, ids)
        + _check_drills(bank, ids)
        + _check_rubrics(bank)
        + _check_unvalidated(bank, ids)
    )
    return sorted(problems)
