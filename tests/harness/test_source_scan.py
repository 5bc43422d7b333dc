"""The source lint warns about patterns that often mean work outside the kernel; it never
looks at prose or a self-test, and ordinary code (waiting, numpy constants, getattr) draws nothing."""

import pytest

from gpuprep.harness.source_scan import language_of, scan


@pytest.mark.parametrize(
    "line, why",
    [
        ("import gc\ngc.get_objects()", "gc"),
        ("import threading", "threads"),
        ("from multiprocessing import Pool", "threads"),
        ("import os\nos.write(5, b'{}')", "file descriptors"),
        ("open('/proc/self/fd/3')", "/proc"),
        ("s = torch.cuda.Stream()", "side stream"),
        ("import gpuprep.harness.worker", "harness"),
        ("import sys\nsys._getframe(1).f_locals", "frames"),
        ("exec('x = 1')", "strings"),
        ("import gc as g\ng.get_objects()", "gc"),
        ("import _thread", "threads"),
        ("tb.tb_frame.f_back", "frames"),
        ("from torch.overrides import TorchFunctionMode", "torch mode"),
        ("torch.cuda.current_stream = lambda *a: side", "side stream"),
        ("s = torch.Stream(device='cuda')", "side stream"),
        ("s = torch.cuda.streams.Stream()", "side stream"),
        ("cupy.cuda.ExternalStream(other_stream_pointer)", "side stream"),
        ("src = 'cudaStream_t s; cudaStreamCreateWithFlags(&s, 1);'", "side stream"),
        ("open('../../kernels_ref/reduction/v4.py')", "reference ladder"),
        ("import sys\nsys.settrace(hook)", "hooks"),
        ("cupy.cuda.runtime.deviceSetLimit(6, 2**25)", "persisting L2"),
        ("with torch._C._DisableTorchDispatch():\n    s = x.sum()", "dispatcher hooks"),
        ("from torch.utils._mode_utils import no_dispatch", "dispatcher hooks"),
        ("fast = torch.compile(lambda x: x.sum())", "torch.compile"),
        ("from torch import jit", "torch.compile"),
        (
            "src = 'attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;'",
            "persisting L2",
        ),
    ],
)
def test_a_suspicious_pattern_draws_a_warning_with_its_reason(line, why):
    reasons = scan(line)
    assert reasons and any(why in reason for reason in reasons)


@pytest.mark.parametrize(
    "source",
    [
        "import torch\ndef f(x):\n    y = g(x)\n    torch.cuda.synchronize()\n    return y\n",
        "import numpy as np\nLOG2E = float(np.log2(np.e))\n",
        "import torch\nDTYPES = {'f32': 'float32'}\ndt = getattr(torch, DTYPES['f32'])\n",
        '"""Reads no drill.yaml and no /proc/cpuinfo."""\nx = 1\n',
        "x = 1\nif __name__ == '__main__':\n    import torch\n    e = torch.cuda.Event(enable_timing=True)\n",
    ],
)
def test_ordinary_code_draws_no_warning(source):
    assert scan(source) == []


def test_comments_and_docstrings_are_not_scanned():
    source = '"""Unlike threading or gc.get_objects() tricks, this uses no side stream."""\n# torch.cuda.Stream()\nx = 1\n'
    assert scan(source) == []


def test_the_shipped_starters_pass_the_scan():
    from .conftest import DRILL_IDS, DRILLS_DIR

    for drill_id in DRILL_IDS:
        for name in ("starter_triton.py", "starter_cuda.py"):
            assert scan((DRILLS_DIR / drill_id / name).read_text()) == [], f"{drill_id}/{name}"


def test_the_reference_ladder_passes_the_scan():
    """Every rung is loaded like a submission; the fence must not refuse the honest kernels,
    including a CuPy kernel on torch's current stream."""
    from .conftest import KERNELS_DIR

    for path in sorted(KERNELS_DIR.glob("*/*.py")):
        assert scan(path.read_text()) == [], path.name


def test_a_cupy_import_marks_a_cuda_submission():
    assert language_of("import cupy\n") == "cuda"
    assert language_of("import triton\n# cupy is not used\n") == "triton"


def test_a_file_that_does_not_parse_is_left_to_the_loader_to_report():
    # Its comment names the harness; refusing it for that would hide the syntax error.
    assert scan("# see the gpuprep docs\ndef vector_add(x, y:\n") == []
