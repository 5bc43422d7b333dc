"""The output check fails every classic escape: NaN wildcards, constants, subclasses, views, hidden outliers."""

import torch

from gpuprep.harness.checking import check_output, inputs_unchanged

CPU = torch.device("cpu")


def check(out, expected, tolerance=1e-5, scale=None):
    return check_output(out, expected.double(), torch.float32, CPU, tolerance, scale)


def test_a_right_answer_passes_with_its_error():
    expected = torch.randn(100, dtype=torch.float64)
    result = check(expected.float(), expected)
    assert result["ok"] and result["rel_err"] < 1e-7


def test_nan_is_never_a_wildcard():
    expected = torch.randn(10, dtype=torch.float64)
    out = expected.float().clone()
    out[3] = float("nan")
    result = check(out, expected)
    assert not result["ok"] and "NaN or inf" in result["problem"]
    assert result["first_mismatch"]["index"] == [3]


def test_an_infinity_where_the_truth_is_finite_fails():
    expected = torch.randn(4, 4, dtype=torch.float64)
    out = expected.float().clone()
    out[2, 1] = float("inf")
    result = check(out, expected)
    assert not result["ok"] and result["first_mismatch"]["index"] == [2, 1]


def test_matching_infinities_pass():
    expected = torch.tensor([1.0, float("-inf"), 2.0], dtype=torch.float64)
    assert check(expected.float(), expected)["ok"]


def test_a_constant_output_fails_even_when_close_in_norm():
    expected = torch.full((1000,), 1.0, dtype=torch.float64)
    expected[0] = 1.0 + 1e-7
    result = check(torch.ones(1000), expected, tolerance=1e-3)
    assert not result["ok"] and "constant output" in result["problem"]


def test_a_few_wrong_elements_in_a_large_norm_fail_the_elementwise_bound():
    expected = torch.randn(1_000_000, dtype=torch.float64) + 10
    out = expected.float().clone()
    out[123_456] += 0.05
    result = check(out, expected, tolerance=1e-5)
    assert result["rel_err"] < 1e-5
    assert not result["ok"] and result["first_mismatch"]["index"] == [123_456]


def test_a_tensor_subclass_is_refused():
    class Lazy(torch.Tensor):
        pass

    expected = torch.randn(3, dtype=torch.float64)
    result = check(expected.float().as_subclass(Lazy), expected)
    assert not result["ok"] and "subclass" in result["problem"]


def test_a_non_contiguous_view_is_refused():
    x = torch.randn(4, 6)
    result = check(x.t(), x.t().double())
    assert not result["ok"] and "not contiguous" in result["problem"]


def test_wrong_shape_and_dtype_are_named():
    expected = torch.randn(3, 4, dtype=torch.float64)
    assert "shape (4, 3)" in check(torch.zeros(4, 3), expected)["problem"]
    assert "dtype float64" in check(expected.clone(), expected)["problem"]


def test_a_sum_is_judged_against_the_sum_of_magnitudes():
    x = torch.randn(10_000, dtype=torch.float64)
    scale = float(x.abs().sum())
    almost = torch.tensor(float(x.sum()) + 1e-3 * scale / 1e3, dtype=torch.float32)
    assert check(almost, x.sum(), tolerance=1e-5, scale=scale)["ok"]
    assert not check(torch.tensor(0.0), x.sum(), tolerance=1e-5, scale=scale)["ok"]


def test_a_changed_input_is_named():
    before = [torch.randn(5)]
    after = [before[0].clone()]
    assert inputs_unchanged(before, after, ["x"]) == ""
    after[0][2] = 0
    assert "input x was modified" in inputs_unchanged(before, after, ["x"])
