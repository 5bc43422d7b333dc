"""The GPU report, assembled from a worker's events (faked here: the real ones need a GPU)."""

import pytest

from gpuprep.harness import api
from gpuprep.harness.report import BenchReport, Ceilings, KernelLine, Mode, Status, SubmitReport
from gpuprep.harness.runner import WorkerRun

from .conftest import DRILLS_DIR, KERNELS_DIR, drills

H200 = {"kind": "cuda", "name": "NVIDIA H200", "torch": "2.11.0", "triton": "3.6.0"}
N = 2**28


#: Ladder times in ms: the Triton track as measured on the H200, the CUDA track made up.
LADDER_MS = {
    "v0_atomic_per_element": 471.6,
    "v1_block_tree": 0.5198,
    "v2_two_pass_persistent": 0.2710,
    "v3_grid_stride_atomics": 0.2535,
    "v4_tuned_single_pass": 0.2464,
    "v1_cuda_smem_tree": 1.90,
    "v2_cuda_warp_shuffle": 0.48,
    "v3_cuda_float4_waves": 0.25,
}


def timed(
    name: str,
    role: str,
    median_ms: float,
    bytes_moved: float = 4.0 * N + 4,
    language: str = "triton",
) -> dict:
    timing = {
        "median_ms": median_ms,
        "p10_ms": median_ms * 0.99,
        "p90_ms": median_ms * 1.01,
        "mean_ms": median_ms,
        "cv": 0.004,
        "runs": 12,
        "wall_median_ms": median_ms + 0.6,
    }
    row = {
        "label": "",
        "dims": {"n": N},
        "dtype": "float32",
        "bytes": bytes_moved,
        "flops": float(N),
        "status": "passed",
        "message": "",
        "timing": timing,
        "flags": [],
    }
    return {
        "name": name,
        "role": role,
        "language": language,
        "status": "passed",
        "message": "",
        "checks": [],
        "bench": [row],
    }


@pytest.fixture
def fake_worker(monkeypatch):
    def install(submission_ms: float) -> None:
        def run_judge(config, **kwargs):
            mine = config["kernels"][0]
            results = [timed(mine["name"], "submission", submission_ms, language=mine["language"])]
            results += [
                timed(k["name"], "rung", LADDER_MS[k["name"]], language=k["language"])
                for k in config["kernels"]
                if k["role"] == "rung"
            ]
            results.append(timed("torch.sum", "vendor", 0.2586))
            results.append(timed("copy", "copy", 0.5090, bytes_moved=2.0 * N * 4))
            return WorkerRun(device=H200, results=results, finished=True, returncode=0)

        monkeypatch.setattr(api, "run_judge", run_judge)

    return install


def submit(path=DRILLS_DIR / "reduction" / "starter_triton.py") -> SubmitReport:
    return api.submit(
        drills()["reduction"],
        KERNELS_DIR / "reduction",
        path,
        ceilings_for=lambda device: Ceilings(gpu_id="h200", datasheet_bandwidth=4.8e12),
    )


def test_a_timed_submission_reports_figures_percentages_and_placement(fake_worker):
    fake_worker(0.40)
    report = submit()
    assert report.status is Status.PASSED and report.mode is Mode.GPU
    assert report.timing.median_ms == pytest.approx(0.40)
    assert report.achieved.gbps == pytest.approx((4.0 * N + 4) / 0.40e-3 / 1e9)
    assert report.gpu == "h200"
    assert report.pct_of_peak.datasheet == pytest.approx(100 * report.achieved.gbps / 4800)
    assert report.pct_of_peak.copy_this_run == pytest.approx(
        100 * report.achieved.gbps / report.copy.gbps
    )
    assert report.placement.startswith(
        "on the Triton track: between v1_block_tree and v2_two_pass_persistent; next: v2_two_pass_persistent"
    )
    assert [line.name for line in report.ladder] == list(LADDER_MS)
    assert report.vendor.name == "torch.sum" and report.flags == []
    assert report.to_json()["pct_of_peak"]["gpu"] == "h200"


def test_a_time_under_the_speed_of_light_is_flagged(fake_worker):
    fake_worker(0.05)
    report = submit()
    assert any("faster than the memory can deliver" in flag for flag in report.flags)


def test_the_text_report_prints_the_ladder_and_the_placement(fake_worker, capsys):
    from gpuprep.cli.drills import _print_submit

    fake_worker(0.40)
    _print_submit(submit())
    out = capsys.readouterr().out
    assert (
        "PASSED" in out
        and "GB/s" in out
        and "v4_tuned_single_pass" in out
        and "v3_cuda_float4_waves" in out
        and "placement: on the Triton track: between" in out
    )


def test_the_bench_table_renders_the_committed_h200_run(capsys):
    import json
    from pathlib import Path

    from gpuprep.cli.drills import _print_bench

    results = (
        Path(__file__).resolve().parents[2]
        / "benchmarks"
        / "results"
        / "drills-2026-11-30-h200.json"
    )
    run = json.loads(results.read_text())["runs"]["reduction"][0]
    _print_bench(BenchReport.from_json(run))
    out = capsys.readouterr().out
    assert "NVIDIA H200" in out and "torch.sum" in out and "copy" in out


def test_a_cuda_submission_is_placed_on_the_cuda_track(fake_worker):
    fake_worker(0.40)
    report = submit(DRILLS_DIR / "reduction" / "starter_cuda.py")
    # 0.40 ms is between v1 and v2 of the Triton track too; the CUDA track is the one named.
    assert report.language == "cuda"
    assert report.placement.startswith(
        "on the CUDA track: between v2_cuda_warp_shuffle and v3_cuda_float4_waves; next: v3_cuda_float4_waves"
    )


def test_a_track_the_drill_lacks_falls_back_to_the_whole_ladder():
    drill = drills()["softmax"]
    ladder = [
        KernelLine(rung.name, Status.PASSED, median_ms=1.0 / (i + 1))
        for i, rung in enumerate(drill.ladder)
    ]
    where = api.track_placement(drill, "cuda", 10.0, ladder)
    assert where.startswith("no CUDA track in this drill; on the whole ladder: slower than")


def test_bench_speedups_compare_rungs_of_one_track(fake_worker):
    fake_worker(0.40)
    result = api.bench(
        drills()["reduction"],
        KERNELS_DIR / "reduction",
        ceilings_for=lambda device: Ceilings(gpu_id="h200", datasheet_bandwidth=4.8e12),
        extra_kernels=[],
    )
    rows = {row.name: row for row in result.rungs}
    assert rows["v1_cuda_smem_tree"].speedup_vs_previous is None, "first of its track"
    assert rows["v2_cuda_warp_shuffle"].speedup_vs_previous == pytest.approx(1.90 / 0.48)
    assert rows["v1_block_tree"].speedup_vs_previous == pytest.approx(471.6 / 0.5198)
    assert {row.language for row in result.rungs} == {"triton", "cuda"}


def _drills_gpu():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "drills_gpu.py"
    spec = importlib.util.spec_from_file_location("drills_gpu", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_checks_each_rung_against_the_one_before_on_its_track(fake_worker):
    fake_worker(0.40)
    result = api.bench(drills()["reduction"], KERNELS_DIR / "reduction").to_json()
    order = _drills_gpu().track_order(result)
    pairs = {(o["previous"], o["rung"]): o["ok"] for o in order}
    assert pairs[("v1_cuda_smem_tree", "v2_cuda_warp_shuffle")] is True
    assert ("v4_tuned_single_pass", "v1_cuda_smem_tree") not in pairs, "tracks are not mixed"
    assert len(order) == len(drills()["reduction"].ladder) - 2  # every rung but each track's first


def test_the_short_table_names_a_rung_slower_than_the_one_before(fake_worker):
    fake_worker(0.40)
    result = api.bench(drills()["reduction"], KERNELS_DIR / "reduction").to_json()
    result["rungs"][-1]["median_ms"] = 9.0  # v3_cuda_float4_waves made slower than v2
    module = _drills_gpu()
    order = module.track_order(result)
    table = module.short_table({"reduction": [result]}, [], order, [])
    assert "v3_cuda_float4_waves" in table and "cuda" in table
    assert "NO reduction/v3_cuda_float4_waves" in table


#: Softmax times in ms on (headline, narrow rows, wide rows): made up, shaped like a ladder whose
#: tuned rung wins most on the narrow and wide shapes.
SOFTMAX_MS = {
    "v0_three_pass": (0.26, 0.30, 0.28),
    "v1_online": (0.18, 0.25, 0.20),
    "v2_fused_loops": (0.17, 0.24, 0.19),
    "v3_tuned_rows": (0.14, 0.13, 0.14),
    "torch.softmax": (0.28, 0.27, 0.30),
    "copy": (0.51,),
}
SOFTMAX_SHAPES = [
    ("8192 x 8192 (the headline)", {"rows": 8192, "cols": 8192}),
    ("narrow rows", {"rows": 262144, "cols": 256}),
    ("wide rows", {"rows": 256, "cols": 262144}),
]


def _install_softmax_worker(monkeypatch) -> None:
    def run_judge(config, **kwargs):
        results = []
        for kernel in [*config["kernels"], {"name": "copy", "role": "copy", "language": "torch"}]:
            result = timed(kernel["name"], kernel["role"], 1.0, language=kernel["language"])
            result["bench"] = [
                {
                    **result["bench"][0],
                    "label": label,
                    "dims": dims,
                    "bytes": 8.0 * dims["rows"] * dims["cols"]
                    if kernel["role"] != "copy"
                    else 2.0 * N * 4,
                    "timing": {**result["bench"][0]["timing"], "median_ms": ms},
                }
                for (label, dims), ms in zip(
                    SOFTMAX_SHAPES, SOFTMAX_MS[kernel["name"]], strict=False
                )
            ]
            results.append(result)
        return WorkerRun(device=H200, results=results, finished=True, returncode=0)

    monkeypatch.setattr(api, "run_judge", run_judge)


def _softmax_run(monkeypatch) -> BenchReport:
    _install_softmax_worker(monkeypatch)
    return api.bench(
        drills()["softmax"],
        KERNELS_DIR / "softmax",
        ceilings_for=lambda device: Ceilings(gpu_id="h200", datasheet_bandwidth=4.8e12),
    )


def test_bench_keeps_every_benchmark_shape_not_only_the_headline(monkeypatch):
    result = _softmax_run(monkeypatch)
    tuned = next(row for row in result.rungs if row.name == "v3_tuned_rows")
    assert [shape.label for shape in tuned.shapes] == [label for label, _ in SOFTMAX_SHAPES]
    assert tuned.median_ms == tuned.shapes[0].median_ms == 0.14
    narrow = tuned.shapes[1]
    assert narrow.median_ms == 0.13
    assert narrow.gbps == pytest.approx(8.0 * 262144 * 256 / 0.13e-3 / 1e9)
    assert narrow.speedup_vs_previous == pytest.approx(0.24 / 0.13), "against v2 on that shape"
    first = result.rungs[0]
    assert all(shape.speedup_vs_previous is None for shape in first.shapes)


def test_the_bench_table_prints_a_table_for_each_further_shape(monkeypatch, capsys):
    from gpuprep.cli.drills import _print_bench

    _print_bench(_softmax_run(monkeypatch))
    out = capsys.readouterr().out
    assert "narrow rows · rows=262144, cols=256" in out
    assert "wide rows · rows=256, cols=262144" in out
    narrow = out[out.index("narrow rows ·") : out.index("wide rows ·")]
    assert "v3_tuned_rows" in narrow and "1.85x" in narrow  # 0.24 / 0.13 against v2_fused_loops


def test_a_submission_is_reported_on_every_benchmark_shape_beside_the_vendor_op(
    monkeypatch, capsys
):
    from gpuprep.cli.drills import _print_submit

    _install_softmax_worker(monkeypatch)
    SOFTMAX_MS["starter_triton"] = (0.20, 0.50, 0.25)
    try:
        report = api.submit(
            drills()["softmax"],
            KERNELS_DIR / "softmax",
            DRILLS_DIR / "softmax" / "starter_triton.py",
            ceilings_for=lambda device: Ceilings(gpu_id="h200", datasheet_bandwidth=4.8e12),
        )
    finally:
        del SOFTMAX_MS["starter_triton"]
    assert [shape.median_ms for shape in report.shapes] == [0.20, 0.50, 0.25]
    _print_submit(report)
    out = capsys.readouterr().out
    assert "also narrow rows (rows=262144, cols=256): 0.5000 ms" in out
    assert "torch.softmax 0.2700 ms" in out


def test_the_benchmark_tables_have_a_section_for_each_further_shape(monkeypatch):
    module = _drills_gpu()
    result = _softmax_run(monkeypatch).to_json()
    table = module.short_table({"softmax": [result]}, [], module.track_order(result), [])
    assert "-- softmax narrow rows: rows=262144, cols=256" in table
    markdown = "\n".join(module._table(result))
    assert "softmax, wide rows (rows=256, cols=262144):" in markdown
    assert "| v3_tuned_rows | triton | passed | 0.1400 | 3835 | 91% | 1.36x |" in markdown
