"""Every CUDA C kernel the drills ship (CuPy rungs and starters) compiles for Hopper, and its
host wrapper launches it with the arguments and block size the kernel declares.

No GPU here and no CuPy: the source is read out of each file without importing it and compiled
to PTX for compute_90 by NVRTC (the compiler CuPy uses; the `nvidia-cuda-nvrtc-cu12` wheel of
the test extra, called through ctypes), or by `nvcc -arch=sm_90 --ptx` where NVRTC is missing.
A warning fails the test, as nvcc's `-Werror all-warnings` would. The PTX gives the kernel's
parameter sizes and its __launch_bounds__, which are checked against the wrapper's
`cupy.<type>(...)` arguments and block shape. Skipped only where neither compiler exists.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gpuprep.harness.source_scan import language_of

from . import nvrtc
from .conftest import DRILL_IDS, DRILLS_DIR, KERNELS_DIR, drills

NVCC = shutil.which("nvcc")
needs_nvcc = pytest.mark.skipif(
    nvrtc.library() is None and NVCC is None,
    reason="needs NVRTC (pip install nvidia-cuda-nvrtc-cu12, in the test extra on Linux) or nvcc",
)
CUDA_FILES = sorted(
    path
    for path in [*KERNELS_DIR.glob("*/*.py"), *DRILLS_DIR.glob("*/starter_cuda.py")]
    if language_of(path.read_text()) == "cuda"
)
#: Bytes of each scalar type CuPy passes by value.
CUPY_SIZES = {"uint64": 8, "int64": 8, "uint32": 4, "int32": 4, "float32": 4, "float64": 8}
PTX_SIZES = {"u64": 8, "s64": 8, "b64": 8, "f64": 8, "u32": 4, "s32": 4, "b32": 4, "f32": 4}
#: NVRTC, which CuPy compiles with, does not pre-include the C library the way nvcc does.
NVRTC_PRELUDE = "#undef INFINITY\n#undef NAN\n#undef HUGE_VALF\n"


def _ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.stem}" for p in paths]


class Launch:
    """What a CuPy file says about its kernel, read from its syntax tree."""

    def __init__(self, path: Path) -> None:
        tree = ast.parse(path.read_text())
        constants = {  # names bound to literals anywhere (module constants, `threads = 256`)
            target.id: node.value.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in tree.body:  # TILE, ROWS = 32, 8
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.targets[0], ast.Tuple)
                and isinstance(node.value, ast.Tuple)
            ):
                for name, value in zip(node.targets[0].elts, node.value.elts, strict=True):
                    if isinstance(name, ast.Name) and isinstance(value, ast.Constant):
                        constants[name.id] = value.value
        self.kernels: dict[str, str] = {}  # Python variable -> kernel name
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and ast.unparse(node.value.func) == "cupy.RawKernel"
            ):
                source, name = node.value.args
                self.source = constants[source.id]
                self.kernels[node.targets[0].id] = name.value
        self.calls: list[tuple[str, list[int | None], list[str]]] = []
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in self.kernels
            ):
                _grid, block, args = node.args
                threads = [
                    constants.get(e.id) if isinstance(e, ast.Name) else getattr(e, "value", None)
                    for e in block.elts
                ]
                types = [ast.unparse(arg.func).removeprefix("cupy.") for arg in args.elts]
                self.calls.append((self.kernels[node.func.id], threads, types))


def _compile(path: Path, source: str, tmp_path: Path) -> str:
    if nvrtc.library() is not None:
        try:
            ptx, log = nvrtc.compile_to_ptx(NVRTC_PRELUDE + source, f"{path.stem}.cu")
        except nvrtc.NvrtcError as error:
            raise AssertionError(f"{path} does not compile:\n{str(error)[-3000:]}") from None
        assert "warning" not in log, f"{path} does not compile without warnings:\n{log[-3000:]}"
        return ptx
    cu = tmp_path / f"{path.stem}.cu"
    cu.write_text(NVRTC_PRELUDE + source)
    ptx_file = tmp_path / f"{path.stem}.ptx"
    done = subprocess.run(
        [NVCC, "-arch=sm_90", "--ptx", "-Werror", "all-warnings", "-o", str(ptx_file), str(cu)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"{path} does not compile:\n{done.stderr[-3000:]}"
    return ptx_file.read_text()


def _entry(ptx: str, name: str) -> tuple[list[int], int | None]:
    """Parameter sizes and the thread limit (__launch_bounds__) of one kernel in the PTX."""
    match = re.search(rf"\.entry\s+{re.escape(name)}\s*\((.*?)\)\s*(.*?)\{{", ptx, re.DOTALL)
    assert match, f'no kernel {name} in the PTX: is it extern "C" __global__?'
    params = [PTX_SIZES[t] for t in re.findall(r"\.param\s+\.(\w+)", match.group(1))]
    bound = re.search(r"\.maxntid\s+(\d+),\s*(\d+),\s*(\d+)", match.group(2))
    limit = int(bound.group(1)) * int(bound.group(2)) * int(bound.group(3)) if bound else None
    return params, limit


def test_the_cuda_files_are_the_cuda_rungs_and_the_starters():
    rungs = {
        KERNELS_DIR / drill_id / f"{rung.name}.py"
        for drill_id in DRILL_IDS
        for rung in drills()[drill_id].track("cuda")
    }
    starters = {DRILLS_DIR / drill_id / "starter_cuda.py" for drill_id in DRILL_IDS}
    assert set(CUDA_FILES) == rungs | starters, "a rung's language in drill.yaml is its file's"
    assert {"reduction", "transpose"} <= {p.parent.name for p in rungs}


@pytest.mark.parametrize("drill_id", ["reduction", "transpose"])
def test_the_cuda_track_is_three_rungs_deep(drill_id):
    assert len(drills()[drill_id].track("cuda")) >= 3
    assert len(drills()[drill_id].track("triton")) >= 4


@needs_nvcc
@pytest.mark.parametrize("path", CUDA_FILES, ids=_ids(CUDA_FILES))
def test_a_cuda_kernel_compiles_for_hopper_and_is_launched_as_declared(path, tmp_path):
    launch = Launch(path)
    assert launch.calls, f"{path} never launches its kernel"
    ptx = _compile(path, launch.source, tmp_path)
    for name, threads, types in launch.calls:
        params, limit = _entry(ptx, name)
        sizes = [CUPY_SIZES[t] for t in types]
        assert sizes == params, (
            f"{name}: the wrapper passes {types}, the kernel takes {params} bytes"
        )
        assert all(isinstance(t, int) for t in threads), f"{name}: block shape {threads}"
        count = 1
        for t in threads:
            count *= t
        assert count <= (limit or 1024), f"{name}: {count} threads over its limit {limit}"


@needs_nvcc
def test_a_kernel_that_does_not_compile_is_caught(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text(
        'import cupy\nSOURCE = r"""\nextern "C" __global__ void k(float* x) { x[0] = y; }\n"""\n'
        '_kernel = cupy.RawKernel(SOURCE, "k")\n'
        "def f(x):\n    _kernel((1,), (1,), (cupy.uint64(0),))\n"
    )
    with pytest.raises(AssertionError, match="does not compile"):
        _compile(broken, Launch(broken).source, tmp_path)


@needs_nvcc
def test_a_wrapper_that_passes_the_wrong_argument_sizes_is_caught(tmp_path):
    ptx = _compile(
        tmp_path / "k.py",
        'extern "C" __global__ void __launch_bounds__(256) k(const float* x, int n) {}',
        tmp_path,
    )
    assert _entry(ptx, "k") == ([8, 4], 256)


@needs_nvcc
def test_a_kernel_that_compiles_with_a_warning_is_caught(tmp_path):
    with pytest.raises(AssertionError, match="does not compile"):
        _compile(
            tmp_path / "k.py",
            'extern "C" __global__ void k(float* x) { int unused; x[0] = 1.0f; }',
            tmp_path,
        )
