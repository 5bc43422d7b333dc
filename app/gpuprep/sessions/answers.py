"""The live preview of an estimation answer: what the typed text means, never whether it is right.

The text is read by the grader's own reader (`gpuprep.estimate.grading.read_answer`), so a
preview that says "= 600 us" is what the answer is graded as.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpuprep.estimate.grading import read_answer
from gpuprep.units.display import natural_unit, show
from gpuprep.units.table import dimension_name

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.question import Question
    from gpuprep.estimate.solve import Solution


@dataclass(frozen=True)
class AnswerPreview:
    """One line under the answer input: the parsed quantity, or why it does not parse yet."""

    usable: bool
    """True when the text parses to a quantity of the dimension the question asks for."""
    text: str


def preview_answer(
    text: str,
    solution: Solution,
    hardware: Mapping[str, Hardware],
    question: Question | None = None,
) -> AnswerPreview:
    """Read `text` as the grader would and say what it came to, in the question's unit."""
    unit = solution.unit
    if not text.strip():
        return AnswerPreview(
            False, f"Type an estimate in {unit}: a number, a unit, or napkin math."
        )
    reading = read_answer(text, solution, hardware, question)
    given = reading.quantity
    if given is None:
        return AnswerPreview(False, f"… {reading.error}")
    read_as = f" ({'; '.join(reading.notes)})" if reading.notes else ""
    if reading.bare_number:
        return AnswerPreview(
            True, f"= {show(given, unit)} (a bare number is read in {unit}){read_as}"
        )
    if not reading.usable:
        return AnswerPreview(
            False,
            f"= {show(given)}: that is {dimension_name(given.dimension)}; "
            f"the question asks for {dimension_name(reading.dimension)} in {unit}",
        )
    in_unit = show(given, unit)
    natural = show(given, natural_unit(given))
    return AnswerPreview(
        True, f"= {in_unit}" + (f" ({natural})" if natural != in_unit else "") + read_as
    )
