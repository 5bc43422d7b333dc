"""Traps: the values the usual slips produce, for one worked-out question.

A question's own traps are formulas over its params, steps and `gpu.*` figures, solved exactly
like its solution (so they follow every GPU and param variant). The generic traps are factors
of the expected value that the grader knows without being told: 8x for bits and bytes, 2x for
counting a link in both directions, 2x for forgetting the write of a copy. Two more slips are not
graded wrong at all: an answer off by a power of 1000 is a unit slip ("did you give it in us?",
try again), and GB for GiB (7.4%) is never wrong on its own; the grader handles both, and their
ids live here with the rest so that a question can opt out of them by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from gpuprep.bank.hardware import FIELD_DIMENSIONS
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import Context, evaluate_expression
from gpuprep.estimate.parser import (
    Binary,
    Call,
    Field,
    Negate,
    Node,
    Power,
    WithUnit,
    names_in,
    parse,
)
from gpuprep.estimate.solve import FormulaError, Solution, estimate_of
from gpuprep.units.quantity import Quantity, parse_unit
from gpuprep.units.table import dimension_name

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.question import Question

#: Hardware fields that are a link's bandwidth, both directions added in our tables.
LINK_FIELDS = frozenset({"nvlink_bandwidth", "pcie_bandwidth"})
#: GiB / GB: the 7.4% that is never graded wrong on its own.
GIB_PER_GB = 2.0**30 / 1e9
_DATA_AXIS = 1


@dataclass(frozen=True)
class TrapValue:
    """One slip and the answer it leads to, for one GPU and one set of params."""

    id: str
    """The generic trap's id (`bits_vs_bytes` ...), or `own:<index>` for a question's own trap."""
    name: str
    """What the slip is called, shown to the user."""
    explain: str
    """Why it is a slip: shown with a wrong answer."""
    value: Quantity
    """The answer the slip produces, in the question's dimension."""

    @property
    def own(self) -> bool:
        """Written for this question (not one of the generic traps)."""
        return self.id.startswith("own:")


def fields_in(node: Node) -> set[str]:
    """Hardware field names an expression reads (`gpu.pcie_bandwidth` gives pcie_bandwidth)."""
    if isinstance(node, Field):
        return {node.field}
    if isinstance(node, Negate):
        return fields_in(node.operand)
    if isinstance(node, Binary):
        return fields_in(node.left) | fields_in(node.right)
    if isinstance(node, Power):
        return fields_in(node.base) | fields_in(node.exponent)
    if isinstance(node, Call):
        found: set[str] = set()
        for argument in node.arguments:
            found |= fields_in(argument)
        return found
    if isinstance(node, WithUnit):
        return fields_in(node.value)
    return set()


@cache
def _reach(
    solution: str, steps: tuple[tuple[str, str], ...]
) -> tuple[frozenset[str], frozenset[str]]:
    """The names and hardware fields the solution depends on, through the steps it uses."""
    formulas = dict(steps)
    names: set[str] = set()
    fields: set[str] = set()
    pending = [solution]
    while pending:
        try:
            root = parse(pending.pop()).root
        except EstimateError:
            continue  # bank check reports it; a trap detector must not fail on it
        fields |= fields_in(root)
        for name in names_in(root) - names:
            names.add(name)
            if name in formulas:
                pending.append(formulas[name])
    return frozenset(names), frozenset(fields)


def solution_reach(question: Question) -> tuple[frozenset[str], frozenset[str]]:
    """(params and steps, hardware fields) the answer depends on: a step shown beside the
    answer but not used by it (the memory time of a compute-bound GEMM) does not count."""
    estimate = estimate_of(question)
    return _reach(estimate.solution, tuple((step.name, step.formula) for step in estimate.steps))


def uses_link(question: Question) -> bool:
    """The solution goes through an NVLink or PCIe figure, so 'per direction' is a live slip."""
    return bool(solution_reach(question)[1] & LINK_FIELDS)


def moves_data(question: Question, solution: Solution) -> bool:
    """Bytes take part in the answer (the answer, or a param, step or figure it depends on, is
    data-dimensioned), so bits for bytes and GB for GiB are live slips."""
    names, fields = solution_reach(question)
    quantities = [solution.answer]
    quantities += [solution.params[n] for n in names if n in solution.params]
    quantities += [solution.steps[n] for n in names if n in solution.steps]
    if any(value.dimension[_DATA_AXIS] != 0 for value in quantities):
        return True
    return any(
        FIELD_DIMENSIONS[name][_DATA_AXIS] != 0 for name in fields if name in FIELD_DIMENSIONS
    )


def own_traps(
    question: Question, solution: Solution, hardware: Mapping[str, Hardware]
) -> list[TrapValue]:
    """The question's own traps, solved with the solution's GPU, params and steps.

    Raises :class:`FormulaError` (part `('estimate', 'traps', i, 'solution')`) for a trap that
    does not evaluate or is not in the question's dimension.
    """
    estimate = estimate_of(question)
    _scale, dimension = parse_unit(estimate.unit)
    context = Context(
        hardware=hardware, gpu=solution.gpu, names={**solution.params, **solution.steps}
    )
    found = []
    for index, trap in enumerate(estimate.traps):
        part = ("estimate", "traps", index, "solution")
        label = f"trap {trap.name!r} on {solution.gpu.id}"
        try:
            value = evaluate_expression(parse(trap.solution), context)
        except EstimateError as error:
            raise FormulaError(error, part, label) from None
        if value.dimension != dimension:
            message = (
                f"the trap gives {dimension_name(value.dimension)} but the question asks for "
                f"{dimension_name(dimension)} ({estimate.unit or 'a plain number'})"
            )
            raise FormulaError(EstimateError(message, 0, trap.solution), part, label)
        found.append(TrapValue(f"own:{index}", trap.name, trap.explain, value))
    return found


def generic_traps(question: Question, solution: Solution) -> list[TrapValue]:
    """The generic slips that apply to this question, as values (both directions of each)."""
    estimate = estimate_of(question)
    chosen = estimate.generic_traps
    answer = solution.answer
    found: list[TrapValue] = []
    if chosen.applies("bits_vs_bytes") and moves_data(question, solution):
        why = "A byte is 8 bits: link and memory rates in Gbit/s are 8x smaller in GB/s."
        found.append(TrapValue("bits_vs_bytes", "bits for bytes", why, answer * Quantity(8.0)))
        found.append(TrapValue("bits_vs_bytes", "bytes for bits", why, answer / Quantity(8.0)))
    if chosen.applies("link_direction") and uses_link(question):
        why = (
            "NVLink and PCIe figures in the tables add both directions; a one-way transfer gets "
            "half of it."
        )
        found.append(
            TrapValue("link_direction", "both link directions counted", why, answer / Quantity(2.0))
        )
        found.append(
            TrapValue("link_direction", "one link direction for both", why, answer * Quantity(2.0))
        )
    if chosen.applies("forgot_the_write"):
        why = "A copy reads every byte and writes it back: count both."
        found.append(TrapValue("forgot_the_write", "forgot the write", why, answer * Quantity(0.5)))
        found.append(
            TrapValue("forgot_the_write", "counted the write twice", why, answer * Quantity(2.0))
        )
    return found


def all_traps(
    question: Question, solution: Solution, hardware: Mapping[str, Hardware]
) -> list[TrapValue]:
    """Own traps first (they are the more specific explanation), then the generic ones."""
    return own_traps(question, solution, hardware) + generic_traps(question, solution)


def usable_traps(
    question: Question, solution: Solution, hardware: Mapping[str, Hardware]
) -> list[TrapValue]:
    """`all_traps`, or only the generic ones when an own trap's formula is broken: an answer is
    still graded in a bank with faults (`bank check` names the trap and its line)."""
    try:
        return all_traps(question, solution, hardware)
    except FormulaError:
        return generic_traps(question, solution)
