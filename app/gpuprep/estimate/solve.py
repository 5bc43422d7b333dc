"""Solving an estimation question: its params, its GPU, each step, and the expected answer.

`solve` is what grading, rendering, the worked solution and `bank check` share, so the figure
a candidate is graded against is the one the worked answer shows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import Context, evaluate, evaluate_expression
from gpuprep.estimate.parser import parse
from gpuprep.units.quantity import Quantity, UnitError, parse_unit, quantity
from gpuprep.units.table import dimension_name

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Estimate, Question

ParamValue = float | int | str | Quantity


class FormulaError(EstimateError):
    """An EstimateError inside one of a question's formulas; `part` says which one.

    `part` is ("estimate", "solution") or ("estimate", "steps", index, "formula") and so on:
    the location `Bank.line_in` turns into a file and line.
    """

    def __init__(self, error: EstimateError, part: tuple[str | int, ...], label: str) -> None:
        super().__init__(f"{label}: {error.message}", error.position, error.text)
        self.part = part
        self.label = label


@dataclass(frozen=True)
class Solution:
    """An estimation question worked out for one GPU and one set of params."""

    question_id: str
    gpu: Hardware
    params: dict[str, Quantity]
    steps: dict[str, Quantity]
    answer: Quantity
    unit: str

    @property
    def answer_value(self) -> float:
        """The expected answer in the question's unit."""
        return self.answer.to(self.unit)


def estimate_of(question: Question) -> Estimate:
    """The question's `estimate` block, or an error saying it is not an estimation question."""
    if question.estimate is None:
        raise EstimateError(
            f"{question.id} is a {question.kind} question; only estimation questions have a numeric answer"
        )
    return question.estimate


def pick_gpu(question: Question, bank: Bank, gpu: str | None) -> Hardware:
    """The question's default GPU, or `gpu` when the question allows it."""
    estimate = question.estimate
    allowed = estimate.allowed_gpus() if estimate is not None else sorted(bank.hardware)
    gpu_id = gpu or (estimate.gpu if estimate is not None else None)
    if gpu_id is None:
        raise EstimateError(f"{question.id} has no GPU of its own; pass one with --gpu")
    if gpu_id not in bank.hardware:
        raise EstimateError(
            f"unknown GPU {gpu_id!r}; the GPUs are {', '.join(sorted(bank.hardware))}"
        )
    if gpu_id not in allowed:
        raise EstimateError(
            f"{question.id} is not asked for {gpu_id}; it allows {', '.join(allowed)}"
        )
    return bank.hardware[gpu_id]


def param_quantity(question: Question, name: str, value: ParamValue) -> Quantity:
    """A param value given as a number (in the param's unit), a Quantity, or text such as '4 B'."""
    estimate = estimate_of(question)
    spec = estimate.params.get(name)
    if spec is None:
        known = ", ".join(estimate.params) or "none"
        raise EstimateError(f"{question.id} has no parameter {name!r}; its parameters are {known}")
    try:
        scale, dimension = parse_unit(spec.unit)
    except UnitError as error:
        raise EstimateError(f"parameter {name}: {error}") from None
    if isinstance(value, Quantity):
        given = value
    elif isinstance(value, str):
        try:
            given = evaluate(value)
        except EstimateError as error:
            raise EstimateError(
                f"parameter {name}={value}: {error.message}", error.position, error.text
            ) from None
    else:
        given = Quantity(float(value))
    if given.dimensionless and dimension != given.dimension:
        given = Quantity(given.magnitude * scale, dimension)
    if given.dimension != dimension:
        raise EstimateError(
            f"parameter {name} is in {spec.unit or 'plain numbers'}; {value} is not"
        )
    if not math.isfinite(given.magnitude):
        raise EstimateError(f"parameter {name} must be a finite number, not {value}")
    if isinstance(value, str) and given.magnitude <= 0:
        # Typed by the user: every parameter is a size, count, rate or fraction, and zero or a
        # negative one gives a division by zero or a negative time instead of an answer.
        raise EstimateError(f"parameter {name} must be greater than zero, not {value}")
    return given


def default_params(question: Question) -> dict[str, Quantity]:
    """Every param at its default value."""
    estimate = estimate_of(question)
    return {name: quantity(spec.value, spec.unit) for name, spec in estimate.params.items()}


def solve(
    question: Question,
    bank: Bank,
    gpu: str | None = None,
    params: Mapping[str, ParamValue] | None = None,
) -> Solution:
    """Evaluate every step and the solution of an estimation question.

    Raises :class:`EstimateError` for a GPU or param that is not allowed, and
    :class:`FormulaError` (which says which formula) for a fault in the question itself.
    """
    estimate = estimate_of(question)
    hardware = pick_gpu(question, bank, gpu)
    values = default_params(question)
    for name, value in (params or {}).items():
        values[name] = param_quantity(question, name, value)
    names: dict[str, Quantity] = dict(values)
    context = Context(hardware=bank.hardware, gpu=hardware, names=names)
    steps: dict[str, Quantity] = {}
    for index, step in enumerate(estimate.steps):
        part = ("estimate", "steps", index, "formula")
        try:
            value = evaluate_expression(parse(step.formula), context)
        except EstimateError as error:
            raise FormulaError(error, part, f"step {step.name} on {hardware.id}") from None
        if step.unit:
            _check_unit(
                value,
                step.unit,
                ("estimate", "steps", index),
                f"step {step.name} on {hardware.id}",
                step.formula,
            )
        steps[step.name] = value
        names[step.name] = value
    try:
        answer = evaluate_expression(parse(estimate.solution), context)
    except EstimateError as error:
        raise FormulaError(error, ("estimate", "solution"), f"solution on {hardware.id}") from None
    _check_unit(
        answer, estimate.unit, ("estimate",), f"solution on {hardware.id}", estimate.solution
    )
    return Solution(question.id, hardware, values, steps, answer, estimate.unit)


def _check_unit(
    value: Quantity, unit: str, owner: tuple[str | int, ...], label: str, formula: str
) -> None:
    """`owner` is where `unit` and the formula sit: ('estimate',) or ('estimate', 'steps', i)."""
    try:
        _scale, dimension = parse_unit(unit)
    except UnitError as error:
        raise FormulaError(EstimateError(str(error)), (*owner, "unit"), label) from None
    part = (*owner, "solution") if len(owner) == 1 else (*owner, "formula")
    if dimension != value.dimension:
        message = (
            f"the formula gives {dimension_name(value.dimension)} but the unit {unit!r} is "
            f"{dimension_name(dimension)}"
        )
        raise FormulaError(EstimateError(message, 0, formula), part, label)
