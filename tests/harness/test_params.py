"""Scalar params reach the entry after the inputs, every value is checked, and a report line
names the params of the case that failed; inputs may be 1-D or 4-D and draw from their own
distribution. The judge runs on the CPU here, through Triton's interpreter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from gpuprep.bank.drill import Drill
from gpuprep.harness.api import submit
from gpuprep.harness.inputs import case_distributions, make_inputs, param_cases
from gpuprep.harness.verdicts import describe_case

FIXTURES = Path(__file__).parent / "fixtures" / "params"


def layernorm_drill(**changes: Any) -> Drill:
    spec: dict[str, Any] = {
        "id": "layernorm_fixture",
        "title": "Layernorm (fixture)",
        "topic": "memory-hierarchy",
        "entry": "layernorm",
        "contract": "layernorm(x, weight, bias, eps) over the last dim",
        "inputs": [
            {"name": "x", "shape": ["rows", "cols"]},
            {"name": "weight", "shape": ["cols"], "distribution": "near_one"},
            {"name": "bias", "shape": ["cols"], "distribution": "small"},
        ],
        "params": [{"name": "eps", "values": [1.0e-5, 0.5]}],
        "output_shape": ["rows", "cols"],
        "dtypes": ["float32"],
        "distributions": [
            {"name": "normal", "kind": "normal"},
            {"name": "near_one", "kind": "normal", "mean": 1.0, "std": 0.1},
            {"name": "small", "kind": "normal", "std": 0.1},
        ],
        "reference": "layernorm",
        "tolerance": {"float32": 1.0e-5},
        "bytes": "2 * rows * cols * itemsize",
        "flops": "8 * rows * cols",
        "cpu_shapes": [
            {"label": "odd", "dims": {"rows": 3, "cols": 37}},
            {"label": "eps fixed", "dims": {"rows": 2, "cols": 64}, "params": {"eps": 1.0e-5}},
        ],
        "bench_shapes": [
            {"label": "headline", "dims": {"rows": 64, "cols": 1024}, "params": {"eps": 1.0e-5}}
        ],
    }
    spec.update(changes)
    return Drill.model_validate(spec)


def attention_drill() -> Drill:
    return Drill.model_validate(
        {
            "id": "attention_fixture",
            "title": "Attention (fixture)",
            "topic": "memory-hierarchy",
            "entry": "attention",
            "contract": "attention(q, k, v, causal), (B, H, S, D)",
            "inputs": [
                {"name": n, "shape": ["batch", "heads", "seq", "dim"]} for n in ("q", "k", "v")
            ],
            "params": [{"name": "causal", "values": [False, True]}],
            "requires": ["tensor_cores"],
            "output_shape": ["batch", "heads", "seq", "dim"],
            "dtypes": ["float32"],
            "distributions": [{"name": "normal", "kind": "normal"}],
            "reference": "attention",
            "tolerance": {"float32": 1.0e-5},
            "flops": "4 * batch * heads * seq * seq * dim / (1 + causal)",
            "cpu_shapes": [
                {"label": "odd", "dims": {"batch": 1, "heads": 2, "seq": 7, "dim": 16}},
                {
                    "label": "causal only",
                    "dims": {"batch": 2, "heads": 1, "seq": 20, "dim": 16},
                    "params": {"causal": True},
                },
            ],
            "bench_shapes": [
                {
                    "label": "headline",
                    "dims": {"batch": 4, "heads": 32, "seq": 4096, "dim": 128},
                    "params": {"causal": False},
                },
            ],
        }
    )


def judge(drill: Drill, fixture: str, ladder: Path):
    """`ladder` is an empty folder: the fixtures' own folder would be the protected ladder."""
    return submit(drill, ladder, FIXTURES / f"{fixture}.py", cpu=True, timeout_s=120)


def test_every_param_value_is_checked_unless_the_shape_fixes_one():
    spec = layernorm_drill().to_worker_spec()
    assert param_cases(spec, spec["cpu_shapes"][0]) == [{"eps": 1.0e-5}, {"eps": 0.5}]
    assert param_cases(spec, spec["cpu_shapes"][1]) == [{"eps": 1.0e-5}]
    two = {"params": [{"name": "a", "values": [1, 2]}, {"name": "b", "values": [True, False]}]}
    assert param_cases(two, {"params": {"b": True}}) == [{"a": 1, "b": True}, {"a": 2, "b": True}]
    assert param_cases({"params": []}, {}) == [{}]


def test_an_input_with_its_own_distribution_keeps_it_and_cases_do_not_cycle_through_it():
    spec = layernorm_drill().to_worker_spec()
    assert [d["name"] for d in case_distributions(spec)] == ["normal"]
    import torch

    x, weight, bias = make_inputs(
        spec, {"rows": 4, "cols": 4096}, "float32", spec["distributions"][0], 7, torch.device("cpu")
    )
    assert weight.shape == (4096,) and bias.shape == (4096,)
    assert abs(float(weight.mean()) - 1.0) < 0.02 and float(weight.std()) < 0.2
    assert abs(float(bias.mean())) < 0.02 and float(x.std()) > 0.5


def test_a_case_names_its_params():
    assert (
        describe_case({"seq": 7}, "float32", "normal", {"causal": True})
        == "seq=7, causal=True, float32, normal values"
    )


def test_a_right_layernorm_passes_every_eps_and_the_checks_say_which_ran(tmp_path):
    report = judge(layernorm_drill(), "layernorm_ok", tmp_path)
    assert report.status == "passed", report.message
    ran = [(check.dims["cols"], check.params["eps"]) for check in report.checks]
    assert ran == [(37, 1.0e-5), (37, 0.5), (64, 1.0e-5)]


def test_a_layernorm_that_ignores_eps_fails_on_the_case_that_names_the_other_eps(tmp_path):
    report = judge(layernorm_drill(), "layernorm_ignores_eps", tmp_path)
    assert report.status == "failed"
    assert "eps=0.5" in report.message and "exceeds the tolerance" in report.message


def test_a_layernorm_that_ignores_the_weight_fails_because_the_weight_is_near_one_not_one(tmp_path):
    report = judge(layernorm_drill(), "layernorm_ignores_weight", tmp_path)
    assert report.status == "failed" and "cols=37, eps=1e-05" in report.message


def test_attention_takes_causal_after_the_rank_4_inputs(tmp_path):
    report = judge(attention_drill(), "attention_ok", tmp_path)
    assert report.status == "passed", report.message
    assert [check.params["causal"] for check in report.checks] == [False, True, True]
    # On a CPU the required method is reported as not checked, never refused.
    assert any("tensor cores: method not checked without a GPU" in note for note in report.notes)


def test_an_attention_that_never_masks_fails_on_the_causal_case(tmp_path):
    report = judge(attention_drill(), "attention_ignores_causal", tmp_path)
    assert report.status == "failed" and "causal=True" in report.message


@pytest.mark.parametrize(
    "changes, fragment",
    [
        ({"bench_shapes": [{"dims": {"rows": 8, "cols": 8}}]}, "bench_shapes[0] must fix eps"),
        (
            {"cpu_shapes": [{"dims": {"rows": 1, "cols": 1}, "params": {"epsilon": 0.1}}]},
            "fixes epsilon, which is not a param",
        ),
        (
            {"cpu_shapes": [{"dims": {"rows": 1, "cols": 1}, "params": {"eps": 0.1}}]},
            "fixes eps to 0.1, not one of its values",
        ),
        ({"params": [{"name": "x", "values": [1]}]}, "reuse an input's name"),
        (
            {"inputs": [{"name": "x", "shape": ["rows", "cols"], "distribution": "skewed"}]},
            "names distribution 'skewed'",
        ),
        ({"flops": "rows * cols * gamma"}, "unknown symbols gamma"),
    ],
)
def test_a_drill_with_a_param_mistake_is_refused_with_where_it_is(changes, fragment):
    with pytest.raises(
        ValidationError, match=fragment.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")
    ):
        layernorm_drill(**changes)


def test_formulas_may_use_params_and_true_counts_as_one():
    drill = attention_drill()
    assert "causal" in drill.flops and drill.bench_shapes[0].params == {"causal": False}


def test_a_timed_shape_and_a_failed_check_name_their_params_where_they_are_shown():
    from gpuprep.harness.figures import further_shapes
    from gpuprep.harness.report import CaseCheck, KernelLine, ShapeLine, Status, SubmitReport
    from gpuprep.sessions.drill_report import summarise

    dims = {"batch": 4, "heads": 32, "seq": 4096, "dim": 128}
    line = KernelLine(
        "v3_tuned",
        Status.PASSED,
        shapes=[
            ShapeLine("headline", dims, Status.PASSED, params={"causal": False}),
            ShapeLine("causal", dims, Status.PASSED, params={"causal": True}),
        ],
    )
    [(label, text, _pairs)] = further_shapes([line])
    assert label == "causal" and text.endswith("dim=128, causal=True")
    check = CaseCheck({"seq": 7}, "bfloat16", "normal", ok=False, params={"causal": True}, problem="off")
    report = SubmitReport(drill="flash_attention", file="a.py", status=Status.FAILED, checks=[check])
    assert "seq=7, causal=True bfloat16 normal: off" in summarise(report).failures
