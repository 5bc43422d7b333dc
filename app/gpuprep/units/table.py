"""The unit table shared by the hardware tables and the napkin-math engine.

A unit is a scale (to base units) and a dimension: exponents over the base dimensions
below. Plain floats keep this import-free and fast; sympy is used only where a worked
solution is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Base dimensions, in the order of a dimension vector.
BASE_DIMENSIONS: tuple[str, ...] = ("time", "data", "work", "energy")
BASE_SYMBOLS: tuple[str, ...] = ("s", "B", "FLOP", "J")

Dimension = tuple[int, int, int, int]
DIMENSIONLESS: Dimension = (0, 0, 0, 0)


@dataclass(frozen=True)
class Unit:
    """A named unit: how many base units one of it is, and its dimension."""

    name: str
    scale: float
    dimension: Dimension


def _dim(time: int = 0, data: int = 0, work: int = 0, energy: int = 0) -> Dimension:
    return (time, data, work, energy)


_SI_PREFIXES = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
_SMALL_PREFIXES = {"m": 1e-3, "u": 1e-6, "µ": 1e-6, "μ": 1e-6, "n": 1e-9, "p": 1e-12}
_BINARY_PREFIXES = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}


def _build_table() -> dict[str, Unit]:
    table: dict[str, Unit] = {}

    def add(name: str, scale: float, dimension: Dimension) -> None:
        table[name] = Unit(name, scale, dimension)

    time = _dim(time=1)
    add("s", 1.0, time)
    for prefix, scale in _SMALL_PREFIXES.items():
        add(prefix + "s", scale, time)
    add("min", 60.0, time)
    add("h", 3600.0, time)
    # Spelled out, as people type answers ("about 1.1 seconds"). Not "day(s)": a question
    # parameter is named that, and a unit must never shadow a parameter.
    spelled = {"sec": 1.0, "second": 1.0, "msec": 1e-3, "millisecond": 1e-3, "usec": 1e-6,
               "microsecond": 1e-6, "nsec": 1e-9, "nanosecond": 1e-9, "minute": 60.0, "hour": 3600.0}
    for word, scale in spelled.items():
        add(word, scale, time)
        add(word + "s", scale, time)

    hertz = _dim(time=-1)
    for prefix in ("", "k", "M", "G", "T"):
        add(prefix + "Hz", _SI_PREFIXES[prefix], hertz)

    data = _dim(data=1)
    add("B", 1.0, data)
    add("bit", 0.125, data)
    for prefix in ("k", "K", "M", "G", "T", "P"):
        add(prefix + "B", _SI_PREFIXES[prefix], data)
        add(prefix + "bit", _SI_PREFIXES[prefix] / 8, data)
    for prefix, scale in _BINARY_PREFIXES.items():
        add(prefix + "B", scale, data)

    for prefix in ("", "k", "K", "M", "G", "T", "P", "E"):
        scale = _SI_PREFIXES[prefix]
        add(prefix + "FLOP", scale, _dim(work=1))
        add(prefix + "OP", scale, _dim(work=1))
        add(prefix + "FLOPs", scale, _dim(work=1))
        # "TFLOPS" is how everyone writes TFLOP/s; "FLOPs" (lower-case s) is a count.
        add(prefix + "FLOPS", scale, _dim(time=-1, work=1))
        add(prefix + "OPS", scale, _dim(time=-1, work=1))

    energy_prefixes = (
        ("", 1.0),
        ("k", 1e3),
        ("M", 1e6),
        ("m", 1e-3),
        ("u", 1e-6),
        ("µ", 1e-6),
        ("n", 1e-9),
        ("p", 1e-12),
    )
    for prefix, scale in energy_prefixes:
        add(prefix + "J", scale, _dim(energy=1))
        add(prefix + "W", scale, _dim(time=-1, energy=1))

    # Counts: dimensionless, but named so that "400 cycle / 1.98 GHz" reads as it is said.
    for count in ("cycle", "cycles", "clk", "count"):
        add(count, 1.0, DIMENSIONLESS)
    return table


UNITS: dict[str, Unit] = _build_table()

#: Names of the dimensions users meet, for error messages ("you gave a bandwidth").
DIMENSION_NAMES: dict[Dimension, str] = {
    DIMENSIONLESS: "a plain number",
    _dim(time=1): "a time",
    _dim(time=-1): "a frequency",
    _dim(data=1): "an amount of data",
    _dim(data=1, time=-1): "a bandwidth",
    _dim(work=1): "an amount of work (FLOP)",
    _dim(work=1, time=-1): "a compute rate (FLOP/s)",
    _dim(data=-1, work=1): "an arithmetic intensity (FLOP/B)",
    _dim(energy=1): "an energy",
    _dim(energy=1, time=-1): "a power",
    _dim(data=1, work=-1): "bytes per FLOP",
    _dim(energy=1, work=-1): "energy per FLOP",
    _dim(energy=1, data=-1): "energy per byte",
}


def dimension_name(dimension: Dimension) -> str:
    """Say a dimension in words: 'a bandwidth', or 'a quantity in B·s^-1' when it has no name."""
    if dimension in DIMENSION_NAMES:
        return DIMENSION_NAMES[dimension]
    parts = []
    for symbol, power in zip(BASE_SYMBOLS, dimension, strict=True):
        if power == 1:
            parts.append(symbol)
        elif power:
            parts.append(f"{symbol}^{power}")
    return "a quantity in " + "·".join(parts)
