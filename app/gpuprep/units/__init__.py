"""Quantities with units, how they are shown, and the drill formulas: the floor of the house.

Standard library only (sympy is the one library allowed here, loaded where it is used), so the
bank's models, the napkin-math engine and the judge can all stand on it: `table` (units and
dimensions), `quantity` (arithmetic and unit strings), `display` (a figure as a person says it)
and `formulas` (byte and FLOP counts over a drill's shape symbols, which the judge evaluates).
"""
