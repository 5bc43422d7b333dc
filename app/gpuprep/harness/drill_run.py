"""One drill run inside the judge: every kernel checked on fresh inputs, then timed.

Judge side: standard library and torch only; nothing here imports a kernel. Each kernel
gets its own sandbox; each call gets inputs drawn from a fresh seed after the sandbox is
running, written into the shared arena between guard bands, and its output is read back and
compared with the float64 reference computed here from a private copy.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import torch

from gpuprep.harness.arena import DTYPES, Arena, case_bytes
from gpuprep.harness.checking import check_output
from gpuprep.harness.inputs import case_distributions, make_inputs, param_cases
from gpuprep.harness.methods import KernelCode, merge_code, method_outcome
from gpuprep.harness.protocol import CallReply, Channel, OutputFacts
from gpuprep.harness.references import REFERENCES, error_scale, expected_dtype
from gpuprep.harness.sandboxes import STARTUP_S, Sandbox, Stopped, chunk_hint
from gpuprep.harness.timing import FLAG_OUTSIDE_THE_STREAM, Timer, Timing, describe_device
from gpuprep.harness.verdicts import (
    call_problem,
    describe_case,
    faster_than_light,
    form_problem,
    inputs_unchanged,
    outside_the_stream,
)
from gpuprep.units.formulas import evaluate

NO_KERNEL = (
    "no Triton kernel ran in any of the checked calls: the result was computed somewhere else "
    "(a library op, numpy, another thread); write the kernel yourself"
)
#: Triton's interpreter (3.9) gets some bf16 arithmetic wrong (tl.maximum with -inf, sums,
#: x * x on bf16 values): a kernel right on a GPU can fail here, so the verdict says so.
BF16_IN_THE_INTERPRETER = (
    " (on a CPU: Triton's interpreter computes some bfloat16 arithmetic wrongly; if your kernel "
    "does its arithmetic in bfloat16, cast to float32 inside it, or check it on a GPU)"
)
TIMED_DEFAULTS = {"warmup": 3, "min_runs": 10, "max_runs": 300, "budget_s": 3.0, "settle": 0.002}


def arena_bytes(config: dict[str, Any]) -> int:
    """The arena that holds the largest case this run will make."""
    spec = config["spec"]
    shapes = list(spec["cpu_shapes"]) + list(spec["gpu_shapes"])
    if config.get("mode") == "gpu" and not config.get("check_only"):
        shapes += spec["bench_shapes"]
    itemsize = 4
    largest = 0
    for shape in shapes:
        dims = shape["dims"]
        inputs = [tuple(dims[s] for s in item["shape"]) for item in spec["inputs"]]
        output = tuple(dims[s] for s in spec["output_shape"])
        largest = max(largest, case_bytes(inputs, output, itemsize))
    return largest


#: A developer's aid: where each call's time goes (inputs, the round trip, the checks), one line
#: a call appended to this file. Set GPUPREP_JUDGE_PROFILE=/path/to/file.
PROFILE = os.environ.get("GPUPREP_JUDGE_PROFILE", "")


def _fresh() -> int:
    return int.from_bytes(os.urandom(8), "little") >> 1


@dataclass
class Outcome:
    """One call, judged."""

    status: str = "passed"
    message: str = ""
    record: dict[str, Any] = field(default_factory=dict)
    event_ms: float | None = None
    bracket_ms: float = 0.0
    launches: int | None = None


class DrillRun:
    """Checks and times the kernels the app listed, reporting each as it finishes."""

    def __init__(
        self, config: dict[str, Any], channel: Channel, open_sandbox: Callable[[], Sandbox], arena: Arena
    ) -> None:
        self.spec = config["spec"]
        self.kernels = config["kernels"]
        self.channel = channel
        self.open_sandbox = open_sandbox
        self.arena = arena
        self.device = arena.device
        self.gpu = self.device.type == "cuda"
        self.check_only = bool(config.get("check_only")) or not self.gpu
        self.stop_on_failure = bool(config.get("stop_on_failure"))
        self.trials = int(config.get("trials", 1)) if self.gpu else 1
        self.shape_filter = config.get("bench_shapes")
        self.want_copy = bool(config.get("copy"))
        self.cpu_skip_ladder = bool(config.get("cpu_skip_ladder"))
        self.protected = [os.path.realpath(d) + os.sep for d in config.get("protected_dirs", [])]
        self.timeout_s = float(config.get("timeout_s", 300.0))
        self.ladder_timeout_s = float(config.get("ladder_timeout_s", 300.0))
        self.timing = {**TIMED_DEFAULTS, **config.get("timing", {})}
        # The ladder and the vendor op are timed to put a submission in context: their own
        # checked timed calls are enough there, and a looser settle costs seconds, not verdicts.
        self.ladder_timing = {**self.timing, **config.get("ladder_timing", {})}
        self.check_ladder = bool(config.get("check_ladder", True))
        self.sanitize = bool(config.get("sanitize"))
        """Under compute-sanitizer (`submit --sanitize`): the sandboxes are told, see sandbox.py."""
        self.reference = REFERENCES[self.spec["reference"]]
        self.names = [item["name"] for item in self.spec["inputs"]]
        self.role = "submission"
        self.bandwidth: float | None = None
        self.flop_rate: float | None = None
        """The datasheet's tensor-core peak for the timed dtype (FLOP/s), when the app knows it."""
        self.kernel_code: dict[str, KernelCode] = {}
        self.timer = Timer(self.device) if self.gpu else None

    # -- the run ---------------------------------------------------------------------------
    def run(self) -> None:
        self.channel.send("ready", device=describe_device(self.device))
        ceilings = json.loads(sys.stdin.readline() or "{}")
        # Timed by the judge itself: the speed-of-light verdict needs it when no table matches.
        copy = self.time_copy() if self.gpu and not self.check_only else None
        copy_gbps = _copy_gbps(copy)
        datasheet = ceilings.get("bandwidth")
        if datasheet:
            self.bandwidth = float(datasheet)
        elif copy_gbps:
            self.bandwidth = copy_gbps * 1e9 * 1.15
        flop_rates = ceilings.get("flops") or {}
        if isinstance(flop_rates, dict) and flop_rates.get(self.spec["bench_dtype"]):
            self.flop_rate = float(flop_rates[self.spec["bench_dtype"]])
        for kernel in self.kernels:
            if not self.gpu and self.cpu_skip_ladder and kernel["role"] != "submission":
                continue
            self.channel.send("phase", kernel=kernel["name"], phase="starting")
            result = self.run_kernel(kernel)
            self.channel.send("kernel", result=result)
            if self.stop_on_failure and kernel["role"] == "submission" and result["status"] != "passed":
                return
        if copy is not None and self.want_copy:
            self.channel.send("kernel", result=copy)

    def run_kernel(self, kernel: dict[str, Any]) -> dict[str, Any]:
        base = {"name": kernel["name"], "role": kernel["role"], "language": kernel.get("language", "triton")}
        if base["language"] == "cuda" and not self.gpu:
            return {
                **base,
                "status": "skipped",
                "message": "a CUDA (CuPy) kernel needs a CUDA GPU; on a CPU only Triton runs, through its interpreter",
            }
        budget = self.timeout_s if kernel["role"] == "submission" else self.ladder_timeout_s
        self.role = kernel["role"]
        self.kernel_code = {}
        box: Sandbox | None = None
        try:
            box = self.open_sandbox()
            hello = box.ask(self._hello(kernel, box), STARTUP_S, "the sandbox's start-up")
            if not hello.get("ok"):
                detail = str(hello.get("traceback") or "")[-1500:]
                return {**base, "status": "crashed", "message": f"the sandbox could not start: {hello.get('error')}\n{detail}".rstrip()}
            deadline = time.monotonic() + budget
            refusal = self._load(kernel, box, deadline)
            if refusal:
                return {**base, **refusal}
            checked = kernel["role"] == "submission" or self.check_ladder or self.check_only
            if checked:
                result = {**base, **self.check_kernel(kernel, box, deadline)}
            else:
                result = {**base, "status": "passed", "message": "", "checks": []}
            if result["status"] == "passed" and checked:
                result.update(self.method_verdict(kernel))
            if result["status"] == "passed" and not self.check_only:
                result["bench"] = self.time_kernel(kernel, box, deadline)
                failed = [row for row in result["bench"] if row["status"] != "passed"]
                if failed:
                    result.update(status=failed[0]["status"], message=f"timed run: {failed[0]['message']}")
                elif not checked:  # the methods, from the code the timed calls launched
                    result.update(self.method_verdict(kernel))
            return result
        except Stopped as stop:
            return {**base, "status": stop.status, "message": stop.message}
        finally:
            if box is not None:
                box.close()

    def method_verdict(self, kernel: dict[str, Any]) -> dict[str, Any]:
        """The required methods, judged from the compiled code the checked calls launched."""
        role = kernel["role"]
        if role == "submission":
            tracks = self.spec.get("requires_tracks") or ["triton", "cuda"]
            required = (self.spec.get("requires") or []) if kernel.get("language", "triton") in tracks else []
        else:
            required = kernel.get("requires") or []
        return method_outcome(role, required, list(self.kernel_code.values()), self.gpu)

    def _hello(self, kernel: dict[str, Any], box: Sandbox) -> dict[str, Any]:
        request = {
            "op": "hello",
            "device": self.device.type,
            "role": kernel["role"],
            "forbidden": self.spec["forbidden_ops"] if kernel["role"] != "vendor" else [],
            "sanitize": self.sanitize,
        }
        if self.gpu:
            from torch.multiprocessing import reductions

            # Untyped in torch: (rebuild function, its arguments), which only pickling carries.
            reduce_tensor: Callable[[torch.Tensor], tuple[Any, ...]] = reductions.reduce_tensor
            request.update(index=self.device.index, arena_handle=reduce_tensor(self.arena.bytes))
        return request

    def _load(self, kernel: dict[str, Any], box: Sandbox, deadline: float) -> dict[str, Any]:
        request = {
            "op": "load",
            "path": kernel.get("path", ""),
            "entry": self.spec["entry"],
            "language": kernel.get("language", "triton"),
        }
        if kernel["role"] == "vendor":
            request["vendor"] = self.spec["reference"]
        reply = box.ask(request, deadline - time.monotonic(), "loading the file")
        if reply.get("missing"):
            return {"status": "failed", "message": str(reply.get("error", ""))}
        if not reply.get("ok"):
            return {
                "status": "failed",
                "message": f"loading the file raised {reply.get('error', 'an exception')}",
                "traceback": str(reply.get("traceback", "")),
            }
        if reply.get("forbidden"):
            ops = ", ".join(map(str, reply["forbidden"]))
            return {"status": "rejected", "message": f"calls {ops} while loading, which this drill forbids: write the kernel yourself"}
        if kernel["role"] == "submission":
            own = os.path.realpath(kernel["path"])
            for path in map(str, reply.get("modules", [])):
                if path != own and any(path.startswith(d) for d in self.protected):
                    return {"status": "rejected", "message": f"loads {os.path.basename(path)} from the reference ladder: submit your own kernel"}
        return {}

    # -- one call --------------------------------------------------------------------------
    def call(
        self,
        box: Sandbox,
        dims: dict[str, int],
        dtype: str,
        distribution: dict[str, Any],
        params: dict[str, Any],
        timed: bool,
        limit_s: float,
        phase: str,
    ) -> Outcome:
        """Fresh inputs, the call in the sandbox (inputs, then params in declared order), and
        every check of what came back."""
        spec = self.spec
        entered = time.perf_counter()
        private = make_inputs(spec, dims, dtype, distribution, _fresh(), self.device)
        out_shape = tuple(dims[s] for s in spec["output_shape"])
        slots, out_slot = self.arena.layout([tuple(t.shape) for t in private], dtype, out_shape)
        shared = [self.arena.view(slot) for slot in slots]
        for target, source in zip(shared, private, strict=True):
            target.copy_(source)
        self.arena.arm_bands()
        if self.gpu:
            torch.cuda.synchronize()
        started = time.perf_counter()
        request = {"op": "call", "inputs": slots, "params": list(params.values()), "out": out_slot, "timed": timed}
        # Parsed JSON from the untrusted side: shaped like CallReply, and read only through .get.
        reply = cast(CallReply, box.ask(request, limit_s, phase))
        outcome = Outcome(bracket_ms=(time.perf_counter() - started) * 1e3)
        prepared_ms = (started - entered) * 1e3
        event = reply.get("event_ms")
        outcome.event_ms = float(event) if isinstance(event, (int, float)) else None
        launches = reply.get("launches")
        outcome.launches = launches if isinstance(launches, int) else None
        merge_code(self.kernel_code, reply.get("kernel_code") or [])
        case = describe_case(dims, dtype, distribution["name"], params)
        status, message = call_problem(reply)
        borrowed = [f for f in map(str, reply.get("kernel_files") or []) if any(f.startswith(p) for p in self.protected)]
        if borrowed and self.role == "submission" and not status:
            status = "rejected"
            message = f"launches a kernel from {os.path.basename(borrowed[0])} of the reference ladder: submit your own kernel"
        if status:
            return Outcome(status, f"{message} (for {case})" if status != "rejected" else message)
        overflow = str(reply.get("overflow") or "") or self.arena.band_problem(self.names)
        if overflow:
            return Outcome("failed", f"out-of-bounds write for {case}: {overflow}")
        mutated = inputs_unchanged(private, shared, self.names)
        if mutated:
            return Outcome("failed", f"inputs changed for {case}: {mutated}")
        want = expected_dtype(spec["reference"], DTYPES[dtype])
        facts = cast(OutputFacts, dict(reply.get("output") or {}))
        if self.role == "vendor":  # x.t().contiguous() of a 1 x N input is x itself
            facts["aliases"] = ""
        problem = form_problem(facts, out_shape, want, self.device, self.names)
        if problem:
            return Outcome("failed", f"wrong output for {case}: {problem}")
        out = self.arena.output(out_slot, list(out_shape), dtype)
        expected = self.reference(*private, *params.values())
        scale = error_scale(spec["error_scale"], private)
        result = check_output(out, expected, want, self.device, spec["tolerance"][dtype], scale)
        outcome.record = {"dims": dims, "params": params, "dtype": dtype, "distribution": distribution["name"], **result}
        if PROFILE:
            self._profile(reply, timed, case, prepared_ms, outcome.bracket_ms, entered)
        if not result["ok"]:
            message = f"wrong output for {case}: {result['problem']}"
            if result["first_mismatch"]:
                m = result["first_mismatch"]
                message += f"; first mismatch at {m['index']}: got {m['got']}, expected {m['expected']}"
            if not self.gpu and dtype == "bfloat16":
                message += BF16_IN_THE_INTERPRETER
            outcome.status, outcome.message = "failed", message
        return outcome

    def cases(self) -> list[tuple[dict[str, int], dict[str, Any], str, dict[str, Any]]]:
        """Every checked case: (dims, params, dtype, distribution), each shape crossed with the
        params' values it does not fix, the dtypes and the cases' distributions. Under the
        sanitizer, one distribution per case: where a kernel reads and writes depends on the
        shape and dtype, not the values, and every instrumented call costs 10-100x."""
        shapes = list(self.spec["cpu_shapes"]) + (list(self.spec["gpu_shapes"]) if self.gpu else [])
        return [
            (shape["dims"], params, dtype, distribution)
            for shape in shapes
            for params in param_cases(self.spec, shape)
            for dtype in self.spec["dtypes"]
            for distribution in case_distributions(self.spec, dtype)[: 1 if self.sanitize else None]
        ]

    def check_kernel(self, kernel: dict[str, Any], box: Sandbox, deadline: float) -> dict[str, Any]:
        """Correctness on every case; stops at the first failure."""
        records: list[dict[str, Any]] = []
        launches: list[int | None] = []
        compiled: set[tuple[str, ...]] = set()
        for dims, params, dtype, distribution in self.cases():
            for _ in range(self.trials):
                what = describe_case(dims, dtype, distribution["name"], params)
                shape_key = tuple(f"{k}={v}" for k, v in {**dims, **params}.items())
                phase = (
                    f"the first call on {what} (Triton compiles there){chunk_hint(dims)}"
                    if shape_key not in compiled
                    else f"the call on {what}"
                )
                compiled.add(shape_key)
                self.channel.send("phase", kernel=kernel["name"], phase=f"checking {what}")
                outcome = self.call(box, dims, dtype, distribution, params, False, deadline - time.monotonic(), phase)
                if outcome.record:
                    records.append(outcome.record)
                if outcome.status != "passed":
                    return {"status": outcome.status, "message": outcome.message, "checks": records}
                launches.append(outcome.launches)
        counted = [n for n in launches if n is not None]
        if kernel["role"] == "submission" and kernel.get("language") == "triton" and counted and not any(counted):
            return {"status": "rejected", "message": NO_KERNEL, "checks": records}
        return {"status": "passed", "message": "", "checks": records}

    # -- timing ----------------------------------------------------------------------------
    def time_kernel(self, kernel: dict[str, Any], box: Sandbox, deadline: float) -> list[dict[str, Any]]:
        dtype = self.spec["bench_dtype"]
        itemsize = torch.empty((), dtype=DTYPES[dtype]).element_size()
        distribution = case_distributions(self.spec, dtype)[0]
        baseline = self._round_trip(box, deadline)
        rows = []
        for index, shape in enumerate(self.spec["bench_shapes"]):
            if self.shape_filter is not None and index not in self.shape_filter:
                continue
            dims = shape["dims"]
            # The drill model makes a timed shape fix every param with more than one value.
            params = param_cases(self.spec, shape)[0]
            values = {**dims, **{k: float(v) for k, v in params.items()}, "itemsize": itemsize}
            row: dict[str, Any] = {
                "label": shape.get("label", ""),
                "dims": dims,
                "params": params,
                "dtype": dtype,
                "bytes": evaluate(self.spec["bytes"], values) if self.spec["bytes"] else None,
                "flops": evaluate(self.spec["flops"], values) if self.spec["flops"] else 0.0,
                "flags": [],
            }
            self.channel.send("phase", kernel=kernel["name"], phase=f"timing {shape.get('label', '')}")
            summary, status, problem = self.measure(box, dims, dtype, distribution, params, deadline)
            if summary is None:
                row.update(status=status, message=problem)
            else:
                row.update(status="passed", message="", timing=summary)
                out_bytes = math.prod(dims[s] for s in self.spec["output_shape"]) * itemsize
                if outside_the_stream(summary, baseline, out_bytes, self.bandwidth):
                    row["flags"].append(FLAG_OUTSIDE_THE_STREAM)
                light = faster_than_light(row, self.bandwidth, self.flop_rate)
                if light and kernel["role"] == "submission":
                    row.update(status="rejected", message=light)
                elif light:
                    row["flags"].append(light)
            rows.append(row)
        return rows

    def _profile(self, reply: CallReply, timed: bool, case: str, prepared_ms: float, bracket_ms: float, entered: float) -> None:
        checks_ms = (time.perf_counter() - entered) * 1e3 - prepared_ms - bracket_ms
        sandbox_ms = reply.get("sandbox_ms")
        inside = f"{sandbox_ms:.1f}" if isinstance(sandbox_ms, (int, float)) else "?"
        with open(PROFILE, "a") as log:
            log.write(
                f"{self.role} timed={timed} {case}: inputs {prepared_ms:.1f} ms, round trip "
                f"{bracket_ms:.1f} ms (sandbox {inside}), checks {checks_ms:.1f} ms\n"
            )
            if reply.get("profile"):
                log.write(f"{reply.get('profile')}\n")

    def _round_trip(self, box: Sandbox, deadline: float) -> float:
        """The slowest of a few timed no-op round trips, in ms: what a bracket costs by itself."""
        times = []
        for _ in range(5):
            started = time.perf_counter()
            reply = box.ask({"op": "noop"}, deadline - time.monotonic(), "timing")
            if not reply.get("ok"):
                raise Stopped("crashed", f"the sandbox's timer failed: {reply.get('error')}\n{reply.get('traceback', '')}")
            times.append((time.perf_counter() - started) * 1e3)
        return max(times)

    def measure(
        self,
        box: Sandbox,
        dims: dict[str, int],
        dtype: str,
        distribution: dict[str, Any],
        params: dict[str, Any],
        deadline: float,
    ) -> tuple[dict[str, Any] | None, str, str]:
        """Time until settled; every timed call gets fresh inputs and its output is checked."""
        options = self.timing if self.role == "submission" else self.ladder_timing
        label = describe_case(dims, dtype, distribution["name"], params)
        for _ in range(int(options["warmup"])):
            outcome = self.call(box, dims, dtype, distribution, params, False, deadline - time.monotonic(), f"a warm-up call on {label}")
            if outcome.status != "passed":
                return None, outcome.status, outcome.message
        runs: list[float] = []
        brackets: list[float] = []
        started = time.monotonic()
        while len(runs) < int(options["max_runs"]):
            outcome = self.call(box, dims, dtype, distribution, params, True, deadline - time.monotonic(), f"a timed call on {label}")
            if outcome.status != "passed":
                status = "rejected" if outcome.status == "rejected" else "failed"
                return None, status, (
                    f"timed call {len(runs) + 1}: {outcome.message}: results cached or replayed across calls are not allowed"
                    if outcome.status == "failed"
                    else outcome.message
                )
            if outcome.event_ms is None:
                return None, "failed", "the sandbox returned no time for a timed call"
            runs.append(outcome.event_ms)
            brackets.append(outcome.bracket_ms)
            n = len(runs)
            if n >= int(options["min_runs"]):
                mean = statistics.fmean(runs)
                sem = statistics.stdev(runs) / math.sqrt(n) if n > 1 else 0.0
                if (mean > 0 and sem / mean < float(options["settle"])) or time.monotonic() - started > float(options["budget_s"]):
                    break
        return Timing(runs=runs, brackets=brackets).summary(), "passed", ""

    def time_copy(self) -> dict[str, Any]:
        """A device-to-device copy of 1 GiB, timed by the judge itself: this run's ceiling."""
        assert self.timer is not None
        n = 2**28
        src = torch.randn(n, device=self.device)
        dst = torch.empty_like(src)
        timing, _ = self.timer.measure(lambda: ((lambda: dst.copy_(src)), (lambda out: "")), budget_s=1.0)
        assert timing is not None
        row = {"label": "1 GiB fp32", "dims": {"n": n}, "dtype": "float32", "bytes": 2.0 * n * 4, "flops": 0.0, "status": "passed", "message": "", "timing": timing.summary(), "flags": []}
        return {"name": "copy", "role": "copy", "language": "torch", "status": "passed", "message": "", "bench": [row]}


def _copy_gbps(copy: dict[str, Any] | None) -> float | None:
    if not copy:
        return None
    row = copy["bench"][0]
    return float(row["bytes"]) / (float(row["timing"]["median_ms"]) / 1e3) / 1e9
