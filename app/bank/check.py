"""Cross-file checks of a loaded bank: references that must resolve, ids that must be unique.

Per-file faults (syntax, unknown fields, bad values) are found while loading; this adds
what needs the whole bank. Estimation formulas are evaluated by the napkin-math engine.
"""

from __future__ import annotations

from gpuprep.bank.loader import Bank
from gpuprep.bank.problems import Problem
from gpuprep.bank.question import KINDS


def _problem(
    bank: Bank, kind: str, item_id: str, inner: tuple[str | int, ...], where: str, what: str
) -> Problem:
    origin = bank.line_in(kind, item_id, *inner)
    return Problem(origin.path, origin.line, where, what)


def _check_questions(bank: Bank) -> list[Problem]:
    problems = []
    for question in bank.questions.values():
        where = f"question {question.id}"
        if question.topic not in bank.topics:
            problems.append(
                _problem(
                    bank,
                    "question",
                    question.id,
                    ("topic",),
                    where,
                    f"unknown topic {question.topic!r}",
                )
            )
        template = question.rubric_template or question.kind
        if template not in bank.rubrics and (question.rubric_template or bank.rubrics):
            problems.append(
                _problem(
                    bank,
                    "question",
                    question.id,
                    ("rubric_template",),
                    where,
                    f"unknown rubric template {template!r} (rubrics/{template}.yaml)",
                )
            )
        if question.drill is not None and question.drill not in bank.drills:
            problems.append(
                _problem(
                    bank,
                    "question",
                    question.id,
                    ("drill",),
                    where,
                    f"unknown drill {question.drill!r}",
                )
            )
        if question.estimate is not None:
            for index, gpu in enumerate(question.estimate.allowed_gpus()):
                if gpu not in bank.hardware:
                    inner = ("estimate", "gpu") if index == 0 else ("estimate", "gpus")
                    problems.append(
                        _problem(
                            bank,
                            "question",
                            question.id,
                            inner,
                            where,
                            f"unknown gpu {gpu!r} (hardware/{gpu}.yaml)",
                        )
                    )
    return problems


def _check_plans(bank: Bank) -> list[Problem]:
    problems = []
    for plan in bank.plans.values():
        for day_index, day in enumerate(plan.days):
            for item_index, item in enumerate(day.items):
                inner = ("days", day_index, "items", item_index)
                where = f"plan {plan.id}: day {day.day}"
                for kind, table in (
                    ("topic", bank.topics),
                    ("question", bank.questions),
                    ("drill", bank.drills),
                ):
                    target = getattr(item, kind)
                    if target is not None and target not in table:
                        problems.append(
                            _problem(
                                bank,
                                "plan",
                                plan.id,
                                (*inner, kind),
                                where,
                                f"unknown {kind} {target!r}",
                            )
                        )
    return problems


def _check_drills(bank: Bank) -> list[Problem]:
    return [
        _problem(
            bank,
            "drill",
            drill.id,
            ("topic",),
            f"drill {drill.id}",
            f"unknown topic {drill.topic!r}",
        )
        for drill in bank.drills.values()
        if drill.topic not in bank.topics
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


def check_bank(bank: Bank) -> list[Problem]:
    """Every cross-file problem in the bank, sorted by file and line."""
    problems = (
        _check_questions(bank) + _check_plans(bank) + _check_drills(bank) + _check_rubrics(bank)
    )
    # The engine evaluates every estimation formula for every GPU it allows (no sympy).
    from gpuprep.estimate.bank_check import check_estimates

    problems += check_estimates(bank)
    return sorted(problems)
