"""`gpuprep bank check`: the bank's cross-file checks, then every formula and every template.

The bank checks its own references (:mod:`gpuprep.bank.check`); the engine's part is here, above
the bank, since the bank never imports an engine. For every estimation question and every GPU it
allows, each step and the solution are evaluated with plain floats (no sympy); a parse error, a
missing hardware field or a unit that does not match becomes a :class:`Problem` at the formula's
line. Every question's prompt and answer (all kinds) is rendered, an estimation question on
every GPU it allows since a variant may pick any, so an undefined placeholder is caught here
rather than in front of a user.
"""

from __future__ import annotations

import math
import re

from gpuprep.bank.check import check_references
from gpuprep.bank.loader import Bank
from gpuprep.bank.problems import Problem
from gpuprep.bank.question import Question
from gpuprep.estimate.bands import band_of, is_whole
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.parser import FUNCTIONS, names_in, parse
from gpuprep.estimate.render import TemplateError, render_solved
from gpuprep.estimate.solve import FormulaError, Solution, solve
from gpuprep.estimate.template_fields import FieldRead, field_faults
from gpuprep.estimate.traps import own_traps
from gpuprep.units.quantity import UnitError, parse_unit
from gpuprep.units.table import UNITS

_BOLD_ANSWER = re.compile(r"\*\*\{\{\s*answer\s*\}\}\*\*")
_RESERVED = {"gpu", "hw", "answer"}


class _Checker:
    def __init__(self, bank: Bank) -> None:
        self.bank = bank
        self.problems: list[Problem] = []
        #: question id -> GPU id -> solution with default params, for rendering the templates.
        self.solutions: dict[str, dict[str, Solution]] = {}
        #: Not faults, but worth a look: a trap inside the correct band can never be told apart.
        self.warnings: list[Problem] = []

    def add(
        self, question: Question, inner: tuple[str | int, ...], what: str, offset: int = 0
    ) -> None:
        origin = self.bank.line_in("question", question.id, *inner)
        self.problems.append(
            Problem(origin.path, origin.line + offset, f"question {question.id}", what)
        )

    def warn(self, question: Question, inner: tuple[str | int, ...], what: str) -> None:
        origin = self.bank.line_in("question", question.id, *inner)
        self.warnings.append(Problem(origin.path, origin.line, f"question {question.id}", what))

    def check_traps(
        self,
        question: Question,
        solution: Solution,
        params: dict[str, float],
        reported: set[tuple[str | int, ...]],
        warned: set[int],
    ) -> None:
        """Each trap evaluates, in the question's dimension; one inside the correct band warns."""
        estimate = question.estimate
        assert estimate is not None
        try:
            traps = own_traps(question, solution, self.bank.hardware)
        except FormulaError as error:
            if error.part not in reported:
                reported.add(error.part)
                self.add(question, error.part, str(error))
            return
        expected = solution.answer_value
        for index, trap in enumerate(traps):
            value = trap.value.to(solution.unit)
            if not math.isfinite(value) or value <= 0:
                continue  # a slip to zero (rounded down to no GPU) is graded as zero already
            if index in warned:
                continue
            shown = ", ".join(f"{k}={v:g}" for k, v in params.items())
            where = f"{value:.4g} {solution.unit}".rstrip() + f" on {solution.gpu.id}"
            where += f" with {shown}" if shown else ""
            if estimate.tolerance.integer is not None and not is_whole(value):
                warned.add(index)
                self.warn(
                    question,
                    ("estimate", "traps", index),
                    f"trap {trap.name!r} gives {where}, not a whole number: a whole-number "
                    "question grades a fraction invalid, so this trap can never be named",
                )
            elif band_of(estimate.tolerance, value, expected) == "correct":
                warned.add(index)
                self.warn(
                    question,
                    ("estimate", "traps", index),
                    f"trap {trap.name!r} gives {where}, inside the correct band of the answer "
                    f"{expected:.4g}: an answer there is graded wrong",
                )

    def check_names(self, question: Question) -> bool:
        """Params and steps must not be unit, function or GPU names; False stops the question."""
        estimate = question.estimate
        assert estimate is not None
        fine = True
        seen: set[str] = set()
        named: list[tuple[str, tuple[str | int, ...], str]] = [
            (name, ("estimate", "params", name), "parameter") for name in estimate.params
        ]
        named += [
            (step.name, ("estimate", "steps", i, "name"), "step")
            for i, step in enumerate(estimate.steps)
        ]
        for name, inner, kind in named:
            clash = None
            if name in UNITS:
                clash = f"is the unit {name!r}"
            elif name in FUNCTIONS:
                clash = f"is the function {name}()"
            elif name in _RESERVED:
                clash = "is reserved for templates"
            elif name in self.bank.hardware:
                clash = "is a GPU id"
            elif name in seen:
                clash = "is defined twice"
            if clash:
                self.add(question, inner, f"{kind} name {name!r} {clash}; rename it")
                fine = False
            seen.add(name)
        for name, param in estimate.params.items():
            try:
                parse_unit(param.unit)
            except UnitError as error:
                self.add(question, ("estimate", "params", name, "unit"), str(error))
                fine = False
            for value in (param.value, *param.values):
                if not math.isfinite(value) or value <= 0:
                    self.add(
                        question,
                        ("estimate", "params", name),
                        f"parameter {name} must be positive, not {value:g}",
                    )
                    fine = False
        return fine

    def check_formulas(self, question: Question) -> bool:
        """Every formula parses and names only params, earlier steps and units."""
        estimate = question.estimate
        assert estimate is not None
        known = set(estimate.params)
        formulas: list[tuple[str, tuple[str | int, ...], str]] = [
            (step.formula, ("estimate", "steps", i, "formula"), f"step {step.name}")
            for i, step in enumerate(estimate.steps)
        ]
        formulas.append((estimate.solution, ("estimate", "solution"), "solution"))
        fine = True
        for index, (text, inner, label) in enumerate(formulas):
            if index > 0 and index <= len(estimate.steps):
                known.add(estimate.steps[index - 1].name)
            try:
                expression = parse(text)
            except EstimateError as error:
                self.add(question, inner, f"{label}: {error}")
                fine = False
                continue
            unknown = sorted(
                n for n in names_in(expression.root) if n not in known and n not in UNITS
            )
            if unknown:
                later = {s.name for s in estimate.steps[index:]}
                why = (
                    "a later step"
                    if set(unknown) <= later
                    else "not a parameter or an earlier step"
                )
                self.add(question, inner, f"{label}: {', '.join(unknown)} is {why}")
                fine = False
        return fine

    def check_estimation(self, question: Question) -> None:
        estimate = question.estimate
        assert estimate is not None
        if not (self.check_names(question) and self.check_formulas(question)):
            return
        reported: set[tuple[str | int, ...]] = set()
        warned: set[int] = set()
        solved = self.solutions.setdefault(question.id, {})
        runs: list[tuple[str, dict[str, float]]] = [
            (gpu, {}) for gpu in estimate.allowed_gpus() if gpu in self.bank.hardware
        ]
        # Every variant value too, on the default GPU: a variant must not divide by zero.
        runs += [
            (estimate.gpu, {name: value})
            for name, param in estimate.params.items()
            for value in param.values
        ]
        for gpu, params in runs:
            if gpu not in self.bank.hardware:
                continue
            try:
                solution = solve(question, self.bank, gpu, params)
            except FormulaError as error:
                if error.part not in reported:
                    reported.add(error.part)
                    self.add(question, error.part, str(error))
                continue
            except EstimateError as error:
                self.add(question, ("estimate",), str(error))
                continue
            if not params:
                solved[gpu] = solution
            self.check_traps(question, solution, params, reported, warned)
            answer = solution.answer.magnitude
            if not math.isfinite(answer) or answer <= 0:
                key = ("estimate", "solution")
                if key not in reported:
                    reported.add(key)
                    shown = ", ".join(f"{k}={v:g}" for k, v in params.items())
                    self.add(
                        question,
                        key,
                        f"the answer on {gpu}{' with ' + shown if shown else ''} is {answer:g}; it must be positive",
                    )
        if not _BOLD_ANSWER.search(question.answer):
            self.add(
                question,
                ("answer",),
                "the worked answer must show the final figure as **{{ answer }}**",
            )

    def check_templates(self, question: Question) -> None:
        """Render prompt and answer on every GPU the question allows (a variant must render too)."""
        gpus: list[str | None] = [None]
        solved = self.solutions.get(question.id, {})
        if question.estimate is not None:
            gpus = [gpu for gpu in question.estimate.allowed_gpus() if gpu in self.bank.hardware]
            if any(gpu not in solved for gpu in gpus):
                # A formula fault (reported by the formula checks) leaves nothing to render
                # with; the hardware fields the templates read are checked all the same.
                self.check_template_fields(question, gpus)
                return
        for gpu in gpus:
            solution = solved.get(gpu) if gpu is not None else None
            try:
                render_solved(question, self.bank, solution.gpu if solution else None, solution)
            except TemplateError as error:
                self.add_template_error(question, error, gpu if gpu != gpus[0] else None)
                return
            except EstimateError:
                return  # reported by the formula checks

    def check_template_fields(self, question: Question, gpus: list[str | None]) -> None:
        """Each hardware field the prompt and answer read, on every GPU the question allows;
        a read at fault is reported once, on the first GPU it fails on."""
        seen: set[tuple[str, FieldRead]] = set()
        for index, gpu in enumerate(gpus):
            hardware = self.bank.hardware[gpu] if gpu is not None else None
            for part, source in (("prompt", question.prompt), ("answer", question.answer)):
                for read, error in field_faults(source, part, self.bank.hardware, hardware):
                    key = (part, read)
                    if key not in seen:
                        seen.add(key)
                        self.add_template_error(question, error, gpu if index > 0 else None)

    def add_template_error(
        self, question: Question, error: TemplateError, other_gpu: str | None
    ) -> None:
        """A template fault at its line, naming `other_gpu` where it is not the question's own."""
        source = question.prompt if error.part == "prompt" else question.answer
        # A block scalar (`prompt: |`) starts on the line after its key.
        offset = error.line if "\n" in source.rstrip("\n") or source.endswith("\n") else 0
        inner = (error.part,) if error.part in ("prompt", "answer") else ()
        on = f" (on {other_gpu})" if other_gpu is not None else ""
        self.add(question, inner, f"{error}{on}", offset)


def _checked(bank: Bank) -> _Checker:
    checker = _Checker(bank)
    for question in bank.questions.values():
        if question.estimate is not None:
            checker.check_estimation(question)
        checker.check_templates(question)
    return checker


def check_estimates(bank: Bank) -> list[Problem]:
    """Problems with estimation questions' formulas, units and hardware fields, and templates."""
    return _checked(bank).problems


def check_bank(bank: Bank) -> list[Problem]:
    """Every problem `gpuprep bank check` reports in a loaded bank beyond the loader's own:
    cross-file references, then formulas, units and templates; sorted by file and line."""
    return sorted(check_references(bank) + check_estimates(bank))


def check_bank_with_warnings(bank: Bank) -> tuple[list[Problem], list[Problem]]:
    """`check_bank`'s problems, and in the same pass what `bank check` warns about without
    failing: a trap inside its question's correct band, or a fractional one on a whole-number
    question (named with the GPU and variant where it happens); each sorted by file and line."""
    checker = _checked(bank)
    return sorted(check_references(bank) + checker.problems), sorted(checker.warnings)


def check_bank_warnings(bank: Bank) -> list[Problem]:
    """Only the warnings of :func:`check_bank_with_warnings`."""
    return check_bank_with_warnings(bank)[1]
