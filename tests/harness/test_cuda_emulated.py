"""The CUDA rungs and starters compute the right answer, checked without a GPU: their CUDA C runs
on CPU threads (tests/harness/emulation: barriers, warp shuffles, atomics, shared memory as
statics) behind a stand-in for CuPy, called through each file's own host wrapper, on the drill's
CPU shapes and value distributions, and judged by the harness's own checker.

This proves indices, masks, tails and launch shapes, not speed, and not what only hardware
does (memory ordering, alignment faults). Skipped where g++ is absent.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import types
from pathlib import Path

import pytest
import torch

from gpuprep.harness.checking import check_output
from gpuprep.harness.inputs import case_distributions, make_inputs
from gpuprep.harness.loading import load_entry
from gpuprep.harness.references import REFERENCES, expected_dtype

from .conftest import DRILL_IDS, DRILLS_DIR, KERNELS_DIR, drills

EMULATION = Path(__file__).parent / "emulation"
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (C++20)")
#: Largest case emulated: a launch runs one host thread per CUDA thread of a block.
MAX_ELEMENTS = 20_000
CASES = [
    (drill_id, path)
    for drill_id in DRILL_IDS
    for path in [
        *(KERNELS_DIR / drill_id / f"{rung.name}.py" for rung in drills()[drill_id].track("cuda")),
        DRILLS_DIR / drill_id / "starter_cuda.py",
    ]
]


@pytest.fixture
def emulated_cuda(monkeypatch):
    """CuPy replaced by the emulator; torch's stream and device queries answered for a 2-SM GPU."""
    # Loaded under its own name, so that the real CuPy (on a GPU machine) is back afterwards.
    spec = importlib.util.spec_from_file_location("gpuprep_emulated_cupy", EMULATION / "cupy.py")
    emulated = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(emulated)
    monkeypatch.setitem(sys.modules, "cupy", emulated)
    monkeypatch.setattr(
        torch.cuda, "current_stream", lambda *a, **k: types.SimpleNamespace(cuda_stream=0)
    )
    monkeypatch.setattr(
        torch.cuda,
        "get_device_properties",
        lambda *a, **k: types.SimpleNamespace(multi_processor_count=2),
    )
    return emulated


def _cases(drill_id: str):
    spec = drills()[drill_id].to_worker_spec()
    for shape in spec["cpu_shapes"]:
        size = 1
        for value in shape["dims"].values():
            size *= value
        if size > MAX_ELEMENTS:
            continue
        for distribution in case_distributions(spec, spec["dtypes"][0]):
            yield spec, shape["dims"], distribution


@needs_gxx
@pytest.mark.parametrize("drill_id, path", CASES, ids=[f"{d}/{p.stem}" for d, p in CASES])
def test_a_cuda_kernel_is_right_on_the_cpu_shapes(emulated_cuda, drill_id, path):
    entry = load_entry(path, drills()[drill_id].entry)
    checked = 0
    for spec, dims, distribution in _cases(drill_id):
        dtype = spec["dtypes"][0]
        private = make_inputs(spec, dims, dtype, distribution, 1234, torch.device("cpu"))
        args = [t.clone() for t in private]
        # A drill's scalar params (layernorm's eps) follow the inputs: each one's first value.
        params = [param["values"][0] for param in spec.get("params") or []]
        expected = REFERENCES[spec["reference"]](*private, *params)
        scale = (
            float(private[0].double().abs().sum())
            if spec["error_scale"] == "input_abs_sum"
            else None
        )
        result = check_output(
            entry(*args, *params),
            expected,
            expected_dtype(spec["reference"], private[0].dtype),
            torch.device("cpu"),
            spec["tolerance"][dtype],
            scale,
        )
        assert result["ok"], f"{dims} {distribution['name']}: {result['problem']}"
        checked += 1
    assert checked >= 3


@needs_gxx
def test_the_float4_reduction_starts_off_the_16_byte_grid(emulated_cuda, monkeypatch):
    reduce_sum = load_entry(KERNELS_DIR / "reduction" / "v3_cuda_float4_waves.py", "reduce_sum")
    # A grid capped at 2 blocks (2 SMs x 1 block x 1 wave), so that 20011 elements go through
    # the four-loads-in-flight loop, its remainder loop and the scalar tail.
    monkeypatch.setitem(reduce_sum.__globals__, "BLOCKS_PER_SM", 1)
    monkeypatch.setitem(reduce_sum.__globals__, "WAVES", 1)
    base = torch.randn(20011 + 8, dtype=torch.float32)
    for start in range(4):  # data_ptr() 0, 4, 8, 12 bytes past 16-byte alignment
        for n in (1, 2, 3, 5, 4099, 20011):
            x = base[start : start + n]
            expected = float(x.double().sum())
            assert float(reduce_sum(x)) == pytest.approx(
                expected, abs=1e-5 * float(x.abs().sum()) + 1e-6
            ), (start, n)


@needs_gxx
def test_the_emulator_catches_a_wrong_index(emulated_cuda, tmp_path):
    broken = tmp_path / "off_by_one.py"
    source = (KERNELS_DIR / "transpose" / "v2_cuda_padded_tile.py").read_text()
    broken.write_text(
        source.replace("tile[threadIdx.x][threadIdx.y]", "tile[threadIdx.y][threadIdx.x]")
    )
    transpose = load_entry(broken, "transpose")
    x = torch.randn(33, 70)
    assert not torch.equal(transpose(x), x.t().contiguous())
