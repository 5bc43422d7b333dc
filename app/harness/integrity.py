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
import torch._dynamo  # noqa: F401 - its import rebinds torch.manual_seed; the guard's first mode imports it anyway

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
        self._namespaces = {
            label: _contents(ns, everything) for label, ns, everything in _namespaces()
        }
        self._functions = [(label, f, _function_parts(f)) for label, f in _harness_functions()]
        self._kernels = _dispatch_tables()
        self._trusted = _trusted_namespaces()
        self._missing = _MISSING
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
        # First, with only what this snapshot holds: the module globals, class attributes and
        # builtins the rest of this method reads (a patched _lookup would hide everything else).
        for label, live, recorded in self._trusted:
            for key, value in recorded.items():
                if live.get(key, self._missing) is not value:
                    found.append(f"{label}.{key} was replaced")
        if found:
            return found
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
        found += _namespace_changes(self._namespaces, set(self._objects))
        for label, function, parts in self._functions:
            if _function_parts(function) != parts:
                found.append(f"{label}'s code or defaults were replaced")
        found += [
            f"torch's kernel for {op} was re-registered"
            for op, table in _dispatch_tables().items()
            if table != self._kernels.get(op)
        ]
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


#: Namespaces the checker and the worker read through (besides the harness's own modules, all of
#: whose globals and class attributes are watched): replacing `torch.linalg` itself, or
#: `builtins.zip`, reroutes the check as surely as patching a watched function. Only functions,
#: classes and modules are compared there: torch rebinds plain flags (lazy CUDA start-up) itself.
FOREIGN_NAMESPACES = (
    "torch",
    "torch.Tensor",
    "torch.linalg",
    "torch.UntypedStorage",
    "builtins",
    "math",
    "json",
    "hashlib",
    "os",
    "gc",
    "traceback",
    "inspect",
    "contextlib",
)

#: ATen ops the check, the references and the input generator dispatch. A kernel registered over
#: one of them (torch.library.Library("aten", "IMPL").impl("sub.Tensor", ...)) rewrites the check
#: from inside the dispatcher, where no Python attribute changes.
CHECK_OPS = tuple(
    f"aten::{name}"
    for name in (
        "_local_scalar_dense",
        "_softmax",
        "_to_copy",
        "abs",
        "add.Tensor",
        "add_.Tensor",
        "all",
        "any",
        "argmax",
        "bitwise_and.Tensor",
        "bitwise_not",
        "bitwise_or.Tensor",
        "clone",
        "copy_",
        "detach",
        "div.Tensor",
        "empty.memory_format",
        "empty_like",
        "eq.Scalar",
        "eq.Tensor",
        "fill_.Tensor",
        "fill_.Scalar",
        "full_like",
        "gt.Tensor",
        "index_put_",
        "isinf",
        "isnan",
        "lift_fresh",
        "linalg_vector_norm",
        "lt.Scalar",
        "max",
        "maximum",
        "mul.Tensor",
        "mul.Scalar",
        "ne.Scalar",
        "ne.Tensor",
        "nonzero",
        "rand.generator",
        "randn.generator",
        "select.int",
        "sub.Tensor",
        "sum",
        "t",
        "view",
        "where.self",
        "zeros_like",
    )
)


def _dispatch_tables() -> dict[str, str]:
    tables = {}
    for op in CHECK_OPS:
        try:
            tables[op] = torch._C._dispatch_dump(op)
        except RuntimeError:
            continue
    return tables


def _harness_modules() -> list[tuple[str, object]]:
    modules = [(n, m) for n, m in list(sys.modules.items()) if n.startswith("gpuprep.harness")]
    main = sys.modules.get("__main__")
    if getattr(main, "__file__", "") and os.path.dirname(os.path.abspath(main.__file__)) == _HERE:
        modules.append(("__main__", main))
    return modules


def _namespaces() -> list[tuple[str, object, bool]]:
    """(label, namespace, whether every value counts): the harness's modules and the classes
    they define, then the foreign namespaces."""
    found: list[tuple[str, object, bool]] = []
    for name, module in _harness_modules():
        found.append((name, module, True))
        for key, value in list(vars(module).items()):
            if isinstance(value, type) and value.__module__ == module.__name__:
                found.append((f"{name}.{key}", value, True))
    for dotted in FOREIGN_NAMESPACES:
        head, _, rest = dotted.partition(".")
        obj = sys.modules.get(head)
        for part in filter(None, rest.split(".")):
            obj = getattr(obj, part, None)
        if obj is not None:
            found.append((dotted, obj, False))
    return found


def _contents(namespace: object, everything: bool) -> tuple[object, dict, dict]:
    """The namespace object, its values (all, or only functions, classes and modules), and a
    copy of each plain container it holds (a dict of tolerances edited in place keeps its id)."""
    values = {
        k: v
        for k, v in vars(namespace).items()
        if everything or callable(v) or isinstance(v, type(os))
    }
    containers = {}
    if everything:
        for k, v in values.items():
            if k.startswith("__"):
                continue  # __warningregistry__ and friends change honestly
            if type(v) in (dict, list, set):
                containers[k] = list(v.items()) if type(v) is dict else list(v)
    return namespace, values, containers


def _namespace_changes(
    recorded: dict[str, tuple[object, dict, dict]], reported: set[str]
) -> list[str]:
    """What changed in the recorded namespaces, less what a WATCHED entry already reports."""
    found = []
    for label, (namespace, values, containers) in recorded.items():
        now = vars(namespace)
        changed = sorted(
            k
            for k, v in values.items()
            if now.get(k, _MISSING) is not v and f"{label}.{k}" not in reported
        )
        for k, items in containers.items():
            value = now.get(k)
            current = list(value.items()) if type(value) is dict else list(value or ())
            if len(current) != len(items) or any(
                a is not b and a != b for a, b in zip(current, items, strict=True)
            ):
                changed.append(k)
        if changed:
            found.append(f"{label}.{', '.join(changed)} was replaced or edited")
    return found


def _harness_functions() -> list[tuple[str, object]]:
    found = []
    for label, namespace, everything in _namespaces():
        if not everything:
            continue
        for key, value in vars(namespace).items():
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if hasattr(value, "__code__") and hasattr(value, "__defaults__"):
                found.append((f"{label}.{key}", value))
    return found


def _function_parts(function: object) -> tuple:
    function = getattr(function, "__func__", function)
    return (
        getattr(function, "__code__", None),
        getattr(function, "__defaults__", None),
        getattr(function, "__kwdefaults__", None),
    )


def _trusted_namespaces() -> list[tuple[str, object, dict]]:
    """(label, live namespace, its contents now) for this module, its classes and builtins:
    what the snapshot and the audit hook rely on while they check everything else."""
    import builtins

    return [
        (label, live, dict(live))
        for label, live in (
            (__name__, globals()),
            (f"{__name__}.Snapshot", vars(Snapshot)),
            (f"{__name__}.AuditWatch", vars(AuditWatch)),
            ("builtins", vars(builtins)),
        )
    ]


_HERE = os.path.dirname(os.path.abspath(__file__))
#: A file to which every refusal's stack is appended, for finding false refusals.
_TRACE = os.environ.get("GPUPREP_AUDIT_TRACE", "")
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


def _import_path_dirs(own_paths: set[str]) -> tuple[str, ...]:
    """Folders on the import path at start-up, trusted like installed libraries: packages put on
    PYTHONPATH or installed with `pip --target` are no site-packages, and typing_extensions read
    the caller's frame from one (on the H200 lent to us). Never the working folder, and never a
    folder holding the submission (or above it), where its own helper modules would lie."""
    dirs = []
    here = os.path.realpath(os.getcwd())
    for entry in sys.path:
        if not entry or not os.path.isdir(entry):
            continue
        folder = os.path.realpath(entry)
        inside = folder + os.sep
        if folder == here or any(path.startswith(inside) for path in own_paths):
            continue
        if _in_stdlib(inside):
            continue
        dirs.append(inside)
    return tuple(dirs)


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
    # Frames lead to every object of the harness. sys._getframe is judged by its caller (see
    # FRAME_READERS): the standard library calls it inside honest calls.
    "sys._current_frames": "inspected the threads' frames",
    "sys._current_exceptions": "inspected the threads' frames",
    # Every audit hook is handed sys._getframe's frame (3.11), the harness's own included.
    "sys.addaudithook": "added an audit hook, which is handed frames",
    # A trace or profile function is handed every frame, then can remove itself.
    "sys.settrace": "installed a trace or profile hook, which is handed frames",
    "sys.setprofile": "installed a trace or profile hook, which is handed frames",
    # Raw memory: PyEval_GetFrame through pythonapi, or an object read from an address.
    "ctypes.cdata": "read raw memory through ctypes",
    "ctypes.string_at": "read raw memory through ctypes",
    "ctypes.wstring_at": "read raw memory through ctypes",
    "ctypes.call_function": "called a native function through ctypes",
}


#: Attributes whose reading hands out a frame, which leads to every object of the harness
#: (CPython audits these reads as object.__getattr__; f_back is not, but needs a frame first).
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
#: Standard-library modules that look at their caller's frame for their own use (a warning's
#: line, a named tuple's module) and hand no frame back.
FRAME_READERS = tuple(
    os.sep + name
    for name in ("warnings.py", "typing.py", "enum.py", "dataclasses.py", "abc.py", "functools.py")
) + (f"collections{os.sep}__init__.py", f"logging{os.sep}__init__.py")
THREAD_EVENT = "gpuprep.harness.thread_start"
FUNCTION_PARTS = frozenset({"__code__", "__defaults__", "__kwdefaults__"})
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
MOVES = frozenset({"os.rename", "os.link", "os.symlink"})
_PYCACHE = f"{os.sep}__pycache__{os.sep}"
#: Escapes noted but let through (the verdict is still a rejection): none of them hands the
#: harness's objects to the submission (a new program, a signal, a native library), while a gc
#: walk, a frame, a thread or a fork (a copy of the worker's memory, result channel included)
#: would let it erase the note before the check reads it.
NOTED_ONLY = frozenset(
    {
        "ctypes.dlopen",
        "subprocess.Popen",
        "os.system",
        "os.posix_spawn",
        "os.exec",
        "os.kill",
    }
)


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
        self._busy = False
        # Captured now: a fake `cupy` planted in sys.modules later must not make its own
        # directory a trusted library.
        self._libraries = _library_dirs() + _import_path_dirs(self.own_paths)
        self._getframe = sys._getframe
        self._insiders = (
            *self._libraries,
            _HERE + os.sep,
            os.path.realpath(_HERE) + os.sep,
            *self.protected,
        )
        self._candidates = frozenset(AUDITED) | {
            "open",
            "sys._getframe",
            "object.__getattr__",
            "object.__setattr__",
            THREAD_EVENT,
            *MOVES,
            "compile",
            "exec",
            "code.__new__",
            "function.__new__",
        }
        self._attributes = FRAME_ATTRIBUTES | FUNCTION_PARTS
        self._realpath = os.path.realpath
        self._fspath = os.fspath
        self._wrap_thread_start()
        # The hook checks these first: the module's globals and classes it reads through.
        self._trusted = _trusted_namespaces()
        self._missing = _MISSING
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple) -> None:
        if self._busy or event not in self._candidates:
            return
        if event.startswith("object.__") and args[1] not in self._attributes:
            return  # the common case: a library reading some f_code
        if not self.active:
            # Outside a call, the submission's code still runs as callbacks (a weakref's, a
            # finaliser's): judged there too, when the code is neither a library's nor the
            # harness's.
            self._busy = True
            try:
                outsider = self._outsider(self._getframe(1))
            finally:
                self._busy = False
            if not outsider:
                return
        rewired = ""
        for label, live, recorded in self._trusted:
            for key, value in recorded.items():
                if live.get(key, self._missing) is not value:
                    rewired = f"rewired the audit watch ({label}.{key} was replaced)"
        # The hook's own look at the frames raises sys._getframe again: not the submission's.
        self._busy = True
        try:
            why = rewired or self._escape(event, args, self._getframe(1))
            if why and _TRACE:
                self._trace(event, why, self._getframe(1))
        finally:
            self._busy = False
        if why:
            self._note(why)
            if event in NOTED_ONLY:
                return
            # Refused, not only noted: code that got hold of the harness's objects (a frame, gc)
            # could erase the note and the snapshot before the check reads them.
            raise PermissionError(f"the drill harness refuses this: the submission {why}")

    def _trace(self, event: str, why: str, frame: object) -> None:
        """Append the stack behind a refusal to GPUPREP_AUDIT_TRACE: how a false refusal is
        found (on an H200, a typing_extensions outside site-packages read the caller's frame)."""
        lines = []
        while frame is not None:
            code = frame.f_code
            lines.append(f"  {code.co_filename}:{frame.f_lineno} {code.co_name}")
            frame = frame.f_back
        with open(_TRACE, "a", encoding="utf-8") as trace:  # _busy: not judged itself
            trace.write(f"{event} (in a call: {self.active}): {why}\n" + "\n".join(lines) + "\n\n")

    def _escape(self, event: str, args: tuple, frame: object) -> str:
        """Why this event is an escape by the submission's code ('' when it is not one)."""
        why = AUDITED.get(event)
        if event == "object.__getattr__":
            why = "inspected the caller's frames" if args[1] in FRAME_ATTRIBUTES else None
        elif event == "sys._getframe":
            caller = frame.f_code.co_filename
            why = (
                None
                if _in_stdlib(caller) and caller.endswith(FRAME_READERS)
                else "inspected the caller's frames"
            )
        elif event == "object.__setattr__":
            # Only someone else's function: namedtuple and dataclasses set the defaults of the
            # functions they build for the submission (named "<string>").
            code = getattr(args[0], "__code__", None) if args[1] in FUNCTION_PARTS else None
            name = getattr(code, "co_filename", "<>")
            theirs = not name.startswith("<") and self._realpath(name) not in self.own_paths
            why = "replaced a function's code or defaults" if theirs else None
        elif event == THREAD_EVENT:
            why = "started a thread (torch's guard and timer see only the calling thread)"
        elif event in ("code.__new__", "function.__new__"):
            why = "built a code object or a function by hand"
        elif event in ("compile", "exec"):
            if self._by_a_library(frame):
                return ""
            why = self._forged_code(event, args)
        elif event in MOVES:
            # Python's own import writes a module's bytecode into __pycache__ and renames it there.
            why = None if _PYCACHE in str(args[1]) else "wrote a file"
        elif event == "open" and args:
            name = args[0]
            if isinstance(name, int):
                return ""  # a descriptor already open: nothing new is read by name
            name = self._fspath(name)
            if isinstance(name, bytes):
                name = name.decode(errors="replace")
            flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
            if flags & WRITE_FLAGS and _PYCACHE not in name:
                # A module written beside torch would be trusted as an installed library's.
                why = "wrote a file"
            else:
                path = _source_of(self._realpath(name))
                if not self.active:
                    return ""
                if path not in self.own_paths and any(path.startswith(d) for d in self.protected):
                    self._note(f"opened {path.rsplit('/', 1)[-1]} from the reference ladder")
                return ""
        if why is None or self._by_a_library(frame):
            return ""
        return f"{why} ({event})"

    def _forged_code(self, event: str, args: tuple) -> str | None:
        """Why code compiled or run by the submission claims a library's file falsely (None
        when it does not): the watch trusts frames by their file name, so code built under
        torch's name (compile(src, ".../site-packages/...")) must be that file's own code."""
        if event == "compile":
            source, filename = args[0], args[1]
        else:
            source, filename = None, getattr(args[0], "co_filename", "")
        if isinstance(filename, bytes):
            filename = filename.decode(errors="replace")
        if not isinstance(filename, str) or filename.startswith("<"):
            return None
        if not (filename.startswith(self._libraries) or _installed_library(filename)):
            return None
        forged = "compiled code under a library's file name"
        try:
            with open(filename, "rb") as file:
                text = file.read()
        except OSError:
            return forged
        if event == "compile":
            same = source == text or (isinstance(source, str) and source.encode() == text)
            return None if same else forged
        # A module's code run by an import (from source or its .pyc) is its source's code.
        return None if compile(text, filename, "exec", dont_inherit=True) == args[0] else forged

    def _outsider(self, frame: object) -> bool:
        """Whether the nearest caller outside the standard library is neither a library, the
        harness nor the reference ladder."""
        while frame is not None:
            name = frame.f_code.co_filename
            if name == __file__ or _in_stdlib(name):
                frame = frame.f_back
                continue
            return not (name.startswith(self._insiders) or _installed_library(name))
        return False

    def _by_a_library(self, frame: object) -> bool:
        """Whether the nearest caller outside the standard library is an installed library
        (torch, Triton, CuPy and what they load):
        Triton's first launch runs ptxas and builds its launcher in a subprocess, for one. Only
        the nearest caller counts, so a submission's function that a library calls back (a grid
        lambda) is still the submission's."""
        while frame is not None:
            name = frame.f_code.co_filename
            if name == __file__ or _in_stdlib(name):
                frame = frame.f_back
                continue
            return name.startswith(self._libraries) or _installed_library(name)
        return False

    def _note(self, what: str) -> None:
        if what not in self.seen:
            self.seen.append(what)

    def _wrap_thread_start(self) -> None:
        import threading

        original = _thread.start_new_thread
        audit = sys.audit

        # The wrapper holds no reference to the watch (inspect.getclosurevars would hand it
        # out): it raises an audit event, which only the installed hook sees.
        def start_new_thread(function, args, kwargs=None):  # noqa: ANN001, ANN202
            audit(THREAD_EVENT)
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
