"""Byte and FLOP counts as small arithmetic formulas over a drill's shape symbols.

Formulas come from drill.yaml, which a user can write, so they are parsed into an AST and
walked with a whitelist (numbers, names, + - * / // ** and parentheses), never evaluated.
Standard library only: the bank checks drill.yaml with it, and the judge (which has no
pydantic) computes each case's bytes and FLOPs with it; the judge's manifest covers this file.
"""

from __future__ import annotations

import ast
import operator

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow,
}


class FormulaError(ValueError):
    """A formula that is not plain arithmetic over names and numbers."""


def _parse(formula: str) -> ast.expr:
    try:
        return ast.parse(formula, mode="eval").body
    except SyntaxError as error:
        raise FormulaError(f"formula {formula!r} does not parse: {error.msg}") from None


def _names(node: ast.expr, formula: str) -> set[str]:
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    ):
        return set()
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _names(node.left, formula) | _names(node.right, formula)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _names(node.operand, formula)
    raise FormulaError(f"formula {formula!r}: only numbers, names and + - * / // ** are allowed")


def check_formula(formula: str) -> set[str]:
    """The symbols a formula uses; raises FormulaError if it is not plain arithmetic."""
    return _names(_parse(formula), formula)


def evaluate(formula: str, values: dict[str, float]) -> float:
    """The formula's value with `values` bound to its symbols."""
    check_formula(formula)

    def walk(node: ast.expr) -> float:
        if isinstance(node, ast.Constant):
            assert isinstance(node.value, int | float)  # check_formula admits numbers only
            return float(node.value)
        if isinstance(node, ast.Name):
            if node.id not in values:
                raise FormulaError(f"formula {formula!r}: no value for {node.id!r}")
            return values[node.id]
        if isinstance(node, ast.UnaryOp):
            return -walk(node.operand)
        assert isinstance(node, ast.BinOp)
        if isinstance(node.op, ast.Pow) and abs(walk(node.right)) > 64:
            raise FormulaError(f"formula {formula!r}: exponent too large")
        return float(_BINARY[type(node.op)](walk(node.left), walk(node.right)))

    return float(walk(_parse(formula)))
