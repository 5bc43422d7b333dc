"""The judge's output check, pinned to the exact verdict and report a submitter reads.

Written to kill the mutants `./dev mutate harness.checking` found alive (issue 19): a check that
reports the wrong element, a wrong count or a silently wrong denominator misleads someone
debugging a kernel, and a check that passes the wrong output is a forged verdict.
"""

import math

import pytest
import torch

from gpuprep.harness.checking import ELEMENT_SLACK, check_output, inputs_unchanged

CPU = torch.device("cpu")


def check(out, expected, tolerance=1e-5, scale=None, device=CPU):
    return check_output(out, expected.double(), torch.float32, device, tolerance, scale)


def test_a_right_answer_reports_its_errors_and_no_mismatch():
    expected = torch.tensor([1.0, -2.0, 4.0], dtype=torch.float64)
    out = expected.float().clone()
    out[2] += 1e-6
    result = check(out, expected)
    assert result["ok"] is True
    assert result["problem"] == ""
    assert result["first_mismatch"] is None
    assert math.isclose(result["max_abs_err"], 1e-6, rel_tol=0.05)
    assert math.isclose(result["rel_err"], 1e-6 / math.sqrt(21), rel_tol=0.05)


def test_what_is_not_a_tensor_is_named_by_its_type():
    result = check([1.0, 2.0], torch.zeros(2))
    assert result == {
        "ok": False,
        "problem": "returned list, expected a torch.Tensor",
        "rel_err": None,
        "max_abs_err": None,
        "first_mismatch": None,
    }


def test_a_tensor_carrying_python_attributes_is_refused_by_name():
    out = torch.zeros(2)
    out.is_contiguous = lambda: True  # type: ignore[method-assign]
    out.note = "hi"
    result = check(out, torch.zeros(2))
    assert not result["ok"]
    assert result["problem"] == (
        "the output tensor carries Python attributes (is_contiguous, note);"
        " return a plain torch.Tensor"
    )


def test_shape_dtype_device_and_layout_faults_say_what_was_expected():
    expected = torch.zeros(2, 3, dtype=torch.float64)
    assert check(torch.zeros(3, 2), expected)["problem"] == "output shape (3, 2), expected (2, 3)"
    assert (
        check(torch.zeros(2, 3, dtype=torch.float16), expected)["problem"]
        == "output dtype float16, expected float32"
    )
    assert (
        check(torch.zeros(2, 3), expected, device=torch.device("cuda", 0))["problem"]
        == "output on cpu, expected cuda:0"
    )
    assert check(torch.zeros(3, 2).t(), expected)["problem"] == (
        "output is not contiguous (strides (1, 2)); the contract asks for a contiguous tensor"
    )


def test_a_large_error_is_reported_with_its_ratio_and_the_worst_element():
    expected = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)
    out = torch.tensor([1.0, 2.5, 3.0, 4.0])
    result = check(out, expected, tolerance=0.05)
    assert not result["ok"]
    assert math.isclose(result["rel_err"], 0.5 / math.sqrt(30))
    assert result["max_abs_err"] == 0.5
    assert result["first_mismatch"] == {"index": [1], "got": 2.5, "expected": 2.0}
    rel = result["rel_err"]
    assert result["problem"] == f"relative error {rel:.3g} exceeds the tolerance 0.05"


def test_a_small_error_just_under_the_tolerance_passes():
    expected = torch.tensor([3.0, 4.0], dtype=torch.float64)
    out = torch.tensor([3.0, 4.0 + 0.49])
    assert check(out, expected, tolerance=0.1)["ok"]
    assert not check(torch.tensor([3.0, 4.0 + 0.51]), expected, tolerance=0.1)["ok"]


def test_an_outlier_hidden_in_the_norm_is_counted_and_its_index_given_in_every_dimension():
    expected = torch.full((300, 100), 10.0, dtype=torch.float64)
    expected[0, 0] = 11.0
    out = expected.float().clone()
    out[170, 33] += 10.0 * ELEMENT_SLACK * 1e-4 * 1.5
    out[299, 99] += 10.0 * ELEMENT_SLACK * 1e-4 * 1.5
    result = check(out, expected, tolerance=1e-4)
    assert result["rel_err"] < 1e-4
    assert not result["ok"]
    assert result["first_mismatch"]["index"] == [170, 33]
    assert result["problem"].startswith("2 element(s) are far off although the norm error")


def test_nan_and_infinity_faults_are_counted_and_shown_as_text():
    expected = torch.tensor([1.0, float("inf"), 3.0, 4.0], dtype=torch.float64)
    out = torch.tensor([float("nan"), float("-inf"), 3.0, float("inf")])
    result = check(out, expected)
    assert result["problem"] == (
        "3 element(s) are NaN or inf where the reference is not, or the reverse"
    )
    assert result["first_mismatch"] == {"index": [0], "got": "nan", "expected": 1.0}


def test_a_nan_in_the_reference_must_be_matched():
    expected = torch.tensor([1.0, float("nan")], dtype=torch.float64)
    assert check(torch.tensor([1.0, float("nan")]), expected)["ok"]
    assert "NaN or inf" in check(torch.tensor([1.0, 2.0]), expected)["problem"]


def test_a_constant_output_names_its_value():
    expected = torch.linspace(0, 1, 50, dtype=torch.float64)
    result = check(torch.full((50,), 0.5), expected, tolerance=10.0)
    assert result["problem"] == "every element is 0.5: a constant output where the reference varies"
    single = torch.tensor([2.0], dtype=torch.float64)
    assert check(torch.tensor([2.0]), single)["ok"]


def test_an_all_zero_reference_is_judged_by_the_absolute_error():
    expected = torch.zeros(4, dtype=torch.float64)
    result = check(torch.tensor([0.0, 0.0, 3.0, 4.0]), expected, tolerance=1.0)
    assert result["rel_err"] == 5.0
    assert not result["ok"]
    assert check(torch.zeros(4), expected)["ok"]


def test_an_empty_output_of_the_right_shape_passes():
    result = check(torch.zeros(0, 3), torch.zeros(0, 3))
    assert result["ok"] and result["max_abs_err"] == 0.0


def test_a_scale_per_position_sets_the_denominator_and_each_element_s_bound():
    expected = torch.tensor([1.0, 1000.0], dtype=torch.float64)
    scale = torch.tensor([1.0, 1000.0], dtype=torch.float64)
    out = torch.tensor([1.5, 1000.0])
    result = check(out, expected, tolerance=1e-3, scale=scale)
    assert math.isclose(result["rel_err"], 0.5 / float(torch.linalg.vector_norm(scale)))
    assert result["first_mismatch"]["index"] == [0]
    assert not result["ok"]


def test_a_number_scale_replaces_the_reference_norm():
    expected = torch.tensor(2.0, dtype=torch.float64)
    result = check(torch.tensor(2.5), expected, tolerance=0.01, scale=100.0)
    assert result["rel_err"] == 0.005
    assert result["ok"]


def test_inputs_are_unchanged_when_equal_bit_for_bit_nan_included():
    before = [torch.tensor([1.0, float("nan")]), torch.tensor([3.0])]
    same = [t.clone() for t in before]
    assert inputs_unchanged(before, same, ["x", "y"]) == ""
    changed = [before[0].clone(), torch.tensor([4.0])]
    assert inputs_unchanged(before, changed, ["x", "y"]) == (
        "input y was modified by the call (1 element(s) changed); inputs are read-only"
    )
    nan_filled = [torch.tensor([float("nan"), float("nan")]), before[1].clone()]
    assert inputs_unchanged(before, nan_filled, ["x", "y"]) == (
        "input x was modified by the call (1 element(s) changed); inputs are read-only"
    )


def test_an_input_missing_after_the_call_is_an_error_not_a_pass():
    before = [torch.zeros(2), torch.zeros(2)]
    with pytest.raises(ValueError, match="zip"):
        inputs_unchanged(before, before[:1], ["x", "y"])
