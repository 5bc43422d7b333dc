"""The worked solution: each step and the answer with the numbers substituted, step by step.

    flops = 2·M³ FLOP = 2·8192³ FLOP = 1.1 PFLOP
    answer = flops / gpu.bf16_dense = 2·M³ FLOP / gpu.bf16_dense = 2·8192³ FLOP / 989.4 TFLOP/s = 1.11 ms

Each formula is shown as written, then (for the answer) with the steps folded in by sympy so it
reads over the params and the GPU's figures alone, then with their values, then the result. The
substituted text is itself napkin math: it can be pasted into `gpuprep calc`. sympy is imported
here only, when a worked solution is asked for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gpuprep.bank.hardware import DERIVED_FIELDS
from gpuprep.estimate.parser import (
    Binary,
    Call,
    Field,
    Name,
    Negate,
    Node,
    Number,
    Power,
    WithUnit,
    parse,
)
from gpuprep.estimate.solve import ParamValue, Solution, estimate_of, solve
from gpuprep.units.display import plain_number, show
from gpuprep.units.quantity import Quantity

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
#: Longest folded formula shown on the answer line.
_FOLDED_WIDTH = 120


@dataclass(frozen=True)
class WorkedLine:
    """One line of the worked solution."""

    name: str
    """Step name, or 'answer'."""
    label: str
    """What the step is, in words."""
    forms: tuple[str, ...]
    """The formula as written, then folded and substituted forms, without repeats."""
    result: str
    """The value, in the step's (or the question's) unit."""

    def __str__(self) -> str:
        text = " = ".join((self.name, *self.forms, self.result))
        return f"{text}    ({self.label})" if self.label else text


@dataclass(frozen=True)
class WorkedSolution:
    """Every step, then the answer."""

    question_id: str
    gpu: str
    lines: tuple[WorkedLine, ...]

    def text(self) -> str:
        return "\n".join(str(line) for line in self.lines)


# --- Writing formulas back out ----------------------------------------------------------------


def _superscript(exponent: Node) -> str | None:
    if (
        isinstance(exponent, Number)
        and exponent.value == int(exponent.value)
        and 0 <= exponent.value < 10
    ):
        return str(int(exponent.value)).translate(_SUPERSCRIPT)
    return None


class _Writer:
    """Writes a parsed formula back as text, optionally with each name's value put in."""

    def __init__(
        self, values: Mapping[str, str] | None = None, hardware: Mapping[str, str] | None = None
    ) -> None:
        self.values = values or {}
        self.hardware = hardware or {}

    def atom_has_unit(self, node: Node) -> bool:
        if isinstance(node, Name):
            return " " in self.values.get(node.name, "")
        if isinstance(node, Field):
            return " " in self.hardware.get(f"{node.owner}.{node.field}", "")
        return isinstance(node, WithUnit)

    def write(self, node: Node, parent: int = 0, right: bool = False) -> str:
        if isinstance(node, Number):
            return node.text
        if isinstance(node, Name):
            return self.values.get(node.name, node.name)
        if isinstance(node, Field):
            return self.hardware.get(f"{node.owner}.{node.field}", f"{node.owner}.{node.field}")
        if isinstance(node, Negate):
            text = "-" + self.write(node.operand, 3)
            return f"({text})" if parent >= 2 or right else text
        if isinstance(node, Binary):
            precedence = _PRECEDENCE[node.operator]
            left = self.write(node.left, precedence)
            right_text = self.write(node.right, precedence, right=node.operator in "-/")
            if (
                node.operator in "*/"
                and " " in left
                and not left.endswith(")")
                and right_text[:1].isalpha()
            ):
                # '3.35 TB/s·B' would read as TB/(s·B): a figure with a unit before a name is bracketed.
                left = f"({left})"
            elif (
                node.operator == "*" and isinstance(node.left, Binary) and node.left.operator == "/"
            ):
                # 'a / b·1 s' reads as a / (b·1 s): the spaced slash looks looser than the dot.
                left = f"({left})"
            symbol = {"*": "·", "/": " / ", "+": " + ", "-": " - "}[node.operator]
            text = f"{left}{symbol}{right_text}"
            if precedence < parent or (right and precedence == parent):
                return f"({text})"
            return text
        if isinstance(node, Power):
            base = self.write(node.base, 4)
            if isinstance(node.base, Binary | Negate | Power) or self.atom_has_unit(node.base):
                base = f"({base})" if not base.startswith("(") else base
            superscript = _superscript(node.exponent)
            if superscript is not None:
                return base + superscript
            return f"{base}^{self.write(node.exponent, 4)}"
        if isinstance(node, Call):
            return (
                f"{node.function}({', '.join(self.write(argument) for argument in node.arguments)})"
            )
        if isinstance(node, WithUnit):
            inner = self.write(node.value, 3)
            if isinstance(node.value, Binary | Negate):
                inner = f"({inner})" if not inner.startswith("(") else inner
            return f"{inner} {node.unit.text}"
        raise TypeError(node)  # pragma: no cover


def write_formula(
    text: str, values: Mapping[str, str] | None = None, hardware: Mapping[str, str] | None = None
) -> str:
    """A formula as people write it ('2·M³ FLOP'), or with values put in ('2·8192³ FLOP')."""
    return _Writer(values, hardware).write(parse(text).root)


def _hardware_text(gpu: Hardware, owner: str, field_name: str, bank: Bank) -> str | None:
    hardware = gpu if owner == "gpu" else bank.hardware.get(owner)
    if hardware is None:
        return None
    figure = hardware.get(field_name)
    if figure is None:
        return None
    if field_name in DERIVED_FIELDS:
        return show(figure, DERIVED_FIELDS[field_name][1], 4)
    return show(figure, getattr(hardware.specs, field_name).unit, 4)


def _fields_in(node: Node) -> set[tuple[str, str]]:
    if isinstance(node, Field):
        return {(node.owner, node.field)}
    children: list[Node] = []
    if isinstance(node, Negate):
        children = [node.operand]
    elif isinstance(node, Binary):
        children = [node.left, node.right]
    elif isinstance(node, Power):
        children = [node.base, node.exponent]
    elif isinstance(node, Call):
        children = list(node.arguments)
    elif isinstance(node, WithUnit):
        children = [node.value]
    found: set[tuple[str, str]] = set()
    for child in children:
        found |= _fields_in(child)
    return found


def _param_text(value: Quantity, unit: str) -> str:
    number = value.to(unit) if unit else value.magnitude
    text = (
        str(int(number))
        if number == int(number) and abs(number) < 1e15
        else plain_number(number, 6)
    )
    return f"{text} {unit}" if unit not in ("", "1") else text


# --- sympy: folding the steps into the answer -----------------------------------------------


def _to_sympy(node: Node, steps: Mapping[str, Any], sympy: Any, units: dict[str, Any]) -> Any:
    if isinstance(node, Number):
        if node.value == int(node.value) and abs(node.value) < 1e15:
            return sympy.Integer(int(node.value))
        return sympy.Float(node.value, 6)
    if isinstance(node, Name):
        if node.name in steps:
            return steps[node.name]
        return sympy.Symbol(node.name, positive=True)
    if isinstance(node, Field):
        return sympy.Symbol(f"{node.owner}.{node.field}", positive=True)
    if isinstance(node, Negate):
        return -_to_sympy(node.operand, steps, sympy, units)
    if isinstance(node, Binary):
        left = _to_sympy(node.left, steps, sympy, units)
        right = _to_sympy(node.right, steps, sympy, units)
        if node.operator == "+":
            return left + right
        if node.operator == "-":
            return left - right
        return left * right if node.operator == "*" else left / right
    if isinstance(node, Power):
        return _to_sympy(node.base, steps, sympy, units) ** _to_sympy(
            node.exponent, steps, sympy, units
        )
    if isinstance(node, Call):
        function = sympy.Function(node.function)
        return function(*(_to_sympy(argument, steps, sympy, units) for argument in node.arguments))
    if isinstance(node, WithUnit):
        unit = sympy.Integer(1)
        for name, power in _unit_factors(node.unit.text):
            unit *= units.setdefault(name, sympy.Symbol(name, positive=True)) ** power
        return _to_sympy(node.value, steps, sympy, units) * unit
    raise TypeError(node)  # pragma: no cover


_UNIT_FACTOR = re.compile(r"([*/·×])|([A-Za-zµμ]+)(?:\s*(?:\^|\*\*)\s*(-?\d+)|([⁰¹²³⁴⁵⁶⁷⁸⁹]+))?")
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def _unit_factors(text: str) -> list[tuple[str, int]]:
    """'TFLOP/s' -> [('TFLOP', 1), ('s', -1)]: after the first '/' everything divides."""
    factors = []
    sign = 1
    for match in _UNIT_FACTOR.finditer(text):
        separator, name, power, superscript = match.groups()
        if separator:
            sign = -1 if separator == "/" else sign
            continue
        exponent = (
            int(power)
            if power
            else int(superscript.translate(_FROM_SUPERSCRIPT))
            if superscript
            else 1
        )
        factors.append((name, sign * exponent))
    return factors


def _printer(sympy: Any, unit_names: set[str], plain_names: set[str]) -> Any:
    """`plain_names`: symbols known to be plain numbers, which a unit may follow with a space."""

    def plain_number_factor(factor: Any) -> bool:
        base = factor.base if factor.is_Pow else factor
        if base.is_Number:
            return True
        if base.is_Symbol:
            return base.name in plain_names or " " not in base.name and base.name[:1].isdigit()
        return False

    from sympy.printing.str import StrPrinter

    class NapkinPrinter(StrPrinter):
        """Prints 2·M³ FLOP / gpu.bf16_dense: numbers and names first, units last."""

        def _print_Symbol(self, expr: Any) -> str:
            return str(expr.name)

        def _print_Float(self, expr: Any) -> str:
            return plain_number(float(expr), 6)

        def _print_Pow(self, expr: Any, rational: bool = False) -> str:
            base, exponent = expr.as_base_exp()
            if exponent == -1:
                return f"1 / {self._factor(base)}"
            base_text = self._factor(base)
            if " " in base_text and not base_text.startswith("("):
                base_text = f"({base_text})"
            if exponent.is_Integer and 0 <= int(exponent) < 10:
                return base_text + str(int(exponent)).translate(_SUPERSCRIPT)
            return f"{base_text}^{self._factor(exponent)}"

        def _factor(self, expr: Any) -> str:
            text = str(self._print(expr))
            if expr.is_Add or (expr.is_Mul and len(expr.args) > 1):
                return f"({text})"
            return text

        def _product(self, factors: list[Any]) -> str:
            plain = [
                f
                for f in factors
                if not (f.is_Symbol and f.name in unit_names)
                and not (f.is_Pow and f.base.is_Symbol and f.base.name in unit_names)
            ]
            units = [f for f in factors if f not in plain]
            parts = []
            for factor in plain:
                text = self._print(factor)
                parts.append(f"({text})" if factor.is_Add else text)
            following = [*parts[1:], *(self._print(u) for u in units)]
            for index, nxt in enumerate(following):
                # '3.35 TB/s·B' would read as TB/(s·B): a figure with a unit before a name is bracketed.
                if " " in parts[index] and not parts[index].startswith("(") and nxt[:1].isalpha():
                    parts[index] = f"({parts[index]})"
            text = "·".join(parts)
            unit_text = "·".join(self._print(u) for u in units)
            if unit_text:
                # '2 B·FLOP' after a figure that has its own unit, '2·M³ FLOP' otherwise.
                # A unit follows plain numbers with a space ('2·M³ FLOP'); after anything that
                # may carry a unit of its own it is a factor ('gpu.fp8_dense·B').
                joint = " " if all(plain_number_factor(f) for f in plain) else "·"
                text = f"{text}{joint}{unit_text}" if text else unit_text
            return text or "1"

        def _print_Mul(self, expr: Any) -> str:
            numerator, denominator = [], []
            coefficient, factors = expr.as_coeff_mul()
            sign = ""
            if coefficient < 0:
                sign, coefficient = "-", -coefficient
            if coefficient != 1:
                if coefficient.is_Rational and not coefficient.is_Integer:
                    if coefficient.p != 1:
                        numerator.append(sympy.Integer(coefficient.p))
                    denominator.append(sympy.Integer(coefficient.q))
                else:
                    numerator.append(coefficient)
            for factor in factors:
                base, exponent = factor.as_base_exp()
                if exponent.is_number and exponent.is_negative:
                    denominator.append(base ** (-exponent))
                else:
                    numerator.append(factor)
            text = self._product(numerator)
            if denominator:
                below = self._product(denominator)
                if len(denominator) > 1:
                    below = f"({below})"
                text = f"{text} / {below}"
            return sign + text

    return NapkinPrinter()


def _folded_forms(question: Question, solution: Solution, bank: Bank) -> tuple[str, str] | None:
    """The answer over params and GPU figures (steps folded in), then with their values."""
    import sympy

    estimate = question.estimate
    assert estimate is not None
    units: dict[str, Any] = {}
    steps: dict[str, Any] = {}
    for step in estimate.steps:
        steps[step.name] = _to_sympy(parse(step.formula).root, steps, sympy, units)
    root = parse(estimate.solution).root
    folded = _to_sympy(root, steps, sympy, units)
    plain_names = {name for name, value in solution.params.items() if value.dimensionless}
    for symbol in folded.free_symbols:
        owner, _, field_name = symbol.name.partition(".")
        if field_name:
            figure = (solution.gpu if owner == "gpu" else bank.hardware[owner]).get(field_name)
            if figure is not None and figure.dimensionless:
                plain_names.add(symbol.name)
    printer = _printer(sympy, set(units), plain_names)
    symbolic = printer.doprint(folded)
    replacements = {}
    for symbol in folded.free_symbols:
        name = symbol.name
        if name in units:
            continue
        if name in solution.params:
            text = _param_text(solution.params[name], estimate.params[name].unit)
        elif "." in name:
            owner, field_name = name.split(".", 1)
            text = _hardware_text(solution.gpu, owner, field_name, bank) or name
        else:
            continue
        replacements[symbol] = sympy.Symbol(text, positive=True)
    substituted = printer.doprint(folded.xreplace(replacements))
    return symbolic, substituted


def worked_solution(
    question: Question,
    bank: Bank,
    gpu: str | None = None,
    params: Mapping[str, ParamValue] | None = None,
) -> WorkedSolution:
    """Each step and the answer: formula, values substituted, result (see the module doc)."""
    return worked_from(question, solve(question, bank, gpu, params), bank)


def worked_from(question: Question, solution: Solution, bank: Bank) -> WorkedSolution:
    """The worked solution of a question already solved: its steps are not evaluated again."""
    estimate = estimate_of(question)
    values: dict[str, str] = {
        name: _param_text(value, estimate.params[name].unit)
        for name, value in solution.params.items()
    }
    lines: list[WorkedLine] = []

    def hardware_texts(text: str) -> dict[str, str]:
        found = {}
        for owner, field_name in _fields_in(parse(text).root):
            shown = _hardware_text(solution.gpu, owner, field_name, bank)
            if shown is not None:
                found[f"{owner}.{field_name}"] = shown
        return found

    def forms(*texts: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t for t in texts if t))

    for step in estimate.steps:
        value = solution.steps[step.name]
        written = write_formula(step.formula)
        substituted = write_formula(step.formula, values, hardware_texts(step.formula))
        result = show(value, step.unit or None, 4)
        lines.append(WorkedLine(step.name, step.label, forms(written, substituted), result))
        values[step.name] = result
    written = write_formula(estimate.solution)
    substituted = write_formula(estimate.solution, values, hardware_texts(estimate.solution))
    folded: tuple[str, str] | None = None
    if estimate.steps:
        try:
            folded = _folded_forms(question, solution, bank)
        except Exception:  # noqa: BLE001 - the folded form is a nicety; the steps above stand alone
            folded = None
    if folded is not None and max(len(form) for form in folded) > _FOLDED_WIDTH:
        folded = None  # a fold longer than a line hides more than it shows; the steps stand
    answer_forms = (written, *(folded or ()), substituted)
    lines.append(
        WorkedLine("answer", "", forms(*answer_forms), show(solution.answer, estimate.unit, 3))
    )
    return WorkedSolution(question.id, solution.gpu.id, tuple(lines))
