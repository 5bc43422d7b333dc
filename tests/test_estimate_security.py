"""Hostile and arbitrary text: only EstimateError comes out, quickly, and nothing runs."""

from __future__ import annotations

import sys
import time
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import Context, evaluate


@cache
def bank() -> Bank:
    loaded, _problems = load_bank()
    return loaded


@cache
def context() -> Context:
    return Context(hardware=bank().hardware, gpu=bank().hardware["h100_sxm"])


INJECTIONS = [
    "__import__('os')",
    '__import__("os").system("echo pwned")',
    "().__class__",
    "().__class__.__bases__[0].__subclasses__()",
    "exec('1')",
    "exec(1)",
    "eval(1)",
    "open(1)",
    "lambda: 1",
    "(lambda x: x)(1)",
    "9**9**9**9",
    "9^9^9^9",
    "2**99999999",
    "10^309",
    "1e308 * 10",
    "h100_sxm.__dict__",
    "h100_sxm.__class__",
    "h100_sxm.model_fields",
    "h100_sxm.specs",
    "h100_sxm.hbm_bandwidth.__class__",
    "gpu.__class__",
    "gpu.__init__",
    "gpu.get",
    "gpu",
    "Quantity",
    "__builtins__",
    "globals()",
    "[1, 2]",
    "{1: 2}",
    "'text'",
    "1; 2",
    "a = 1",
    "1 if 1 else 2",
    "(" * 200 + "1" + ")" * 200,
    "-" * 300 + "1",
    "2" + "^2" * 200,
    "max(" * 100 + "1" + ")" * 100,
    "1" * 10_000,
    "1 + " * 3_000 + "1",
]


_WATCHED_EVENTS = {
    "exec",
    "compile",
    "import",
    "open",
    "os.system",
    "subprocess.Popen",
    "os.exec",
    "os.spawn",
}
_watch = {"on": False, "seen": []}


def _audit(event: str, _args: object) -> None:
    if _watch["on"] and event in _WATCHED_EVENTS:
        _watch["seen"].append(event)


sys.addaudithook(_audit)


@pytest.mark.parametrize("text", INJECTIONS, ids=lambda t: t[:30])
def test_injection_attempts_are_refused_and_nothing_runs(text: str) -> None:
    evaluate("1 ms + 1 B / h100_sxm.hbm_bandwidth", context())  # lazy imports happen here
    started = time.perf_counter()
    _watch["seen"] = []
    _watch["on"] = True
    try:
        with pytest.raises(EstimateError, match=r"\(at column \d+\)"):  # refused, and says where
            evaluate(text, context())
    finally:
        _watch["on"] = False
    assert _watch["seen"] == [], "the engine compiled, imported, opened or ran something"
    assert time.perf_counter() - started < 10.0  # a hang detector, not a budget (benchmarks/ measures speed)


def test_a_refused_huge_power_says_why_before_computing() -> None:
    with pytest.raises(EstimateError, match="exponent .* too large") as caught:
        evaluate("9**9**9**9")
    assert caught.value.position is not None


ALPHABET = st.sampled_from(
    list("0123456789.eE+-*/^() ,_~≈×·²³abcdefghMNKGTPBsuµWJHzFLOPSgpu")
    + [" ms", " TB/s", "h100_sxm.", "gpu.", "max(", "sqrt(", "**", "FLOP"]
)


@settings(max_examples=250, deadline=1000)
@given(st.text(max_size=80))
def test_arbitrary_text_raises_only_the_engines_error(text: str) -> None:
    started = time.perf_counter()
    try:
        evaluate(text, context())
    except EstimateError as error:
        assert str(error)
    assert time.perf_counter() - started < 10.0  # a hang detector, not a budget (benchmarks/ measures speed)


@settings(max_examples=250, deadline=1000)
@given(st.lists(ALPHABET, max_size=60).map("".join))
def test_almost_valid_text_raises_only_the_engines_error(text: str) -> None:
    started = time.perf_counter()
    try:
        result = evaluate(text, context())
    except EstimateError as error:
        message = str(error)
        assert message
        if error.position is not None and error.text:
            assert "^" in message
    else:
        assert result.magnitude == result.magnitude  # never NaN
        assert abs(result.magnitude) != float("inf")
    assert time.perf_counter() - started < 10.0  # a hang detector, not a budget (benchmarks/ measures speed)


@settings(max_examples=200, deadline=1000)
@given(
    st.floats(min_value=1e-12, max_value=1e12),
    st.sampled_from(["ms", "us", "GB", "TB/s", "TFLOP/s", "W"]),
)
def test_a_number_with_a_unit_reads_back_as_itself(value: float, unit: str) -> None:
    assert evaluate(f"{value!r} {unit}").to(unit) == pytest.approx(value)


@settings(max_examples=150, deadline=1000)
@given(st.one_of(st.text(max_size=60), st.lists(ALPHABET, max_size=40).map("".join)))
def test_grading_any_text_gives_a_grade_never_an_exception(text: str) -> None:
    from gpuprep.estimate.grading import grade
    from gpuprep.estimate.solve import solve

    question = next(q for q in bank().questions.values() if q.estimate is not None)
    solve(question, bank())  # the question itself is sound
    result = grade(question, text, bank())
    assert result.verdict in ("correct", "close", "wrong", "invalid")
    assert result.message
