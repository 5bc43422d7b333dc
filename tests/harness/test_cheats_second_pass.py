"""The second adversarial pass: what the worker's tripwires see at run time, spelled the ways a
static scan misses (aliases, __main__, sys.modules by name, string.Formatter, object.__setattr__).
End-to-end cases are the known-wrong files in drills/*/wrong/; these check the pieces."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import torch

from gpuprep.harness import checking
from gpuprep.harness.checking import check_output
from gpuprep.harness.guard import WRAPPER_OPS, call_guarded
from gpuprep.harness.integrity import Snapshot


def test_replacing_torch_linalg_itself_is_seen_though_vector_norm_is_unchanged():
    snapshot = Snapshot()
    real = torch.linalg
    torch.linalg = object()
    try:
        assert "torch.linalg was replaced or edited" in snapshot.problems()
    finally:
        torch.linalg = real
    assert snapshot.problems() == []


def test_a_harness_function_given_other_code_is_seen_though_it_is_the_same_object():
    snapshot = Snapshot()
    original = checking._value.__code__
    checking._value.__code__ = (lambda x: 0.0).__code__
    try:
        assert any("checking._value's code" in p for p in snapshot.problems())
    finally:
        checking._value.__code__ = original
    assert snapshot.problems() == []


def test_an_edited_table_in_a_harness_module_is_seen():
    from gpuprep.harness import inputs

    snapshot = Snapshot()
    inputs.DTYPES["float32"] = torch.float64
    try:
        assert "gpuprep.harness.inputs.DTYPES was replaced or edited" in snapshot.problems()
    finally:
        inputs.DTYPES["float32"] = torch.float32


def test_an_output_carrying_python_attributes_is_refused():
    out = torch.arange(6.0).reshape(2, 3).t()
    out.is_contiguous = lambda *args, **kwargs: True
    result = check_output(out, out.double(), torch.float32, torch.device("cpu"), 1e-6)
    assert not result["ok"] and "carries Python attributes (is_contiguous)" in result["problem"]


def test_a_few_scalar_reads_are_allowed_and_a_loop_of_them_is_not():
    x = torch.randn(200)
    few = lambda v: torch.full((), float(v[0]) + float(v[1]))  # noqa: E731
    many = lambda v: torch.full((), sum(float(v[i]) for i in range(v.numel())))  # noqa: E731
    assert call_guarded(few, [x], [], allowed=WRAPPER_OPS)[1] == []
    seen = call_guarded(many, [x], [], allowed=WRAPPER_OPS)[1]
    assert seen == ["aten::_local_scalar_dense (element by element on the host)"]


_HOOK = """
import gc, sys, warnings
import triton
from gpuprep.harness.integrity import AuditWatch, Snapshot
watch = AuditWatch([])
snapshot = Snapshot()
SUBMISSION = '''
import inspect, warnings
def warn():
    warnings.warn("honest")
def frames():
    return inspect.stack()
def scrape():
    return len(collector.get_objects())
'''
space = {"collector": gc}
exec(compile(SUBMISSION, "/tmp/submission.py", "exec"), space)
watch.active = True
refused = []
for name in ("warn", "frames", "scrape"):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            space[name]()
    except PermissionError:
        refused.append(name)
print(refused, watch.take())
AuditWatch._escape = lambda *args: ""
try:
    space["scrape"]()
except PermissionError:
    pass
watch.active = False
print(watch.take(), snapshot.problems()[:1])
"""


def test_the_audit_hook_refuses_frames_and_gc_and_sees_its_own_class_patched():
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_HOOK)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.strip().splitlines()[-2:]
    assert first.startswith("['frames', 'scrape']")
    assert "inspected the caller's frames (sys._getframe)" in first
    assert "read the harness's objects through gc (gc.get_objects)" in first
    assert "rewired the audit watch (gpuprep.harness.integrity.AuditWatch._escape" in second
    assert "AuditWatch._escape was replaced" in second


def test_a_refusal_s_stack_goes_to_the_audit_trace_file_when_asked(tmp_path, monkeypatch):
    """How a false refusal is found: the stack behind each refusal, written where asked."""
    from gpuprep.harness.sessions import submit

    from .conftest import DRILLS_DIR, KERNELS_DIR, drills

    trace = tmp_path / "audit.txt"
    monkeypatch.setenv("GPUPREP_AUDIT_TRACE", str(trace))
    cheat = DRILLS_DIR / "vector_add" / "wrong" / "frames_through_a_generator.py"
    report = submit(drills()["vector_add"], KERNELS_DIR / "vector_add", cheat, cpu=True)
    assert report["status"] == "rejected"
    text = trace.read_text(encoding="utf-8")
    assert "inspected the caller's frames" in text and str(cheat) in text


SIGNATURE = "def vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:"


def test_a_package_on_pythonpath_may_read_frames_like_an_installed_one(tmp_path, monkeypatch):
    """typing_extensions reads its caller's frame; installed with `pip --target` or put on
    PYTHONPATH it is no site-packages, and an honest kernel importing it was refused."""
    from gpuprep.harness.sessions import submit

    from .conftest import DRILLS_DIR, KERNELS_DIR, drills

    library = tmp_path / "extlib"
    library.mkdir()
    (library / "frame_reader.py").write_text(
        "import sys\n\ndef caller_module():\n    return sys._getframe(1).f_globals.get('__name__')\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("PYTHONPATH", f"{library}:{__import__('os').environ.get('PYTHONPATH', '')}")
    starter = (DRILLS_DIR / "vector_add" / "starter_triton.py").read_text(encoding="utf-8")
    honest = tmp_path / "mine" / "uses_a_library.py"
    honest.parent.mkdir()
    honest.write_text(
        "import frame_reader\n"
        + starter.replace(SIGNATURE, SIGNATURE + "\n    frame_reader.caller_module()"),
        encoding="utf-8",
    )
    assert "frame_reader.caller_module()" in honest.read_text(encoding="utf-8")
    report = submit(drills()["vector_add"], KERNELS_DIR / "vector_add", honest, cpu=True)
    assert report["status"] == "passed", report["message"]


def test_a_helper_module_beside_the_submission_is_not_trusted(tmp_path, monkeypatch):
    """Its own folder is on no trusted path, even when that folder is on PYTHONPATH."""
    from gpuprep.harness.sessions import submit

    from .conftest import DRILLS_DIR, KERNELS_DIR, drills

    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "helper.py").write_text(
        "import sys\n\ndef peek():\n    return sys._getframe(2)\n", encoding="utf-8"
    )
    monkeypatch.setenv("PYTHONPATH", f"{folder}:{__import__('os').environ.get('PYTHONPATH', '')}")
    starter = (DRILLS_DIR / "vector_add" / "starter_triton.py").read_text(encoding="utf-8")
    cheat = folder / "peeks.py"
    cheat.write_text(
        "import helper\n" + starter.replace(SIGNATURE, SIGNATURE + "\n    helper.peek()"),
        encoding="utf-8",
    )
    assert "helper.peek()" in cheat.read_text(encoding="utf-8")
    report = submit(drills()["vector_add"], KERNELS_DIR / "vector_add", cheat, cpu=True)
    assert report["status"] == "rejected" and "frames" in report["message"], report["message"]
