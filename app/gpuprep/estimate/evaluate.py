"""Evaluating parsed napkin math to a :class:`Quantity`, with hardware figures and names.

Attribute access exists only as `<gpu id>.<field>` (and `gpu.<field>` for the question's GPU),
looked up in the hardware tables by name: there is no object to reach through. Every number is a
float; powers are refused before they are computed when the result could not be a float, and an
overflow anywhere is an error rather than `inf`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

from gpuprep.bank.hardware import DERIVED_FIELDS, FIELD_DIMENSIONS, Hardware
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.parser import (
    Binary,
    Call,
    Expression,
    Field,
    Name,
    Negate,
    Node,
    Number,
    Power,
    WithUnit,
    parse,
)
from gpuprep.units.quantity import Quantity, UnitError
from gpuprep.units.table import DIMENSIONLESS, UNITS, dimension_name
from gpuprep.wording import did_you_mean

#: Largest exponent a power may have: 2^1000 is already 1e301.
MAX_EXPONENT = 1024.0
#: log10 of the largest magnitude the engine accepts (floats overflow at about 1.8e308).
_MAX_LOG10 = 300.0


@cache
def hardware_fields() -> dict[str, str]:
    """Every field a hardware reference may name, with what it is, typed ones first."""
    fields = {name: dimension_name(dimension) for name, dimension in FIELD_DIMENSIONS.items()}
    fields.update({name: f"{what} ({unit})" for name, (what, unit) in DERIVED_FIELDS.items()})
    return fields


@dataclass
class Context:
    """What names mean while evaluating: GPUs by id, the question's GPU, params and steps."""

    hardware: Mapping[str, Hardware] = field(default_factory=dict)
    """Every known GPU, by id, for `<id>.<field>`."""
    gpu: Hardware | None = None
    """The GPU `gpu.<field>` refers to (the question's, or --gpu)."""
    names: Mapping[str, Quantity] = field(default_factory=dict)
    """Params and earlier steps, by name."""


class _Evaluator:
    def __init__(self, expression: Expression, context: Context) -> None:
        self.text = expression.text
        self.context = context

    def fail(self, message: str, position: int) -> EstimateError:
        return EstimateError(message, position, self.text)

    def checked(self, value: Quantity, position: int) -> Quantity:
        if not math.isfinite(value.magnitude):
            raise self.fail("the result is too large to compute (overflow)", position)
        return value

    def value(self, node: Node) -> Quantity:
        if isinstance(node, Number):
            return Quantity(node.value)
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, WithUnit):
            inner = self.value(node.value)
            if not inner.dimensionless:
                raise self.fail(
                    f"the unit {node.unit.text!r} follows a value that already has a unit "
                    f"({dimension_name(inner.dimension)}); put '*' between them if you mean a product",
                    node.position,
                )
            return self.checked(
                inner * Quantity(node.unit.scale, node.unit.dimension), node.position
            )
        if isinstance(node, Name):
            return self.name(node)
        if isinstance(node, Field):
            return self.hardware_field(node)
        if isinstance(node, Negate):
            return -self.value(node.operand)
        if isinstance(node, Power):
            return self.power(node)
        if isinstance(node, Call):
            return self.call(node)
        raise self.fail(
            "cannot evaluate this", 0
        )  # pragma: no cover - the parser makes no other nodes

    def binary(self, node: Binary) -> Quantity:
        left = self.value(node.left)
        right = self.value(node.right)
        operator = node.operator
        try:
            if operator == "+":
                result = left + right
            elif operator == "-":
                result = left - right
            elif operator == "*":
                result = left * right
            else:
                result = left / right
        except UnitError as error:
            raise self.fail(
                f"{error}: both sides of '{operator}' need the same unit kind", node.position
            ) from None
        except ZeroDivisionError:
            raise self.fail("division by zero", node.position) from None
        except OverflowError:
            raise self.fail(
                "the result is too large to compute (overflow)", node.position
            ) from None
        return self.checked(result, node.position)

    def power(self, node: Power) -> Quantity:
        base = self.value(node.base)
        exponent = self.value(node.exponent)
        if not exponent.dimensionless:
            raise self.fail(
                f"an exponent must be a plain number, not {dimension_name(exponent.dimension)}",
                node.position,
            )
        power = exponent.magnitude
        if abs(power) > MAX_EXPONENT:
            raise self.fail(
                f"the exponent {power:.6g} is too large; the limit is {MAX_EXPONENT:g}",
                node.position,
            )
        magnitude = base.magnitude
        if magnitude == 0 and power < 0:
            raise self.fail("zero to a negative power (division by zero)", node.position)
        if magnitude < 0 and power != int(power):
            raise self.fail(
                "a negative number to a fractional power has no real value", node.position
            )
        if magnitude != 0 and math.log10(abs(magnitude)) * power > _MAX_LOG10:
            raise self.fail("the result is too large to compute (overflow)", node.position)
        try:
            result = base.power(power)
        except UnitError as error:
            raise self.fail(str(error), node.position) from None
        except (OverflowError, ZeroDivisionError):
            raise self.fail(
                "the result is too large to compute (overflow)", node.position
            ) from None
        if any(abs(axis) > 8 for axis in result.dimension):
            raise self.fail("the unit powers of the result are implausibly large", node.position)
        return self.checked(result, node.position)

    def name(self, node: Name) -> Quantity:
        names = self.context.names
        if node.name in names:
            return names[node.name]
        unit = UNITS.get(node.name)
        if unit is not None:
            # A bare unit is one of it: `GB/s` alone, or `bytes / B`.
            return Quantity(unit.scale, unit.dimension)
        if node.name in self.context.hardware or node.name == "gpu":
            raise self.fail(
                f"{node.name!r} is a GPU: name one of its figures, e.g. {node.name}.hbm_bandwidth",
                node.position,
            )
        known = sorted(names)
        hint = f"; the names here are {', '.join(known)}" if known else ""
        raise self.fail(
            f"unknown name {node.name!r}: expected a number, a unit or a parameter{hint}",
            node.position,
        )

    def hardware_field(self, node: Field) -> Quantity:
        context = self.context
        if node.owner == "gpu":
            gpu = context.gpu
            if gpu is None:
                raise self.fail(
                    "'gpu.' refers to the question's GPU, and there is none here: name one (h100_sxm.<field>) or pass --gpu",
                    node.position,
                )
        else:
            gpu = context.hardware.get(node.owner)
            if gpu is None:
                known = ", ".join(sorted(context.hardware)) or "none loaded"
                hint = did_you_mean(node.owner, context.hardware)
                raise self.fail(
                    f"unknown GPU {node.owner!r}{hint}; the GPUs are {known}", node.position
                )
        fields = hardware_fields()
        if node.field not in fields:
            hint = did_you_mean(node.field, fields, most=1)
            raise self.fail(
                f"unknown hardware field {node.field!r}{hint}; the fields are {', '.join(fields)}",
                node.field_position,
            )
        figure = gpu.get(node.field)
        if figure is None:
            raise self.fail(
                f"{gpu.id} has no {node.field} figure in its hardware table (hardware/{gpu.id}.yaml)",
                node.field_position,
            )
        return figure

    def call(self, node: Call) -> Quantity:
        arguments = [self.value(argument) for argument in node.arguments]
        function = node.function
        if function in ("min", "max"):
            first = arguments[0]
            for other in arguments[1:]:
                if other.dimension != first.dimension:
                    raise self.fail(
                        f"{function}() needs arguments of one kind, not {dimension_name(first.dimension)} "
                        f"and {dimension_name(other.dimension)}",
                        node.position,
                    )
            pick = min if function == "min" else max
            return pick(arguments, key=lambda quantity: quantity.magnitude)
        (argument,) = arguments
        if function == "sqrt":
            if argument.magnitude < 0:
                raise self.fail("sqrt() of a negative number", node.position)
            try:
                return argument.power(0.5)
            except UnitError as error:
                raise self.fail(str(error), node.position) from None
        if not argument.dimensionless:
            raise self.fail(
                f"{function}() needs a plain number, not {dimension_name(argument.dimension)}",
                node.position,
            )
        if function in ("log2", "log10"):
            if argument.magnitude <= 0:
                raise self.fail(f"{function}() of a number that is not positive", node.position)
            return Quantity(
                math.log2(argument.magnitude)
                if function == "log2"
                else math.log10(argument.magnitude)
            )
        rounded = (
            math.ceil(argument.magnitude) if function == "ceil" else math.floor(argument.magnitude)
        )
        return Quantity(float(rounded), DIMENSIONLESS)


def evaluate_expression(expression: Expression, context: Context | None = None) -> Quantity:
    """Evaluate a parsed expression; raises :class:`EstimateError` pointing at the fault."""
    return _Evaluator(expression, context or Context()).value(expression.root)


def evaluate(text: str, context: Context | None = None) -> Quantity:
    """Parse and evaluate napkin-math text: evaluate('3.35 TB/s') is a bandwidth."""
    return evaluate_expression(parse(text), context)
