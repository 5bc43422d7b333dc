"""What the judge concludes from one call: the form of the output, its values, the bands.

Judge side: torch only. The sandbox's description of its output is untrusted and only
explains a wrong form to an honest author; a right verdict rests on the values the judge
reads back from the arena and compares, in its own process, with the float64 reference it
computed from its private copy of the inputs.
"""

from __future__ import annotations

import re
from typing import Any

import torch

from gpuprep.harness.arena import dtype_name
from gpuprep.harness.protocol import CallReply, OutputFacts

#: Exception text that means the CUDA context is gone: the kernel faulted, not merely raised.
CUDA_FAULT = re.compile(
    r"illegal memory access|misaligned address|unspecified launch failure|illegal instruction|"
    r"device-side assert|CUDA_ERROR_ILLEGAL|cudaErrorIllegal|cudaErrorLaunchFailure|an illegal|hardware stack error",
    re.IGNORECASE,
)
FORBIDS = "which this drill forbids: write the kernel yourself (outside the kernel, only allocation, views and copies)"


def form_problem(
    facts: OutputFacts, shape: tuple[int, ...], dtype: torch.dtype, device: torch.device, inputs: list[str]
) -> str:
    """'' when the output is a plain contiguous tensor of the contract's shape, dtype and device."""
    kind = facts.get("kind")
    if kind == "other":
        return f"returned {facts.get('type_name', 'something')}, expected a torch.Tensor"
    if kind == "subclass":
        return f"returned a {facts.get('type_name')} (a tensor subclass); return a plain torch.Tensor"
    if facts.get("attributes"):
        return (
            f"the output tensor carries Python attributes ({', '.join(facts['attributes'])}); "
            "return a plain torch.Tensor"
        )
    if tuple(facts.get("shape", ())) != tuple(shape):
        return f"output shape {tuple(facts.get('shape', ()))}, expected {tuple(shape)}"
    if facts.get("dtype") != dtype_name(dtype):
        return f"output dtype {facts.get('dtype')}, expected {dtype_name(dtype)}"
    if facts.get("device") != str(device):
        return f"output on {facts.get('device')}, expected {device}"
    if not facts.get("contiguous"):
        return (
            f"output is not contiguous (strides {tuple(facts.get('strides', ()))}); "
            "the contract asks for a contiguous tensor"
        )
    alias = facts.get("aliases")
    if alias:
        return f"the output is memory of input {inputs[int(alias)]} (a view or the input itself); return a new tensor"
    if not facts.get("copied"):
        return "the output could not be copied back for checking"
    return ""


def call_problem(reply: CallReply) -> tuple[str, str]:
    """(status, message) for a call that raised or broke a rule before its values matter."""
    if not reply.get("ok"):
        error = str(reply.get("error", "an exception"))
        if CUDA_FAULT.search(error) or CUDA_FAULT.search(str(reply.get("traceback", ""))):
            return "crashed", f"CUDA fault: {error.splitlines()[0] if error else ''}"
        return "failed", f"the call raised {error}"
    forbidden = [str(op) for op in reply.get("forbidden", [])]
    if forbidden:
        return "rejected", f"calls {', '.join(forbidden)}, {FORBIDS}"
    if reply.get("stream"):
        return "rejected", str(reply["stream"])
    return "", ""


def inputs_unchanged(private: list[torch.Tensor], shared: list[torch.Tensor], names: list[str]) -> str:
    """'' when the inputs in the arena are bitwise what the judge wrote, else which one changed."""
    for name, old, new in zip(names, private, shared, strict=True):
        equal = (old == new) | (torch.isnan(old) & torch.isnan(new))
        if not bool(equal.all()):
            return f"input {name} was modified by the call ({int((~equal).sum())} element(s) changed); inputs are read-only"
    return ""


def describe_case(dims: dict[str, int], dtype: str, distribution: str, params: dict[str, object] | None = None) -> str:
    """'rows=3, cols=7, causal=True, float32, normal values': the shape, then the params."""
    where = ", ".join(f"{k}={v}" for k, v in {**dims, **(params or {})}.items())
    return f"{where}, {dtype}, {distribution} values"


#: A kernel faster than this multiple of the memory's speed cannot have moved its bytes.
LIGHT_SLACK = 1.10


def faster_than_light(row: dict[str, Any], bandwidth: float | None, flop_rate: float | None) -> str:
    """Why a timed row is impossible ('' when it is not): more bytes per second than the memory
    moves, or more FLOPs per second than the tensor cores do, beyond LIGHT_SLACK either way."""
    seconds = row["timing"]["median_ms"] / 1e3
    if bandwidth and row["bytes"]:
        achieved = row["bytes"] / seconds
        if achieved > LIGHT_SLACK * bandwidth:
            return (
                f"faster than the memory can move the bytes: {achieved / 1e9:.0f} GB/s against a ceiling of "
                f"{bandwidth / 1e9:.0f} GB/s: work outside the timed stream or a reused result"
            )
    if flop_rate and row["flops"]:
        rate = row["flops"] / seconds
        if rate > LIGHT_SLACK * flop_rate:
            return (
                f"faster than the tensor cores can do the arithmetic: {rate / 1e12:.0f} TFLOP/s against a "
                f"peak of {flop_rate / 1e12:.0f} TFLOP/s ({row['dtype']}): work outside the timed "
                "stream, a reused result, or less work than the contract asks"
            )
    return ""


def outside_the_stream(
    summary: dict[str, Any], baseline_ms: float, out_bytes: int, bandwidth: float | None
) -> bool:
    """Did the judge's bracket around the timed calls see far more than their events?

    The bracket holds one round trip (`baseline_ms`, a no-op's), the kernel, and the output's copy
    into the arena after the timed region: a read and a write of it, allowed twice at the
    memory's rate (a 512 MB layernorm output takes about as long as the kernel; without it the
    flag fired on an honest rung on the H200). Beyond twice the kernel plus 0.2 ms of that, work
    ran outside the timed stream, or another process shared the GPU."""
    delivery_ms = 2 * (2.0 * out_bytes / bandwidth) * 1e3 if bandwidth else 0.0
    extra = float(summary["bracket_min_ms"]) - baseline_ms
    return extra > 2 * float(summary["median_ms"]) + 0.2 + delivery_ms
