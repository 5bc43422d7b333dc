"""A drill's required method is judged from the compiled PTX of the kernels a call launched:
real Triton output with and without tensor cores, never the source, never a guess on a CPU."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from gpuprep.harness.launches import LaunchCounter
from gpuprep.harness.methods import (
    NOT_ON_A_CPU,
    KernelCode,
    instruction_counts,
    judge_methods,
    merge_code,
    method_outcome,
)

PTX = Path(__file__).parent / "fixtures" / "ptx"


def kernel(name: str, fixture: str) -> KernelCode:
    return {
        "name": name,
        "code": "ptx",
        "counts": instruction_counts((PTX / f"{fixture}.ptx").read_text()),
    }


def test_tl_dot_compiles_to_mma_on_ampere_and_wgmma_on_hopper_both_through_shared_memory():
    ampere = instruction_counts((PTX / "dot_sm80.ptx").read_text())
    hopper = instruction_counts((PTX / "dot_sm90.ptx").read_text())
    assert ampere["mma"] > 0 and ampere["ldmatrix"] > 0 and "wgmma" not in ampere
    assert hopper["wgmma"] > 0 and hopper["st.shared"] > 0 and "mma" not in hopper


def test_an_fma_loop_shows_neither_tensor_cores_nor_shared_memory():
    assert instruction_counts((PTX / "fma_sm90.ptx").read_text()) == {}


def test_declarations_comments_and_fences_are_not_instructions():
    text = """
    .extern .shared .align 16 .b8 global_smem[];   // mma.sync would go here
    /* ld.shared.b32 %r1, [%r2]; */
    wgmma.fence.sync.aligned;
    $L__BB0_1:
    @%p1 ld.global.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd1 + 0 ];
    @!%p2 st.shared.v2.f32 [%r9], {%f1, %f2};
    """
    assert instruction_counts(text) == {"st.shared": 1}


def test_a_submission_that_meets_the_numbers_on_fma_units_is_rejected_naming_the_method():
    outcome = method_outcome(
        "submission", ["tensor_cores"], [kernel("matmul_fma", "fma_sm90")], gpu=True
    )
    assert outcome["status"] == "rejected"
    assert "tensor cores not used" in str(outcome["message"])
    assert "matmul_fma" in str(outcome["message"]) and "tl.dot" in str(outcome["message"])


def test_tensor_cores_in_any_launched_kernel_satisfy_the_drill():
    kernels = [kernel("epilogue", "fma_sm90"), kernel("matmul_wgmma", "dot_sm90")]
    outcome = method_outcome("submission", ["tensor_cores", "shared_memory"], kernels, gpu=True)
    assert "status" not in outcome
    assert [check["status"] for check in outcome["methods"]] == ["shown", "shown"]
    assert "wgmma in matmul_wgmma" in outcome["methods"][0]["detail"]


def test_a_rung_without_its_method_is_flagged_not_refused():
    outcome = method_outcome("rung", ["shared_memory"], [kernel("v2_tiles", "fma_sm90")], gpu=True)
    assert "status" not in outcome
    assert outcome["flags"] == [outcome["methods"][0]["detail"]]
    assert "shared memory not used" in outcome["flags"][0]


def test_on_a_cpu_the_method_is_not_checked_and_nothing_is_refused():
    outcome = method_outcome("submission", ["tensor_cores"], [], gpu=False)
    assert "status" not in outcome
    assert outcome["methods"] == [
        {"method": "tensor_cores", "status": "unchecked", "detail": f"tensor cores: {NOT_ON_A_CPU}"}
    ]


def test_a_kernel_whose_code_could_not_be_read_leaves_the_method_unchecked():
    unread: KernelCode = {"name": "cuda_gemm", "code": "unread", "counts": {}}
    checks = judge_methods(["tensor_cores"], [kernel("helper", "fma_sm90"), unread], gpu=True)
    assert checks[0]["status"] == "unchecked" and "cuda_gemm" in checks[0]["detail"]
    assert judge_methods(["tensor_cores"], [], gpu=True)[0]["status"] == "unchecked"


def test_the_judge_keeps_only_well_formed_counts_from_the_sandboxs_reports():
    known: dict[str, KernelCode] = {}
    merge_code(
        known,
        [
            {"name": "k", "code": "ptx", "counts": {"mma": 4, "wgmma": "lots", "ld.shared": -1}},
            "garbage",
            {"counts": {"mma": 1}},
            {
                "name": "k",
                "code": "unread",
                "counts": {},
            },  # a later report cannot erase what was read
        ],
    )
    assert known == {"k": {"name": "k", "code": "ptx", "counts": {"mma": 4}}}


def test_the_launch_hook_reads_a_compiled_triton_kernels_ptx_once():
    counter = LaunchCounter(hook=False)
    compiled = SimpleNamespace(
        name="matmul_kernel", asm={"ptx": (PTX / "dot_sm90.ptx").read_text()}
    )
    counter.read_triton(SimpleNamespace(), compiled)
    counter.read_triton(SimpleNamespace(), compiled)
    assert counter.report()[0]["counts"]["wgmma"] == 4
    counter.read_triton(
        SimpleNamespace(fn=SimpleNamespace(__name__="odd")), SimpleNamespace(asm={})
    )
    assert counter.code["odd"] == {"name": "odd", "code": "unread", "counts": {}}


@pytest.mark.parametrize("method", ["tensor_cores", "shared_memory"])
def test_every_method_names_its_instructions_for_the_user(method):
    check = judge_methods([method], [kernel("plain", "fma_sm90")], gpu=True)[0]
    assert check["status"] == "missing" and "no " in check["detail"]


# -- on a GPU: the whole path, from the launch hook to the verdict ---------------------------

METHOD_FIXTURES = Path(__file__).parent / "fixtures" / "methods"


def matmul_drill():
    from gpuprep.bank.drill import Drill

    return Drill.model_validate(
        {
            "id": "matmul_fixture",
            "title": "Matmul (fixture)",
            "topic": "memory-hierarchy",
            "entry": "matmul",
            "contract": "matmul(a, b): bf16 (M, K) x (K, N) -> bf16, fp32 accumulation",
            "inputs": [{"name": "a", "shape": ["m", "k"]}, {"name": "b", "shape": ["k", "n"]}],
            "requires": ["tensor_cores"],
            "output_shape": ["m", "n"],
            "dtypes": ["bfloat16"],
            "distributions": [{"name": "normal", "kind": "normal"}],
            "reference": "matmul",
            "tolerance": {"bfloat16": 1.0e-2},
            "bytes": "(m * k + k * n + m * n) * itemsize",
            "flops": "2 * m * n * k",
            "cpu_shapes": [{"label": "odd", "dims": {"m": 100, "k": 70, "n": 90}}],
            "bench_shapes": [{"label": "small", "dims": {"m": 512, "k": 512, "n": 512}}],
            "bench_dtype": "bfloat16",
        }
    )


@pytest.mark.gpu
@pytest.mark.parametrize(
    "fixture, status, fragment",
    [
        ("matmul_dot", "passed", "tensor cores: "),
        ("matmul_fma", "rejected", "tensor cores not used"),
    ],
)
def test_on_a_gpu_the_compiled_code_decides_the_method(fixture, status, fragment, tmp_path):
    from gpuprep.harness.api import submit

    from .conftest import cuda_available

    if not cuda_available():
        pytest.skip("needs a CUDA GPU")
    report = submit(
        matmul_drill(),
        tmp_path,
        METHOD_FIXTURES / f"{fixture}.py",
        with_ladder=False,
        timing={"budget_s": 0.3, "min_runs": 5, "max_runs": 20},
    )
    assert report.status == status, report.message
    assert fragment in (report.message if status == "rejected" else " ".join(report.notes))


# -- CUDA C through nvcc: the rungs that declare a method show it -----------------------------


def _cuda_rungs_with_methods() -> list[tuple[str, str, list[str]]]:
    from .conftest import DRILL_IDS, drills

    return [
        (drill_id, rung.name, list(rung.requires))
        for drill_id in DRILL_IDS
        for rung in drills()[drill_id].track("cuda")
        if rung.requires
    ]


def _cuda_ptx(path: Path, tmp_path: Path) -> str:
    from .test_cuda_sources import NVCC, Launch, _compile

    if NVCC is None:
        pytest.skip("needs nvcc (the CUDA toolkit)")
    return _compile(path, Launch(path).source, tmp_path)


def test_a_shared_memory_tile_in_cuda_c_shows_and_the_naive_kernel_does_not(tmp_path):
    from .conftest import DRILLS_DIR, KERNELS_DIR

    tiled = _cuda_ptx(KERNELS_DIR / "transpose" / "v1_cuda_smem_tile.py", tmp_path)
    naive = _cuda_ptx(DRILLS_DIR / "transpose" / "starter_cuda.py", tmp_path)
    as_kernel = lambda name, ptx: {"name": name, "code": "ptx", "counts": instruction_counts(ptx)}  # noqa: E731
    assert (
        judge_methods(["shared_memory"], [as_kernel("tile", tiled)], gpu=True)[0]["status"]
        == "shown"
    )
    assert (
        judge_methods(["shared_memory"], [as_kernel("naive", naive)], gpu=True)[0]["status"]
        == "missing"
    )


@pytest.mark.parametrize("drill_id, rung, required", _cuda_rungs_with_methods())
def test_each_cuda_rung_shows_the_method_it_declares(drill_id, rung, required, tmp_path):
    from .conftest import KERNELS_DIR

    ptx = _cuda_ptx(KERNELS_DIR / drill_id / f"{rung}.py", tmp_path)
    checks = judge_methods(
        required, [{"name": rung, "code": "ptx", "counts": instruction_counts(ptx)}], gpu=True
    )
    assert [c["status"] for c in checks] == ["shown"] * len(required), checks


def test_a_cupy_kernel_is_counted_and_its_ptx_read_through_nvrtc(monkeypatch):
    import sys
    import types

    from gpuprep.harness import launches

    calls = []

    class RawKernel:  # the shape of cupy.RawKernel: code, name, options, called with a grid
        def __init__(self, code: str, name: str, options: tuple[str, ...] = ()) -> None:
            self.code, self.name, self.options = code, name, options

        def __call__(self, grid: tuple[int, ...], block: tuple[int, ...], args: tuple) -> None:
            calls.append((self.name, grid))

    fake = types.ModuleType("cupy")
    fake.RawKernel = RawKernel
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.setattr(
        launches, "_nvrtc_ptx", lambda source, options: (PTX / "dot_sm80.ptx").read_text()
    )
    counter = LaunchCounter(hook=False)
    counter.track_cupy()
    gemm = fake.RawKernel('extern "C" __global__ void gemm() {}', "gemm")
    gemm((4,), (128,), ())
    gemm((4,), (128,), ())
    assert calls == [("gemm", (4,)), ("gemm", (4,))] and counter.count == 2
    assert counter.code["gemm"]["counts"]["mma"] == 32


def test_a_cupy_kernel_whose_ptx_cannot_be_made_is_unread_not_refused(monkeypatch):
    import sys
    import types

    class RawKernel:
        def __init__(self, code: str, name: str) -> None:
            self.code, self.name = code, name

        def __call__(self, *args: object) -> None:
            pass

    fake = types.ModuleType("cupy")
    fake.RawKernel = RawKernel
    monkeypatch.setitem(sys.modules, "cupy", fake)  # no cupy_backends: NVRTC cannot be reached
    counter = LaunchCounter(hook=False)
    counter.track_cupy()
    fake.RawKernel("bad", "k")()
    checks = judge_methods(["shared_memory"], counter.report(), gpu=True)
    assert checks[0]["status"] == "unchecked"


def test_cuda_wmma_counts_as_tensor_cores_and_its_shared_loads_as_shared_memory():
    text = """
    wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16 {%r1, %r2, %r3, %r4}, [%r9], %r10;
    wmma.load.b.sync.aligned.col.m16n16k16.global.bf16 {%r5, %r6, %r7, %r8}, [%rd3], %r10;
    wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%f1, %f2}, {%r1}, {%r5}, {%f1, %f2};
    wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd4], {%f1, %f2}, %r11;
    """
    assert instruction_counts(text) == {"ld.shared": 1, "wmma": 1}
    checks = judge_methods(
        ["tensor_cores", "shared_memory"],
        [{"name": "k", "code": "ptx", "counts": instruction_counts(text)}],
        gpu=True,
    )
    assert [check["status"] for check in checks] == ["shown", "shown"]


@pytest.mark.parametrize("language, rejected", [("triton", True), ("cuda", False)])
def test_a_drills_method_holds_only_the_tracks_it_names(language, rejected):
    from gpuprep.harness.drill_run import DrillRun

    run = SimpleNamespace(
        spec={"requires": ["tensor_cores"], "requires_tracks": ["triton"]},
        kernel_code={"k": kernel("matmul_fma", "fma_sm90")},
        gpu=True,
    )
    outcome = DrillRun.method_verdict(run, {"role": "submission", "language": language})
    assert (outcome.get("status") == "rejected") is rejected
