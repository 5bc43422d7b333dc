"""The words of a grade: which unit a 1000x slip came from, the figures an answer read from the
table, and the step of the worked solution a number stopped at."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuprep.estimate.parser import Field, Node
from gpuprep.estimate.solve import estimate_of
from gpuprep.estimate.traps import fields_in
from gpuprep.units.display import natural_unit, plain_number, show
from gpuprep.units.quantity import UnitError, format_number, parse_unit

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.question import Question
    from gpuprep.estimate.solve import Solution

_PREFIXES = ("p", "n", "u", "m", "", "k", "M", "G", "T", "P", "E")
_HEAD = re.compile(r"^(p|n|u|µ|μ|m|k|K|M|G|T|P|E)?(s|B|bit|FLOPs|FLOP|OPS|OP|J|W|Hz)(?=$|/)")
_COUNT_WORDS = {1: ("thousand", "k"), 2: ("million", "M"), 3: ("billion", "B")}


def shifted_unit(unit: str, powers: int) -> str | None:
    """`unit` with its SI prefix moved `powers` steps of 1000 (ms, -1 -> us), checked."""
    head = _HEAD.match(unit)
    if head is None:
        return None
    prefix = {"µ": "u", "μ": "u", "K": "k"}.get(head.group(1) or "", head.group(1) or "")
    index = _PREFIXES.index(prefix) + powers
    if not 0 <= index < len(_PREFIXES):
        return None
    shifted = _PREFIXES[index] + unit[len(head.group(1) or "") :]
    try:
        old_scale, old_dimension = parse_unit(unit)
        new_scale, new_dimension = parse_unit(shifted)
    except UnitError:
        return None
    if new_dimension != old_dimension or abs(new_scale / old_scale / 1000.0**powers - 1) > 1e-9:
        return None
    return shifted


def thousands_hint(unit: str, powers: int, given: float) -> str:
    """What to ask when an answer is 1000^`powers` times the expected value.

    A time 1000x too large was most likely given in the next smaller unit (us for ms); a count
    1000x too small was given in thousands.
    """
    factor = plain_number(1000.0 ** abs(powers))
    if unit in ("", "1"):
        word, letter = _COUNT_WORDS.get(abs(powers), (f"1e{3 * abs(powers)}", ""))
        if powers < 0:
            example = f" (write {plain_number(given)}{letter})" if letter else ""
            return f"did you give it in {word}s?{example} The figure is a plain count"
        return f"your number is {factor}x the expected: did you count in ones where the question counts in {word}s?"
    other = shifted_unit(unit, -powers)
    if other is None:
        direction = "larger" if powers > 0 else "smaller"
        return f"did you give it in another unit? Your number is {factor}x {direction}; the question asks in {unit}"
    return f"did you give it in {other}? The question asks in {unit}"


def named_fields(root: Node) -> list[Field]:
    """The hardware figures an answer names (`gpu.bf16_dense`, `a100_sxm.hbm_bandwidth`)."""
    found: list[Field] = []

    def walk(node: object) -> None:
        if isinstance(node, Field):
            found.append(node)
            return
        for child in getattr(node, "__slots__", ()):
            value = getattr(node, child, None)
            if isinstance(value, tuple):
                for item in value:
                    walk(item)
            elif hasattr(value, "__slots__"):
                walk(value)

    walk(root)
    return found


def table_figures(
    root: Node, solution: Solution, hardware: Mapping[str, Hardware]
) -> tuple[str, ...]:
    """'A100 SXM4 80GB bf16 dense: 312 TFLOP/s' for each figure an answer read from the table."""
    shown: list[str] = []
    for node in named_fields(root):
        gpu = solution.gpu if node.owner == "gpu" else hardware.get(node.owner)
        if gpu is None:
            continue
        spec = getattr(gpu.specs, node.field, None)
        if spec is not None:
            figure = format_number(spec.value) + ("" if spec.unit == "1" else f" {spec.unit}")
        else:
            value = gpu.get(node.field)
            if value is None:
                continue
            figure = show(value, natural_unit(value))
        name = gpu.name.removeprefix("NVIDIA ").removeprefix("AMD ")
        text = f"{name} {node.field.replace('_', ' ')}: {figure}"
        if text not in shown:
            shown.append(text)
    return tuple(shown)


def reads_the_table(root: Node) -> bool:
    """The answer names a hardware figure instead of a number the user recalled."""
    return bool(fields_in(root))


def stopped_at_step(
    question: Question, solution: Solution, given: float, correct: float
) -> str | None:
    """The first step of the worked solution, in the answer's unit, that the given figure equals
    (within the correct band) while the answer differs: where the user's chain of steps left the
    solution's. None when no step of the answer's kind matches."""
    dimension = solution.answer.dimension
    expected = solution.answer_value
    for step in estimate_of(question).steps:
        value = solution.steps[step.name]
        if value.dimension != dimension:
            continue
        figure = value.to(solution.unit)
        if figure <= 0 or abs(figure / expected - 1) <= correct:
            continue
        if abs(given / figure - 1) <= correct:
            said = step.label or step.name
            return (
                f"your figure is the step '{said}' ({plain_number(figure)} {solution.unit}".rstrip()
                + "); the worked solution goes on from there"
            )
    return None
