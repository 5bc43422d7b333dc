"""Showing quantities to people: a sensible unit for each kind of figure, and plain numbers.

Numbers are written without thousands separators so that anything gpuprep shows (a worked
answer's figure, a rendered step) can be typed back into `gpuprep calc` or `gpuprep answer`.
"""

from __future__ import annotations

from gpuprep.units.quantity import Quantity, format_number, parse_unit
from gpuprep.units.table import BASE_SYMBOLS, Dimension

#: Units to choose from for each dimension, smallest first.
_LADDERS: dict[Dimension, tuple[str, ...]] = {
    (1, 0, 0, 0): ("ns", "us", "ms", "s"),
    (-1, 0, 0, 0): ("Hz", "kHz", "MHz", "GHz"),
    (0, 1, 0, 0): ("B", "KB", "MB", "GB", "TB", "PB"),
    (-1, 1, 0, 0): ("B/s", "KB/s", "MB/s", "GB/s", "TB/s", "PB/s"),
    (0, 0, 1, 0): ("FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP"),
    (-1, 0, 1, 0): ("FLOP/s", "kFLOP/s", "MFLOP/s", "GFLOP/s", "TFLOP/s", "PFLOP/s", "EFLOP/s"),
    (0, -1, 1, 0): ("FLOP/B",),
    (0, 1, -1, 0): ("B/FLOP",),
    (0, 0, 0, 1): ("pJ", "nJ", "uJ", "mJ", "J", "kJ", "MJ"),
    (-1, 0, 0, 1): ("mW", "W", "kW", "MW"),
    (0, 0, -1, 1): ("pJ/FLOP", "nJ/FLOP", "uJ/FLOP", "mJ/FLOP", "J/FLOP"),
    (0, -1, 0, 1): ("pJ/B", "nJ/B", "uJ/B", "mJ/B", "J/B"),
}


def tidy(value: float) -> float:
    """12 significant figures: 1100 us in ms is 1.1, not 1.0999999999999999 (for JSON)."""
    return float(f"{value:.12g}")


def plain_number(value: float, digits: int = 3) -> str:
    """`digits` significant figures, no thousands separators: 1230, 3.35, 1.1e+18."""
    return format_number(value, digits).replace(",", "")


def base_unit_text(dimension: Dimension) -> str:
    """A unit string in base units for any dimension: 'B/s', 'FLOP/B', 's^2', '' for a count."""
    upper = []
    lower = []
    for symbol, power in zip(BASE_SYMBOLS, dimension, strict=True):
        if power > 0:
            upper.append(symbol if power == 1 else f"{symbol}^{power}")
        elif power < 0:
            lower.append(symbol if power == -1 else f"{symbol}^{-power}")
    text = "*".join(upper) or ("1" if lower else "")
    return text + ("/" + "/".join(lower) if lower else "")


def natural_unit(quantity: Quantity) -> str:
    """The unit a person would say this figure in: 1.1e-3 s -> 'ms', 3.35e12 B/s -> 'TB/s'."""
    ladder = _LADDERS.get(quantity.dimension)
    if ladder is None:
        return base_unit_text(quantity.dimension)
    magnitude = abs(quantity.magnitude)
    chosen = ladder[0]
    for unit in ladder:
        scale, _dimension = parse_unit(unit)
        if magnitude >= scale * 0.9995:
            chosen = unit
    return chosen


def show(quantity: Quantity, unit: str | None = None, digits: int = 3) -> str:
    """'3.35 TB/s': the quantity in `unit` (its natural unit when None), `digits` figures."""
    unit = natural_unit(quantity) if unit is None else unit
    value = quantity.to(unit)
    if unit in ("", "1"):
        return plain_number(value, digits)
    return f"{plain_number(value, digits)} {unit}"
