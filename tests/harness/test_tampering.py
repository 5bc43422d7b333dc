"""Submissions that rewire the worker from inside (the static scan bypassed, as a spelling it
misses would) are rejected at run time, and the harness's own objects are not fooled by them."""

from pathlib import Path

import pytest

from gpuprep.harness.integrity import Snapshot
from gpuprep.harness.runner import run_worker

from .conftest import KERNELS_DIR, drills

FIXTURES = Path(__file__).parent / "fixtures"


def _run(name: str, drill_id: str) -> dict:
    kernel = {
        "name": name,
        "path": str(FIXTURES / f"{name}.py"),
        "role": "submission",
        "language": "triton",
    }
    config = {
        "spec": drills()[drill_id].to_worker_spec(),
        "kernels": [kernel],
        "protected_dirs": [str(KERNELS_DIR / drill_id)],
        "check_only": True,
        "stop_on_failure": True,
    }
    run = run_worker(config, mode="cpu", timeout_s=60)
    assert run.finished and not run.tampered, run.fatal or run.log_tail
    return run.results[0]


@pytest.mark.parametrize(
    "name, drill_id, fragment",
    [
        ("scrapes_gc", "vector_add", "through gc (gc.get_objects)"),
        ("library_call_in_a_thread", "reduction", "started a thread"),
        ("leaves_a_function_mode", "vector_add", "a torch function mode was left active"),
        # Both walk the frames: refused at sys._getframe, before they reach the worker.
        ("loosens_the_tolerance", "vector_add", "inspected the caller's frames"),
        ("replaces_the_bound_checker", "vector_add", "inspected the caller's frames"),
        (
            "borrows_a_rung_by_path",
            "reduction",
            "v4_tuned_single_pass.py from the reference ladder",
        ),
        ("patches_event_timing", "vector_add", "torch.cuda.Event.elapsed_time was replaced"),
    ],
)
def test_a_submission_that_rewires_the_worker_is_rejected(name, drill_id, fragment):
    result = _run(name, drill_id)
    assert result["status"] == "rejected", result["message"]
    assert fragment in result["message"]


def test_the_snapshot_sees_a_patched_function_and_its_restoration():
    import torch

    snapshot = Snapshot()
    original = torch.isnan
    torch.isnan = lambda x: x != x
    try:
        assert snapshot.problems() == ["torch.isnan was replaced"]
    finally:
        torch.isnan = original
    assert snapshot.problems() == []


def test_the_snapshot_watches_an_objects_attributes_and_frozen_data():
    class Worker:
        def __init__(self):
            self.check = print

    worker, spec = Worker(), {"tolerance": {"float32": 1e-6}}
    snapshot = Snapshot(objects={"the worker": worker}, frozen={"the spec": spec})
    worker.check = len
    spec["tolerance"]["float32"] = 1.0
    assert snapshot.problems() == ["the worker's check changed", "the spec was edited"]


_ATTRIBUTION = """
import os, subprocess, sys, threading
import triton
from gpuprep.harness.integrity import AuditWatch

# A function whose code lives in Triton's package, as its compiler's call to ptxas does. Made
# before the watch starts: the watch refuses code compiled under a library's name by others.
library = compile(
    "def run():\\n    subprocess.run([sys.executable, '-c', 'pass'])\\n    t = threading.Thread(target=print)\\n    t.start(); t.join()\\n",
    os.path.join(os.path.dirname(triton.__file__), "fake_compiler.py"),
    "exec",
)
namespace = {"subprocess": subprocess, "sys": sys, "threading": threading}
exec(library, namespace)
watch = AuditWatch([])
watch.active = True
namespace["run"]()
by_library = watch.take()
subprocess.run([sys.executable, "-c", "pass"])
by_submission = watch.take()
watch.active = False
print(repr((by_library, by_submission)))
"""


def test_processes_and_threads_started_by_triton_are_not_the_submissions():
    """Triton's first launch on a GPU runs ptxas and builds its launcher in a subprocess: that
    must not read as the submission starting a process; the submission doing it must."""
    import ast
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _ATTRIBUTION], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    by_library, by_submission = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert by_library == []
    assert by_submission == ["started a process (subprocess.Popen)"]
