"""Byte and FLOP formulas are arithmetic over shape symbols, and nothing else ever runs."""

import pytest

from gpuprep.units.formulas import FormulaError, check_formula, evaluate


def test_a_formula_is_evaluated_over_the_shape():
    assert (
        evaluate("2 * rows * cols * itemsize", {"rows": 8192, "cols": 8192, "itemsize": 4})
        == 2 * 8192 * 8192 * 4
    )


def test_a_formula_reports_its_symbols():
    assert check_formula("n * itemsize + itemsize") == {"n", "itemsize"}


@pytest.mark.parametrize(
    "formula",
    ["__import__('os').system('true')", "x.real", "[n]", "n if n else 0", "f(n)", "'a' * 3"],
)
def test_anything_but_arithmetic_is_refused(formula):
    with pytest.raises(FormulaError, match=r"only numbers, names and \+ - \* / // \*\* are allowed"):
        check_formula(formula)


def test_a_missing_symbol_is_named():
    with pytest.raises(FormulaError, match="'cols'"):
        evaluate("rows * cols", {"rows": 3})


def test_huge_exponents_are_refused():
    with pytest.raises(FormulaError, match="exponent"):
        evaluate("2 ** 100000", {})
