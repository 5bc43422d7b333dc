"""The worker process: loads kernels by file path, checks them, times them, reports events.

Run as `python -m gpuprep.harness.worker` by the app (see `runner.py`), never imported by it.
It imports only the standard library, torch, triton and cupy. Its instructions arrive as one
JSON line on stdin (the drill's plain spec, the kernels, the nonce and the
number of a private pipe); each event goes back over that pipe as one JSON line carrying the
nonce. Anything the kernels print goes to stdout, which the app keeps apart from the results.
"""

from __future__ import annotations

import gc
import json
import os
import re
import sys
import traceback
from pathlib import Path

#: Exception text that means the CUDA context is gone: the kernel faulted, not merely raised.
CUDA_FAULT = re.compile(
    r"illegal memory access|misaligned address|unspecified launch failure|illegal instruction|"
    r"device-side assert|CUDA_ERROR_ILLEGAL|cudaErrorIllegal|cudaErrorLaunchFailure|an illegal|hardware stack error",
    re.IGNORECASE,
)
HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))


class Channel:
    """The private pipe back to the app; every line carries the nonce the app sent."""

    def __init__(self, fd: int, nonce: str) -> None:
        self._fd = fd
        self._nonce = nonce

    def send(self, event: str, **payload: object) -> None:
        line = json.dumps({"nonce": self._nonce, "event": event, **payload}, default=str) + "\n"
        data = line.encode()
        while data:
            written = os.write(self._fd, data)
            data = data[written:]


def traceback_tail(error: BaseException, lines: int = 14) -> str:
    """The end of the traceback, without the harness's own frames."""
    frames = [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if not f.filename.startswith(HARNESS_DIR)
    ]
    text = "".join(traceback.format_list(frames)) + "".join(
        traceback.format_exception_only(type(error), error)
    )
    return "\n".join(text.rstrip().splitlines()[-lines:])


def describe_device(torch, device) -> dict:  # noqa: ANN001
    info = {"kind": device.type, "torch": torch.__version__}
    try:
        import triton

        info["triton"] = triton.__version__
    except ImportError:
        info["triton"] = None
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        info.update(
            name=props.name,
            compute_capability=f"{props.major}.{props.minor}",
            sms=props.multi_processor_count,
            l2_bytes=int(getattr(props, "L2_cache_size", 0)),
            memory_bytes=int(props.total_memory),
            cuda=torch.version.cuda,
        )
    else:
        info.update(
            name="CPU (Triton interpreter)", interpreter=os.environ.get("TRITON_INTERPRET") == "1"
        )
    return info


class Drill:
    """Runs one drill's checks and timings for each kernel the app listed."""

    def __init__(self, config: dict, channel: Channel) -> None:
        import torch

        from gpuprep.harness.checking import check_output, inputs_unchanged
        from gpuprep.harness.formulas import evaluate
        from gpuprep.harness.guard import WRAPPER_OPS, call_guarded
        from gpuprep.harness.inputs import make_inputs
        from gpuprep.harness.integrity import AuditWatch, Snapshot
        from gpuprep.harness.loading import load_entry, new_modules
        from gpuprep.harness.references import REFERENCES

        self.torch = torch
        self.evaluate = evaluate
        # Bound now, before any submission is imported: later patches of these modules'
        # attributes do not reach the check (and the snapshot reports them).
        self._check_output = check_output
        self._inputs_unchanged = inputs_unchanged
        self._call_guarded = call_guarded
        self._wrapper_ops = WRAPPER_OPS
        self._make_inputs = make_inputs
        self._load_entry = load_entry
        self._new_modules = new_modules
        self.spec = config["spec"]
        # Each case's seed is drawn when the case is made (see _fresh), not derived from a
        # secret held for the whole run: a submission that finds a long-lived secret in memory
        # could compute every future input at import time and answer the timed calls from a table.
        self.channel = channel
        self.kernels = config["kernels"]
        self.check_only = bool(config.get("check_only"))
        self.stop_on_failure = bool(config.get("stop_on_failure"))
        self.timing_options = config.get("timing", {})
        self.trials = int(config.get("trials", 1))
        self.shape_filter = config.get("bench_shapes")
        self.want_copy = bool(config.get("copy"))
        self.cpu_skip_ladder = bool(config.get("cpu_skip_ladder"))
        gpu = config.get("mode") == "gpu" and torch.cuda.is_available()
        if not gpu:
            # Practice mode with no GPU: one trial per case, whether or not --cpu was asked for.
            self.trials = 1
        self.device = (
            torch.device("cuda", torch.cuda.current_device()) if gpu else torch.device("cpu")
        )
        self.reference = REFERENCES[self.spec["reference"]]
        if gpu:
            import gpuprep.harness.timing  # noqa: F401 - its Timer's methods are in the snapshot
        self.watch = AuditWatch(
            config.get("protected_dirs", []),
            {
                os.path.realpath(k["path"])
                for k in self.kernels
                if k.get("path") and k["role"] == "submission"
            },
        )
        self.timer = None
        self.clock_flags = None
        self.spin_ms = 0.0
        watched: dict[str, object] = {"the worker": self}
        if self.device.type == "cuda":
            from gpuprep.harness.timing import Timer, clock_flags

            self.timer = Timer(self.device)
            self.clock_flags = clock_flags
            self.spin_ms = self.timer.spin_and_flush_ms()
            watched["the timer"] = self.timer
        # Last: the worker's and the timer's own attributes are part of the snapshot (a walk
        # up the frames reaches them), and so is the spec with its tolerances.
        self.snapshot = Snapshot(objects=watched, frozen={"the drill's spec": self.spec})
        # Bound now, like the checker: a later patch of the Snapshot or AuditWatch class does
        # not reach these (and the snapshot reports it).
        self._problems, self._take = self.snapshot.problems, self.watch.take
        self._paused = self.watch.paused
        self.snapshot.seal()

    # -- one case -------------------------------------------------------------------------
    def _case(
        self, kernel: dict, function, dims: dict, dtype: str, distribution: dict, seed: int
    ) -> tuple[object, object, list]:  # noqa: ANN001
        """The call on fresh inputs, and the check of its output.

        While the submission runs, only its own copies of the inputs exist: the private copies
        and the float64 reference are made after it returns, again from the seed, so nothing it
        can find in memory (through gc, frames or closures) holds the answer.
        """
        from gpuprep.harness.references import expected_dtype

        def inputs() -> list:
            return self._make_inputs(self.spec, dims, dtype, distribution, seed, self.device)

        args = inputs()
        forbidden = [] if kernel["role"] == "vendor" else self.spec["forbidden_ops"]
        names = [i["name"] for i in self.spec["inputs"]]

        problems, take = self._problems, self._take

        def check(out: object) -> dict:
            tampered = take() + problems()
            if tampered:
                return _verdict(f"tampered with the harness: {'; '.join(tampered)}", tampered=True)
            private = inputs()
            expected = self.reference(*private)
            scale = (
                float(private[0].double().abs().sum())
                if self.spec["error_scale"] == "input_abs_sum"
                else None
            )
            # No collection during the check: a gc callback or a finaliser of the submission's
            # would run in the middle of it.
            gc.disable()
            try:
                result = self._check_output(
                    out,
                    expected,
                    expected_dtype(self.spec["reference"], private[0].dtype),
                    self.device,
                    self.spec["tolerance"][dtype],
                    scale,
                )
            finally:
                gc.enable()
            if result["ok"]:
                mutated = self._inputs_unchanged(private, args, names)
                if mutated:
                    result.update(ok=False, problem=mutated, mutated=True)
            # The vendor op is what it is: x.t().contiguous() of a 1 x N input is x itself.
            if result["ok"] and kernel["role"] != "vendor":
                alias = _aliased_input(out, args, names)
                if alias:
                    result.update(ok=False, problem=alias)
            tampered = problems()
            if tampered:
                return _verdict(f"tampered with the harness: {'; '.join(tampered)}", tampered=True)
            return result

        # The call's frame holds only these (not the Drill): what a frame walk would reach.
        # A submission's wrapper may allocate, view and copy; the rest is the kernel's job.
        allowed = self._wrapper_ops if kernel["role"] == "submission" else None
        call_guarded, watch, watched, paused = (
            self._call_guarded,
            self.watch,
            kernel["role"] == "submission",
            self._paused,
        )

        def call() -> tuple[object, list]:
            # No synchronisation here: inside a timed call it would put the host's wake-up
            # between the kernel and the end event. Callers synchronise before checking.
            # (What the watch noted since the last check stays: a callback of the submission's
            # that ran between calls is the submission's.)
            watch.active = watched
            try:
                return call_guarded(function, args, forbidden, paused, allowed)
            finally:
                watch.active = False

        return call, check, args

    def _record(self, dims: dict, dtype: str, distribution: dict, result: dict) -> dict:
        return {"dims": dims, "dtype": dtype, "distribution": distribution["name"], **result}

    def check_kernel(self, kernel: dict, function) -> dict:  # noqa: ANN001
        """Correctness on every case; stops at the first failure."""
        from gpuprep.harness.inputs import case_seed

        torch = self.torch
        shapes = list(self.spec["cpu_shapes"])
        if self.device.type == "cuda":
            shapes += self.spec["gpu_shapes"]
        dtypes = self.spec["dtypes"]
        cases = []
        for shape in shapes:
            for dtype in dtypes:
                for distribution in self.spec["distributions"]:
                    for trial in range(self.trials):
                        seed = case_seed(
                            _fresh(),
                            kernel["name"],
                            shape["dims"],
                            dtype,
                            distribution["name"],
                            trial,
                        )
                        call, check, _ = self._case(
                            kernel, function, shape["dims"], dtype, distribution, seed
                        )
                        out, seen = call()
                        if self.device.type == "cuda":
                            torch.cuda.synchronize()
                        if seen:
                            return {
                                "status": "rejected",
                                "message": f"calls {', '.join(seen)}, which this drill forbids: write the kernel yourself (outside the kernel, only allocation, views and copies)",
                                "checks": cases,
                                "forbidden": seen,
                            }
                        result = check(out)
                        if result.get("tampered"):
                            return {
                                "status": "rejected",
                                "message": result["problem"],
                                "checks": cases,
                            }
                        cases.append(self._record(shape["dims"], dtype, distribution, result))
                        if not result["ok"]:
                            where = ", ".join(f"{k}={v}" for k, v in shape["dims"].items())
                            what = "inputs changed" if result.get("mutated") else "wrong output"
                            message = f"{what} for {where}, {dtype}, {distribution['name']} values: {result['problem']}"
                            if result["first_mismatch"]:
                                m = result["first_mismatch"]
                                message += f"; first mismatch at {m['index']}: got {m['got']}, expected {m['expected']}"
                            return {"status": "failed", "message": message, "checks": cases}
        return {"status": "passed", "message": "", "checks": cases}

    # -- timing ---------------------------------------------------------------------------
    def time_kernel(self, kernel: dict, function) -> list[dict]:  # noqa: ANN001
        from gpuprep.harness.inputs import DTYPES, case_seed

        dtype = self.spec["bench_dtype"]
        itemsize = self.torch.empty((), dtype=DTYPES[dtype]).element_size()
        distribution = self.spec["distributions"][0]
        results = []
        for index, shape in enumerate(self.spec["bench_shapes"]):
            if self.shape_filter is not None and index not in self.shape_filter:
                continue
            counter = iter(range(10**9))

            def make_call(shape: dict = shape, counter=counter):  # noqa: ANN001, ANN202
                seed = case_seed(_fresh(), "bench", kernel["name"], shape["dims"], next(counter))
                call, check, _ = self._case(
                    kernel, function, shape["dims"], dtype, distribution, seed
                )
                seen_ops: list[str] = []

                def timed() -> object:
                    out, seen = call()
                    seen_ops.extend(seen)
                    return out

                def verdict(out: object) -> str:
                    if seen_ops:
                        return f"calls {', '.join(sorted(set(seen_ops)))}, which this drill forbids"
                    result = check(out)
                    return "" if result["ok"] else result["problem"]

                return timed, verdict

            timing, problem = self.timer.measure(make_call, **self.timing_options)
            values = {**shape["dims"], "itemsize": itemsize}
            row = {
                "label": shape.get("label", ""),
                "dims": shape["dims"],
                "dtype": dtype,
                "bytes": self.evaluate(self.spec["bytes"], values) if self.spec["bytes"] else None,
                "flops": self.evaluate(self.spec["flops"], values) if self.spec["flops"] else 0.0,
            }
            if timing is None:
                row.update(status="failed", message=problem)
            else:
                summary = timing.summary()
                row.update(status="passed", message="", timing=summary)
                row["flags"] = self.clock_flags(summary, self.spin_ms)
            results.append(row)
        return results

    def time_copy(self) -> dict:
        """A plain device-to-device copy of 1 GiB: the practical bandwidth ceiling, this run."""
        torch = self.torch
        n = 2**28
        src = torch.randn(n, device=self.device)
        dst = torch.empty_like(src)
        timing, _ = self.timer.measure(
            lambda: ((lambda: dst.copy_(src)), (lambda out: "")), **self.timing_options
        )
        summary = timing.summary()
        return {
            "name": "copy",
            "role": "copy",
            "language": "torch",
            "status": "passed",
            "message": "",
            "bench": [
                {
                    "label": "1 GiB fp32",
                    "dims": {"n": n},
                    "dtype": "float32",
                    "bytes": 2.0 * n * 4,
                    "flops": 0.0,
                    "status": "passed",
                    "message": "",
                    "timing": summary,
                    "flags": [],
                }
            ],
        }

    # -- one kernel -----------------------------------------------------------------------
    def run_kernel(self, kernel: dict) -> dict:
        from gpuprep.harness.loading import EntryMissing
        from gpuprep.harness.references import VENDOR_OPS

        base = {
            "name": kernel["name"],
            "role": kernel["role"],
            "language": kernel.get("language", "triton"),
        }
        if base["language"] == "cuda" and self.device.type != "cuda":
            return {
                **base,
                "status": "skipped",
                "message": "a CUDA (CuPy) kernel needs a CUDA GPU; on a CPU only Triton runs, through its interpreter",
            }
        try:
            if kernel["role"] == "vendor":
                function = VENDOR_OPS[self.spec["reference"]]
            else:
                before = set(sys.modules)
                # The guard watches the import too: a library call made while loading (to
                # precompute answers) is as forbidden as one made in the call.
                forbidden = self.spec["forbidden_ops"] if kernel["role"] == "submission" else []
                self.watch.active = kernel["role"] == "submission"
                try:
                    function, seen = self._call_guarded(
                        self._load_entry,
                        [Path(kernel["path"]), self.spec["entry"]],
                        forbidden,
                        self._paused,
                        self._wrapper_ops if kernel["role"] == "submission" else None,
                    )
                finally:
                    self.watch.active = False
                if kernel["role"] == "submission":
                    refusal = self._refuse_load(kernel, before, seen)
                    if refusal:
                        return {**base, "status": "rejected", "message": refusal}
        except EntryMissing as error:
            return {**base, "status": "failed", "message": str(error)}
        except BaseException as error:  # noqa: BLE001 - the submission's import may raise anything
            return {**base, **(self._refusal() or self._failure(error, "loading the file raised"))}
        try:
            result = {**base, **self.check_kernel(kernel, function)}
            if result["status"] == "passed" and not self.check_only and self.device.type == "cuda":
                result["bench"] = self.time_kernel(kernel, function)
                failed = [row for row in result["bench"] if row["status"] != "passed"]
                if failed and "tampered" in failed[0]["message"]:
                    result.update(status="rejected", message=f"timed run: {failed[0]['message']}")
                elif failed:
                    result.update(
                        status="rejected" if "forbids" in failed[0]["message"] else "failed",
                        message=f"a timed call's output was wrong ({failed[0]['message']}): results cached or replayed across calls are not allowed",
                    )
            return result
        except BaseException as error:  # noqa: BLE001
            return {**base, **(self._refusal() or self._failure(error, "the call raised"))}

    def _refusal(self) -> dict:
        """A rejection when the exception came from the audit watch refusing an escape."""
        noted = self._take()
        if not noted:
            return {}
        return {"status": "rejected", "message": f"tampered with the harness: {'; '.join(noted)}"}

    def _refuse_load(self, kernel: dict, before: set[str], seen: list[str]) -> str:
        """Why importing a submission is refused: library calls, borrowed rungs, rewiring."""
        if seen:
            return f"calls {', '.join(seen)} while loading, which this drill forbids: write the kernel yourself"
        own = os.path.realpath(kernel["path"])
        for path in self._new_modules(before):
            if path != own and any(path.startswith(d) for d in self.watch.protected):
                return f"loads {os.path.basename(path)} from the reference ladder: submit your own kernel"
        tampered = self._take() + self._problems()
        if tampered:
            return f"refused while loading: {'; '.join(tampered)}"
        return ""

    def _failure(self, error: BaseException, what: str) -> dict:
        tail = traceback_tail(error)
        if CUDA_FAULT.search(str(error)) or CUDA_FAULT.search(tail):
            return {
                "status": "crashed",
                "message": f"CUDA fault: {str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__}",
                "traceback": tail,
            }
        return {
            "status": "failed",
            "message": f"{what} {type(error).__name__}: {str(error).strip()[:2000]}",
            "traceback": tail,
        }

    def run(self) -> None:
        torch = self.torch
        self.channel.send("ready", device=describe_device(torch, self.device))
        for kernel in self.kernels:
            if (
                self.device.type != "cuda"
                and self.cpu_skip_ladder
                and kernel["role"] != "submission"
            ):
                continue
            result = self.run_kernel(kernel)
            self.channel.send("kernel", result=result)
            if result["status"] == "crashed":
                return  # the CUDA context is gone; nothing after this can run
            if (
                self.stop_on_failure
                and kernel["role"] == "submission"
                and result["status"] != "passed"
            ):
                return
        if self.want_copy and self.device.type == "cuda" and not self.check_only:
            self.channel.send("kernel", result=self.time_copy())


def _fresh() -> int:
    return int.from_bytes(os.urandom(8), "little")


def _verdict(problem: str, **extra: object) -> dict:
    return {
        "ok": False,
        "problem": problem,
        "rel_err": None,
        "max_abs_err": None,
        "first_mismatch": None,
        **extra,
    }


def _aliased_input(out: object, args: list, names: list[str]) -> str:
    """'' unless the output shares memory with an input (a view of it, or the input itself)."""
    import torch

    if type(out) is not torch.Tensor or out.numel() == 0:
        return ""
    mine = out.untyped_storage().data_ptr()
    for name, arg in zip(names, args, strict=True):
        if arg.numel() and arg.untyped_storage().data_ptr() == mine:
            return f"the output is memory of input {name} (a view or the input itself); return a new tensor"
    return ""


def calibrate(channel: Channel) -> None:
    """Measure the copy bandwidth and the bf16 matrix rate of this GPU, with the drills' timer."""
    import torch

    from gpuprep.harness.timing import Timer

    if not torch.cuda.is_available():
        channel.send("fatal", message="calibration needs a CUDA GPU; none is visible to torch")
        return
    device = torch.device("cuda", torch.cuda.current_device())
    timer = Timer(device)
    channel.send("ready", device=describe_device(torch, device))
    n = 2**28
    src = torch.randn(n, device=device)
    dst = torch.empty_like(src)
    copy, _ = timer.measure(lambda: ((lambda: dst.copy_(src)), (lambda out: "")), budget_s=2.0)
    src = dst = None  # free 2 GiB before the matrices
    size = 8192
    a = torch.randn(size, size, device=device, dtype=torch.bfloat16)
    b = torch.randn(size, size, device=device, dtype=torch.bfloat16)
    matmul, _ = timer.measure(lambda: ((lambda: a @ b), (lambda out: "")), budget_s=3.0)
    copy_s = copy.summary()["median_ms"] / 1e3
    matmul_s = matmul.summary()["median_ms"] / 1e3
    channel.send(
        "calibration",
        measured={
            "copy_gbps": 2.0 * n * 4 / copy_s / 1e9,
            "copy_bytes": 2 * n * 4,
            "bf16_tflops": 2.0 * size**3 / matmul_s / 1e12,
            "matmul_shape": [size, size, size],
            "copy_cv": copy.summary()["cv"],
            "matmul_cv": matmul.summary()["cv"],
        },
    )


def main() -> None:
    config = json.loads(sys.stdin.readline())
    channel = Channel(int(config.pop("result_fd")), str(config.pop("nonce")))
    if config.get("mode") == "cpu" and os.environ.get("TRITON_INTERPRET") != "1":
        channel.send(
            "fatal", message="CPU mode needs TRITON_INTERPRET=1 set before triton is imported"
        )
        os._exit(2)
    if config.get("mode") == "auto":
        import torch

        if torch.cuda.is_available():
            config["mode"] = "gpu"
        else:
            # No GPU: practice mode. The interpreter must be chosen before triton is imported.
            os.environ["TRITON_INTERPRET"] = "1"
            config.update(mode="cpu", check_only=True)
    try:
        import triton  # noqa: F401 - imported before any kernel so that its start-up is not the submission's time
    except ImportError:
        pass
    try:
        if config.get("task") == "calibrate":
            calibrate(channel)
        else:
            Drill(config, channel).run()
    except BaseException as error:  # noqa: BLE001
        channel.send(
            "fatal", message=f"{type(error).__name__}: {error}", traceback=traceback_tail(error)
        )
        sys.stdout.flush()
        os._exit(3)
    channel.send("done")
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: a kernel's leftovers (threads, CUDA state) must not hang the exit.
    os._exit(0)


if __name__ == "__main__":
    main()
