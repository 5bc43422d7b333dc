"""What a sandbox sees of the kernels a call launches: how many, from which files, compiled to what.

Sandbox side: standard library, plus Triton and CuPy where they are installed. Coaching
evidence, like the op guard: a call that launched no kernel computed its result elsewhere; a
kernel whose code lives in the reference ladder is the ladder's, however it was loaded; and
on a GPU, the PTX of each launched kernel says which instructions it runs (tensor cores,
shared memory), which the judge weighs against the drill's required methods.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from gpuprep.harness.methods import KernelCode, instruction_counts

#: Kernels whose code one sandbox reports: enough for any ladder rung, small enough to send.
MAX_KERNELS = 64


class LaunchCounter:
    """Counts Triton kernel launches (compiled or interpreted), the files the kernels came
    from and, for compiled ones, the instruction families of their PTX. Where this Triton has
    neither launch path, `hooked` is False and the judge does not ask."""

    def __init__(self, hook: bool = True) -> None:
        """`hook=False` patches nothing: a counter fed by hand (tests)."""
        self.count = 0
        self.files: set[str] = set()
        self.code: dict[str, KernelCode] = {}
        self._read: set[int] = set()
        self.hooked = False
        if not hook:
            return
        try:
            from triton.runtime import interpreter, jit
        except ImportError:
            return
        targets = [
            (jit.JITFunction, "run", True),
            (getattr(interpreter, "InterpretedFunction", None), "run", False),
        ]
        for owner, name, compiled in targets:
            original = getattr(owner, name, None) if owner is not None else None
            if original is not None:
                setattr(owner, name, self._counting(original, compiled))
                self.hooked = True

    def _counting(self, original: Callable[..., Any], compiled: bool) -> Callable[..., Any]:
        counter = self

        def launch(kernel: Any, *args: Any, **kwargs: Any) -> Any:
            result = original(kernel, *args, **kwargs)
            if not kwargs.get("warmup"):
                counter.count += 1
                code = getattr(getattr(kernel, "fn", None), "__code__", None)
                if code is not None:
                    counter.files.add(os.path.realpath(code.co_filename))
                if compiled:
                    counter.read_triton(kernel, result)
            return result

        return launch

    def read_triton(self, kernel: Any, compiled: Any) -> None:
        """Count the instruction families of a compiled Triton kernel's PTX, once per kernel."""
        if id(compiled) in self._read or len(self.code) >= MAX_KERNELS:
            return
        self._read.add(id(compiled))
        name = str(
            getattr(compiled, "name", "")
            or getattr(getattr(kernel, "fn", None), "__name__", "kernel")
        )
        try:
            ptx = compiled.asm["ptx"]
        except Exception:  # noqa: BLE001 - a Triton without asm['ptx']: the method goes unchecked
            ptx = None
        self.note(name, ptx if isinstance(ptx, str) else None)

    def note(self, name: str, ptx: str | None) -> None:
        """Record one kernel's code (None: launched, but its code could not be read)."""
        if ptx is None:
            self.code.setdefault(name, {"name": name, "code": "unread", "counts": {}})
            return
        counts = instruction_counts(ptx)
        if name in self.code and self.code[name]["code"] == "ptx":
            merged = self.code[name]["counts"]
            for family, count in counts.items():
                merged[family] = max(merged.get(family, 0), count)
        else:
            self.code[name] = {"name": name, "code": "ptx", "counts": counts}

    def track_cupy(self) -> None:
        """Count CuPy RawKernel launches and read each kernel's PTX through NVRTC.

        CuPy loads a cached cubin where it can, which holds no PTX, so the kernel's own code and
        options are compiled once more to PTX for the count; where that fails the kernel is
        reported unread and its methods go unchecked (never refused)."""
        try:
            import cupy
        except ImportError:
            return
        base = cupy.RawKernel
        counter = self

        class CountedRawKernel(base):  # type: ignore[misc, valid-type]
            def __call__(self, *args: Any, **kwargs: Any) -> Any:
                counter.count += 1
                name = str(getattr(self, "name", "kernel"))
                if name not in counter.code and len(counter.code) < MAX_KERNELS:
                    counter.note(
                        name, _nvrtc_ptx(str(self.code), tuple(getattr(self, "options", ()) or ()))
                    )
                return base.__call__(self, *args, **kwargs)

        cupy.RawKernel = CountedRawKernel

    def report(self) -> list[KernelCode]:
        return list(self.code.values())


def _nvrtc_ptx(source: str, options: tuple[str, ...]) -> str | None:
    """The PTX NVRTC makes of a CUDA C source for this GPU, or None."""
    try:
        import cupy
        from cupy.cuda import nvrtc  # cupy_backends' NVRTC binding, as CuPy re-exports it

        arch = cupy.cuda.Device().compute_capability
        program = nvrtc.createProgram(source, "kernel.cu", [], [])
        try:
            nvrtc.compileProgram(program, [*options, f"-arch=compute_{arch}"])
            return bytes(nvrtc.getPTX(program)).decode(errors="replace")
        finally:
            nvrtc.destroyProgram(program)
    except Exception:  # noqa: BLE001 - any failure leaves the kernel unread, its method unchecked
        return None


def interpreter_autotuning() -> None:
    """On a CPU, Triton's autotuner has no driver to time configs with: run each config once
    (every one is then checked for correctness, as on a GPU) and call them equal."""
    try:
        from triton.runtime.autotuner import Autotuner
    except ImportError:
        return

    def run_once(
        kernel_call: Callable[[], object], quantiles: list[float] | None = None, **_options: object
    ) -> float | list[float]:
        kernel_call()
        return [1.0] * len(quantiles) if quantiles else 1.0

    Autotuner.do_bench = property(lambda tuner: getattr(tuner, "_do_bench", None) or run_once)
