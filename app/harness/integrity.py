"""Notice a submission that rewired the worker: patched functions, hooks left installed, threads left running.

Worker side: standard library and torch only. The submission runs in the same process as the
check, so it could replace what the check calls (`torch.linalg.vector_norm`, `Tensor.any`, the
harness's own `check_output`, `torch.cuda.Event.elapsed_time`, `time.perf_counter`), leave a
torch function or dispatch mode pushed that rewrites every result, install a trace hook that
edits the checker's locals, or leave a thread running that bypasses the forbidden-op guard
(modes are per thread) or edits the output after it was checked. A snapshot taken before any
submission is imported is compared after every import and every call, before the output is
checked. This is a tripwire, not a sandbox: code determined to reach into the interpreter's C
state can still hide; what it cannot do is patch a Python attribute and stay unseen.
"""

from __future__ import annotations

import _thread
import contextlib
import gc
import importlib
import json
import os
import sys
from collections.abc import Iterator

import torch

#: (module, dotted attribute) pairs whose objects must stay what they were at start-up.
WATCHED: list[tuple[str, str]] = (
    [
        ("torch", name)
        for name in (
            "isnan",
            "isinf",
            "isfinite",
            "where",
            "zeros_like",
            "full_like",
            "maximum",
            "nonzero",
            "argmax",
            "equal",
            "allclose",
            "tensor",
            "randn",
            "rand",
            "Generator",
            "Tensor",
            "linalg.vector_norm",
            "softmax",
            "cuda.synchronize",
            "cuda.current_stream",
            "cuda.Event",
            "cuda.Event.record",
            "cuda.Event.elapsed_time",
            "cuda._sleep",
            "cuda.is_available",
        )
    ]
    + [
        ("torch", f"Tensor.{name}")
        for name in (
            "double",
            "reshape",
            "abs",
            "any",
            "all",
            "sum",
            "max",
            "to",
            "clone",
            "detach",
            "is_contiguous",
            "stride",
            "untyped_storage",
            "data_ptr",
            "numel",
            "__eq__",
            "__ne__",
            "__gt__",
            "__lt__",
            "__sub__",
            "__mul__",
            "__or__",
            "__and__",
            "__invert__",
            "__float__",
            "__int__",
            "__bool__",
            "__getitem__",
            "__rmul__",
            "__add__",
            "t",
            "contiguous",
            "shape",
            "dtype",
            "device",
        )
    ]
    + [
        ("builtins", "float"),
        ("builtins", "int"),
        ("builtins", "bool"),
        ("builtins", "type"),
        ("builtins", "isinstance"),
        ("builtins", "tuple"),
        ("builtins", "max"),
        ("math", "sqrt"),
        ("math", "isfinite"),
        ("_thread", "start_new_thread"),
        ("threading", "_start_new_thread"),
        ("time", "perf_counter"),
        ("time", "monotonic"),
        ("time", "time"),
        ("os", "write"),
        ("json", "dumps"),
        # The checker reaches torch and math through its module's globals.
        ("gpuprep.harness.checking", "torch"),
        ("gpuprep.harness.checking", "math"),
        ("gpuprep.harness.checking", "ELEMENT_SLACK"),
        ("gpuprep.harness.checking", "check_output"),
        ("gpuprep.harness.checking", "inputs_unchanged"),
        ("gpuprep.harness.inputs", "make_inputs"),
        ("gpuprep.harness.inputs", "draw"),
        ("gpuprep.harness.inputs", "case_seed"),
        ("gpuprep.harness.guard", "call_guarded"),
        ("gpuprep.harness.guard", "ForbiddenOps.__torch_dispatch__"),
        ("gpuprep.harness.references", "REFERENCES"),
        ("gpuprep.harness.timing", "Timer.time_one"),
        ("gpuprep.harness.timing", "Timer.measure"),
        # The worker runs as __main__: its Channel rewriting a verdict on the way out is a forgery.
        ("__main__", "Channel.send"),
        ("__main__", "_aliased_input"),
        ("__main__", "gc"),
    ]
)


def _resolve(module_name: str, dotted: str) -> object:
    obj: object = importlib.import_module(module_name)
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


class Snapshot:
    """What the worker looked like before any submission ran."""

    def __init__(
        self, objects: dict[str, object] | None = None, frozen: dict[str, object] | None = None
    ) -> None:
        """`objects`: label -> an object whose attributes must keep their identity (the
        worker's Drill: its bound checker, its reference); `frozen`: label -> plain data that
        must keep its value (the drill's spec, tolerances included)."""
        self._instances = {label: (obj, {}) for label, obj in (objects or {}).items()}
        self.seal()
        self._frozen = {
            label: (data, json.dumps(data, sort_keys=True, default=str))
            for label, data in (frozen or {}).items()
        }
        self._objects: dict[str, object] = {}
        for module_name, dotted in WATCHED:
            try:
                self._objects[f"{module_name}.{dotted}"] = _resolve(module_name, dotted)
            except (ImportError, AttributeError):
                continue  # not in this build (no CUDA, no timing module on a CPU): nothing to guard
        references = self._objects.get("gpuprep.harness.references.REFERENCES")
        self._references = dict(references) if isinstance(references, dict) else {}
        self._threads = _thread._count()
        self._gc_callbacks = len(gc.callbacks)

    def seal(self) -> None:
        """Take the watched objects' attributes as they are now (call once they are complete)."""
        self._instances = {
            label: (obj, dict(vars(obj))) for label, (obj, _) in self._instances.items()
        }

    def problems(self) -> list[str]:
        """What changed since the snapshot; empty when nothing did."""
        found = []
        for key, original in self._objects.items():
            if _lookup(key) is not original:
                found.append(f"{key} was replaced")
        for label, (obj, attributes) in self._instances.items():
            now = vars(obj)
            changed = sorted(
                k
                for k in attributes.keys() | now.keys()
                if now.get(k, _MISSING) is not attributes.get(k, _MISSING)
            )
            if changed:
                found.append(f"{label}'s {', '.join(changed)} changed")
        for label, (data, text) in self._frozen.items():
            if json.dumps(data, sort_keys=True, default=str) != text:
                found.append(f"{label} was edited")
        references = self._objects.get("gpuprep.harness.references.REFERENCES")
        if isinstance(references, dict) and references != self._references:
            found.append("the harness's reference table was edited")
        if torch._C._len_torch_function_stack() > 0:
            found.append("a torch function mode was left active")
        if torch._C._len_torch_dispatch_stack() > 0:
            found.append("a torch dispatch mode was left active")
        if sys.gettrace() is not None or sys.getprofile() is not None:
            found.append("a trace or profile hook was installed")
        if len(gc.callbacks) != self._gc_callbacks:
            found.append("a garbage-collector callback was installed")
        if _thread._count() > self._threads:
            found.append(
                f"{_thread._count() - self._threads} thread(s) started by the submission are still running"
            )
        return found


_STDLIB = os.path.dirname(os.__file__) + os.sep


def _in_stdlib(filename: str) -> bool:
    if filename.startswith("<frozen"):
        return True
    return filename.startswith(_STDLIB) and "-packages" + os.sep not in filename


def _installed_library(filename: str) -> bool:
    """Third-party code installed beside torch (CuPy finds and dlopens NVRTC through
    cuda-pathfinder, for one), but never gpuprep itself."""
    installed = (
        f"{os.sep}site-packages{os.sep}" in filename or f"{os.sep}dist-packages{os.sep}" in filename
    )
    return installed and f"{os.sep}gpuprep{os.sep}" not in filename


def _library_dirs() -> tuple[str, ...]:
    """The packages trusted to start processes, threads or gc walks of their own."""
    dirs = []
    for name in ("torch", "triton", "cupy", "cupy_backends"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            dirs.append(os.path.dirname(module.__file__) + os.sep)
    return tuple(dirs) or ("\0",)


def _source_of(path: str) -> str:
    """A cached module's source file (dir/__pycache__/name.cpython-311.pyc -> dir/name.py)."""
    head, sep, tail = path.rpartition("/__pycache__/")
    if not sep:
        return path
    return f"{head}/{tail.split('.', 1)[0]}.py"


def _lookup(key: str) -> object:
    """The object a WATCHED key names now (or a sentinel when it no longer resolves); module
    names contain dots too, so the longest prefix that is a loaded module is the module."""
    parts = key.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = sys.modules.get(".".join(parts[:cut]))
        if module is None:
            continue
        obj: object = module
        try:
            for part in parts[cut:]:
                obj = getattr(obj, part)
        except AttributeError:
            return _MISSING
        return obj
    return _MISSING


_MISSING = object()


#: Audit events a submission has no business raising (PEP 578): reading the harness's objects
#: through gc, starting processes. Raised from C, so no Python spelling of them escapes.
AUDITED = {
    "gc.get_objects": "read the harness's objects through gc",
    "gc.get_referrers": "read the harness's objects through gc",
    "gc.get_referents": "read the harness's objects through gc",
    "os.system": "started a process",
    "os.fork": "started a process",
    "os.forkpty": "started a process",
    "os.posix_spawn": "started a process",
    "os.exec": "started a process",
    "subprocess.Popen": "started a process",
    "os.kill": "signalled a process",
    "ctypes.dlopen": "loaded a native library through ctypes",
    "ctypes.dlsym": "loaded a native library through ctypes",
    # Frames lead to every object of the harness. sys._getframe itself is not here: the
    # standard library (warnings, typing) calls it inside honest calls; the static scan
    # refuses a submission that names it.
    "sys._current_frames": "inspected the threads' frames",
}


class AuditWatch:
    """An audit hook, installed once and for good, that notes what a submission's code does
    while `active` is set: audited escapes, files opened in protected folders, threads started.

    Threads matter because torch's dispatch modes are per thread: work done in another thread
    is invisible to the forbidden-op guard, and work left running escapes the timer.
    """

    def __init__(self, protected_dirs: list[str], own_paths: set[str] | None = None) -> None:
        import os

        self.active = False
        self.protected = [os.path.realpath(d) + os.sep for d in protected_dirs]
        self.own_paths = own_paths if own_paths is not None else set()
        self.seen: list[str] = []
        self._realpath = os.path.realpath
        self._fspath = os.fspath
        sys.addaudithook(self._hook)
        self._wrap_thread_start()

    def _hook(self, event: str, args: tuple) -> None:
        if not self.active:
            return
        why = AUDITED.get(event)
        if why is not None:
            if not self._by_a_library():
                self._note(f"{why} ({event})")
        elif event == "open" and args and self.protected:
            name = args[0]
            if isinstance(name, int):
                return  # a descriptor already open: nothing new is read by name
            name = self._fspath(name)
            if isinstance(name, bytes):
                name = name.decode(errors="replace")
            path = _source_of(self._realpath(name))
            if path not in self.own_paths and any(path.startswith(d) for d in self.protected):
                self._note(f"opened {path.rsplit('/', 1)[-1]} from the reference ladder")

    def _by_a_library(self) -> bool:
        """Whether the nearest caller outside the standard library is an installed library
        (torch, Triton, CuPy and what they load):
        Triton's first launch runs ptxas and builds its launcher in a subprocess, for one. Only
        the nearest caller counts, so a submission's function that a library calls back (a grid
        lambda) is still the submission's."""
        with contextlib.suppress(ValueError):
            frame = sys._getframe(2)
            while frame is not None:
                name = frame.f_code.co_filename
                if name == __file__ or _in_stdlib(name):
                    frame = frame.f_back
                    continue
                return name.startswith(_library_dirs()) or _installed_library(name)
        return False

    def _note(self, what: str) -> None:
        if what not in self.seen:
            self.seen.append(what)

    def _wrap_thread_start(self) -> None:
        import threading

        original = _thread.start_new_thread
        watch = self

        def start_new_thread(function, args, kwargs=None):  # noqa: ANN001, ANN202
            if watch.active and not watch._by_a_library():
                watch._note(
                    "started a thread (torch's guard and timer see only the calling thread)"
                )
            return original(function, args, kwargs or {})

        _thread.start_new_thread = start_new_thread
        threading._start_new_thread = start_new_thread  # what threading.Thread.start calls

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The harness's own frame walk (the guard's) inside a watched call."""
        active, self.active = self.active, False
        try:
            yield
        finally:
            self.active = active

    def take(self) -> list[str]:
        """What was noted since the last call, cleared."""
        seen, self.seen = self.seen, []
        return seen
