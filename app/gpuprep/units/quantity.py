"""Quantities: a magnitude in base units and a dimension vector, with unit strings.

This is the napkin-math engine's arithmetic and the hardware tables' units. It is plain floats
so that `bank check` can evaluate every formula without importing sympy; see
:mod:`gpuprep.units.table` for the table.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from gpuprep.units.table import DIMENSIONLESS, UNITS, Dimension, dimension_name


class UnitError(ValueError):
    """A unit string that is not in the table, or a conversion between dimensions."""


@dataclass(frozen=True)
class Quantity:
    """A value with a dimension; `magnitude` is in base units (s, B, FLOP, J)."""

    magnitude: float
    dimension: Dimension = DIMENSIONLESS

    @property
    def dimensionless(self) -> bool:
        return self.dimension == DIMENSIONLESS

    def __add__(self, other: Quantity) -> Quantity:
        self._same_dimension(other, "add")
        return Quantity(self.magnitude + other.magnitude, self.dimension)

    def __sub__(self, other: Quantity) -> Quantity:
        self._same_dimension(other, "subtract")
        return Quantity(self.magnitude - other.magnitude, self.dimension)

    def __mul__(self, other: Quantity) -> Quantity:
        return Quantity(
            self.magnitude * other.magnitude,
            tuple(a + b for a, b in zip(self.dimension, other.dimension, strict=True)),  # type: ignore[arg-type]
        )

    def __truediv__(self, other: Quantity) -> Quantity:
        if other.magnitude == 0:
            raise ZeroDivisionError("division by zero")
        return Quantity(
            self.magnitude / other.magnitude,
            tuple(a - b for a, b in zip(self.dimension, other.dimension, strict=True)),  # type: ignore[arg-type]
        )

    def __neg__(self) -> Quantity:
        return Quantity(-self.magnitude, self.dimension)

    def power(self, exponent: float) -> Quantity:
        """Raise to a power; a quantity with units takes whole (or exactly halvable) powers only."""
        if self.dimensionless:
            return Quantity(float(self.magnitude**exponent), DIMENSIONLESS)
        scaled = [d * exponent for d in self.dimension]
        if any(abs(s - round(s)) > 1e-9 for s in scaled):
            raise UnitError(
                f"cannot raise {dimension_name(self.dimension)} to the power {exponent:g}"
            )
        return Quantity(float(self.magnitude**exponent), tuple(int(round(s)) for s in scaled))  # type: ignore[arg-type]

    def to(self, unit: str) -> float:
        """The magnitude expressed in `unit` (a unit string such as 'TB/s' or 'ms')."""
        scale, dimension = parse_unit(unit)
        if dimension != self.dimension:
            raise UnitError(
                f"cannot express {dimension_name(self.dimension)} in {unit} "
                f"({dimension_name(dimension)})"
            )
        return self.magnitude / scale

    def _same_dimension(self, other: Quantity, verb: str) -> None:
        if self.dimension != other.dimension:
            raise UnitError(
                f"cannot {verb} {dimension_name(self.dimension)} and {dimension_name(other.dimension)}"
            )


_UNIT_TOKEN = re.compile(r"\s*([A-Za-zµμ]+)(?:\s*\^\s*(-?\d+))?\s*")


@lru_cache(maxsize=1024)
def parse_unit(text: str) -> tuple[float, Dimension]:
    """Parse a unit string such as 'TB/s', 'FLOP/B', 'GiB', 'W' or '1' into (scale, dimension).

    Grammar: factors separated by '*', '·' or '/', each a unit name with an optional '^n';
    everything after the first '/' divides, as people write 'B/s/SM'.
    """
    text = text.strip()
    if text in ("", "1"):
        return 1.0, DIMENSIONLESS
    scale = 1.0
    dimension = [0, 0, 0, 0]
    sign = 1
    for index, chunk in enumerate(re.split(r"([*/·])", text)):
        if index % 2 == 1:
            if chunk == "/":
                sign = -1
            continue
        match = _UNIT_TOKEN.fullmatch(chunk)
        if not match:
            raise UnitError(f"unknown unit {chunk.strip()!r} in {text!r}")
        name, power_text = match.group(1), match.group(2)
        unit = UNITS.get(name)
        if unit is None:
            raise UnitError(f"unknown unit {name!r} in {text!r}")
        power = sign * int(power_text or 1)
        scale *= unit.scale**power
        for axis in range(4):
            dimension[axis] += unit.dimension[axis] * power
    return scale, tuple(dimension)  # type: ignore[return-value]


def quantity(value: float, unit: str) -> Quantity:
    """Make a quantity from a value and a unit string: quantity(3.35, 'TB/s')."""
    scale, dimension = parse_unit(unit)
    return Quantity(value * scale, dimension)


def format_number(value: float, digits: int = 3) -> str:
    """Round to `digits` significant figures, without scientific notation in the usual range."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    magnitude = math.floor(math.log10(abs(value)))
    if -4 <= magnitude < 15:
        decimals = max(digits - 1 - magnitude, 0)
        text = f"{round(value, decimals):,.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text
    return f"{value:.{digits - 1}e}"
