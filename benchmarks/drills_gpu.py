"""Benchmark every drill's ladder on the local GPU, twice, and check the issue's bars.

Runs `gpuprep.harness.api.bench` (the same worker and timer as `gpuprep bench`) for each
drill in two separate worker processes, so the second run measures repeatability, then writes
`drills-<date>-<gpu>.json` (everything) and `.md` (the tables and the bars) into --out.

Needs torch, triton, pyyaml and pydantic (the bank loader); no typer, textual or sympy.
On a machine where gpuprep is not installed, put app/ on PYTHONPATH (see
benchmarks/run_on_device.sh).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import sys
import time
from pathlib import Path

#: (drill, benchmark shape index, vendor speed-up floor, share-of-copy floor or None), from
#: issues 5 and 16; each is checked on the top rung of the drill's Triton track.
BARS = [
    ("reduction", 0, 0.97, 0.90),
    ("softmax", 0, 1.8, 0.85),
    ("transpose", 0, 3.0, 0.85),
    ("matmul", 0, 0.90, None),  # 4096^3 bf16
    ("matmul", 1, 0.95, None),  # 8192^3 bf16
    ("flash_attention", 0, 0.80, None),  # B=4 H=32 S=4096 D=128, not causal
    ("flash_attention", 1, 0.75, None),  # the same, causal
    ("layernorm", 0, 1.3, 0.90),
    ("scan", 0, 1.0, None),
]
REPEATABILITY = 0.03


def _ceilings_for(bank):  # noqa: ANN001, ANN202
    from gpuprep.bank.hardware import find_by_device_name
    from gpuprep.harness.report import Ceilings

    from gpuprep.harness.report import TENSOR_PEAKS

    def ceilings(device: dict) -> Ceilings:
        gpu = find_by_device_name(bank.hardware.values(), device.get("name", ""))
        bandwidth = gpu.get("hbm_bandwidth") if gpu else None
        peaks = {dtype: gpu.get(key) for dtype, key in TENSOR_PEAKS.items()} if gpu else {}
        return Ceilings(
            gpu_id=gpu.id if gpu else None,
            datasheet_bandwidth=bandwidth.to("B/s") if bandwidth else None,
            datasheet_tensor_flops={d: q.to("FLOP/s") for d, q in peaks.items() if q is not None},
        )

    return ceilings


def _table(result: dict) -> list[str]:
    lines = [
        f"### {result['drill']} ({', '.join(f'{k}={v}' for k, v in (result.get('shape') or {}).items())})",
        "",
        "| kernel | lang | status | median ms | p10 ms | p90 ms | cv | runs | GB/s | % datasheet | % copy | speed-up |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in [*result["rungs"], result.get("vendor"), result.get("copy")]:
        if not row:
            continue
        timing = row.get("timing") or {}
        pct = row.get("pct_of_peak") or {}

        def f(value, pattern="{:.4f}"):  # noqa: ANN001, ANN202
            return "-" if value is None else pattern.format(value)

        lines.append(
            f"| {row['name']} | {row.get('language') or 'torch'} | {row['status']} | {f(row.get('median_ms'))} | {f(timing.get('p10_ms'))} | {f(timing.get('p90_ms'))} | "
            f"{f(timing.get('cv'), '{:.3f}')} | {timing.get('runs', '-')} | {f(row.get('gbps'), '{:.0f}')} | {f(pct.get('datasheet'), '{:.0f}%')} | "
            f"{f(pct.get('copy_this_run'), '{:.0f}%')} | {f(row.get('speedup_vs_previous'), '{:.2f}x')} |"
        )
        if row["status"] not in ("passed",) and row.get("message"):
            lines.append(f"|  |  | {row['message'][:200]} |")
    for label, dims, figures in _further_shapes(result):
        lines += [
            "",
            f"{result['drill']}, {label} ({dims}):",
            "",
            "| kernel | lang | status | median ms | GB/s | % copy | speed-up |",
            "|---|---|---|---|---|---|---|",
        ]
        for row, shape, pct in figures:
            lines.append(
                f"| {row['name']} | {row.get('language') or 'torch'} | {shape['status']} | {_f(shape.get('median_ms'))} | "
                f"{_f(shape.get('gbps'), '{:.0f}')} | {_f(pct, '{:.0f}%')} | {_f(shape.get('speedup_vs_previous'), '{:.2f}x')} |"
            )
    return lines


def _further_shapes(result: dict) -> list:
    """figures.further_shapes over the rungs and the vendor op, with each line's share of copy."""
    from gpuprep.harness.figures import further_shapes
    from gpuprep.harness.report import BenchReport

    report = BenchReport.from_json(result)
    kernels = [r for r in [*report.rungs, report.vendor] if r]
    return [
        (
            label,
            dims,
            [(k.to_json(), line.to_json(), line.pct_of_peak.copy_this_run) for k, line in pairs],
        )
        for label, dims, pairs in further_shapes(kernels)
    ]


def track_order(result: dict) -> list[dict]:
    """Each rung against the rung before it on its own track: is it faster?"""
    rows, previous = [], {}
    for rung in result["rungs"]:
        language = rung.get("language") or "triton"
        before = previous.get(language)
        if before is not None:
            ok = bool(rung.get("median_ms") and before.get("median_ms"))
            ok = ok and rung["median_ms"] < before["median_ms"]
            rows.append(
                {
                    "drill": result["drill"],
                    "track": language,
                    "rung": rung["name"],
                    "previous": before["name"],
                    "ms": rung.get("median_ms"),
                    "previous_ms": before.get("median_ms"),
                    "ok": ok,
                }
            )
        previous[language] = rung
    return rows


def _f(value, pattern: str = "{:.4f}") -> str:  # noqa: ANN001
    return "-" if value is None else pattern.format(value)


def short_table(runs: dict, verdicts: list[dict], order: list[dict], repeats: list[dict]) -> str:
    """A compact summary for a terminal: every kernel of each drill's first run, then the checks."""
    lines = [
        f"{'kernel':<26} {'lang':<6} {'status':<7} {'ms':>9} {'GB/s':>6} {'TFLOP/s':>7} {'%copy':>6} {'vs prev':>8}"
    ]
    for drill_id, results in runs.items():
        first = results[0]
        lines.append(
            f"-- {drill_id} " + ", ".join(f"{k}={v}" for k, v in (first.get("shape") or {}).items())
        )
        for row in [*first["rungs"], first.get("vendor"), first.get("copy")]:
            if not row:
                continue
            pct = (row.get("pct_of_peak") or {}).get("copy_this_run")
            lines.append(
                f"{row['name'][:26]:<26} {(row.get('language') or 'torch')[:6]:<6} {row['status'][:7]:<7} "
                f"{_f(row.get('median_ms')):>9} {_f(row.get('gbps'), '{:.0f}'):>6} {_f(row.get('tflops'), '{:.0f}'):>7} {_f(pct, '{:.0f}%'):>6} "
                f"{_f(row.get('speedup_vs_previous'), '{:.2f}x'):>8}"
            )
        for label, dims, figures in _further_shapes(first):
            lines.append(f"-- {drill_id} {label}: {dims}")
            for row, shape, pct in figures:
                lines.append(
                    f"{row['name'][:26]:<26} {(row.get('language') or 'torch')[:6]:<6} {shape['status'][:7]:<7} "
                    f"{_f(shape.get('median_ms')):>9} {_f(shape.get('gbps'), '{:.0f}'):>6} {_f(shape.get('tflops'), '{:.0f}'):>7} {_f(pct, '{:.0f}%'):>6} "
                    f"{_f(shape.get('speedup_vs_previous'), '{:.2f}x'):>8}"
                )
    for v in verdicts:
        if "vs_vendor" in v:
            copy = (
                f", {100 * v['share_of_copy']:.1f}% of copy (floor {100 * v['copy_floor']:.0f}%)"
                if v["copy_floor"] is not None and v["share_of_copy"] is not None
                else (f", {v['tflops']:.0f} TFLOP/s" if v.get("tflops") else "")
            )
            lines.append(
                f"bar {v['drill']}[{v['shape']}]: {v['rung']} {v['vs_vendor']:.2f}x vendor "
                f"(floor {v['vendor_floor']}x){copy}: {'ok' if v['ok'] else 'NO'}"
            )
        else:
            lines.append(f"bar {v['drill']}[{v['shape']}]: NO: {v['why']}")
    slower = [o for o in order if not o["ok"]]
    lines.append(
        f"track order: {len(order) - len(slower)}/{len(order)} rungs faster than the one before on their track"
        + "".join(
            f"; NO {o['drill']}/{o['rung']} {_f(o['ms'])} ms vs {o['previous']} {_f(o['previous_ms'])} ms"
            for o in slower
        )
    )
    unsteady = [r for r in repeats if not r["ok"]]
    lines.append(
        f"repeatability: {len(repeats) - len(unsteady)}/{len(repeats)} kernels within {100 * REPEATABILITY:.0f}%"
        + "".join(f"; NO {r['drill']}/{r['kernel']} {100 * r['difference']:.1f}%" for r in unsteady)
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument(
        "--drills", nargs="*", default=None, help="drill ids (default: every drill of the bank)"
    )
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=500.0)
    parser.add_argument(
        "--headline-only", action="store_true", help="time only each drill's first benchmark shape"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=3.0,
        help="seconds of timed calls per kernel and shape, at most",
    )
    args = parser.parse_args()

    import torch
    import triton

    from gpuprep.bank.loader import load_bank
    from gpuprep.harness.api import bench

    bank, _ = load_bank()
    ceilings = _ceilings_for(bank)
    runs: dict[str, list[dict]] = {}
    for drill_id in args.drills or sorted(bank.drills):
        drill = bank.drills[drill_id]
        for attempt in range(args.repeat):
            started = time.time()
            result = bench(
                drill,
                bank.kernels_ref_dir(drill_id),
                timeout_s=args.timeout,
                ceilings_for=ceilings,
                timing={"budget_s": args.budget},
                shapes=[0] if args.headline_only else None,
            ).to_json()
            result["wall_s"] = time.time() - started
            runs.setdefault(drill_id, []).append(result)
            print(
                f"{drill_id} run {attempt + 1}: {result['wall_s']:.0f} s "
                + ", ".join(
                    f"{r['name']}={r['median_ms']:.4f}ms"
                    if r.get("median_ms")
                    else f"{r['name']}={r['status']}"
                    for r in [
                        *result["rungs"],
                        result.get("vendor") or {},
                        result.get("copy") or {},
                    ]
                    if r
                ),
                flush=True,
            )

    device = next(iter(runs.values()))[0]["device"]
    verdicts = []
    for drill_id, index, vendor_floor, copy_floor in BARS:
        if drill_id not in runs:
            continue
        first = runs[drill_id][0]
        top = bank.drills[drill_id].track("triton")[-1].name
        rung = next(r for r in first["rungs"] if r["name"] == top)
        vendor, copy = first.get("vendor") or {}, first.get("copy") or {}
        line = (rung.get("shapes") or [None] * (index + 1))[index] if index < len(rung.get("shapes") or []) else None
        vendor_line = (vendor.get("shapes") or [])[index] if index < len(vendor.get("shapes") or []) else None
        copy_line = (copy.get("shapes") or [])[index] if index < len(copy.get("shapes") or []) else None
        if index == 0:
            line, vendor_line, copy_line = rung, vendor, copy
        if not (line and line.get("median_ms") and vendor_line and vendor_line.get("median_ms")):
            why = (line or {}).get("message") or (line or {}).get("status") or "shape not timed"
            verdicts.append({"drill": drill_id, "rung": top, "shape": index, "ok": False, "why": f"not timed: {why}"})
            continue
        speedup = vendor_line["median_ms"] / line["median_ms"]
        share = (
            line["gbps"] / copy_line["gbps"]
            if copy_line and copy_line.get("gbps") and line.get("gbps")
            else None
        )
        ok = speedup >= vendor_floor and (copy_floor is None or (share or 0) >= copy_floor)
        verdicts.append(
            {
                "drill": drill_id,
                "rung": top,
                "shape": index,
                "vs_vendor": speedup,
                "vendor_floor": vendor_floor,
                "share_of_copy": share,
                "copy_floor": copy_floor,
                "tflops": line.get("tflops"),
                "ok": ok,
            }
        )
    order = [row for results in runs.values() for row in track_order(results[0])]
    cuda_tops = []
    for drill_id, results in runs.items():
        first = results[0]
        cuda = [r for r in first["rungs"] if r.get("language") == "cuda"]
        vendor, copy = first.get("vendor") or {}, first.get("copy") or {}
        if cuda and cuda[-1].get("median_ms") and vendor.get("median_ms") and copy.get("gbps"):
            cuda_tops.append(
                {
                    "drill": drill_id,
                    "rung": cuda[-1]["name"],
                    "vs_vendor": vendor["median_ms"] / cuda[-1]["median_ms"],
                    "share_of_copy": cuda[-1]["gbps"] / copy["gbps"],
                }
            )
    repeat_rows = []
    for drill_id, results in runs.items():
        if len(results) < 2:
            continue
        for a, b in zip(
            results[0]["rungs"] + [results[0]["vendor"]],
            results[1]["rungs"] + [results[1]["vendor"]],
            strict=False,
        ):
            if a and b and a.get("median_ms") and b.get("median_ms"):
                diff = abs(a["median_ms"] - b["median_ms"]) / min(a["median_ms"], b["median_ms"])
                repeat_rows.append(
                    {
                        "drill": drill_id,
                        "kernel": a["name"],
                        "run1_ms": a["median_ms"],
                        "run2_ms": b["median_ms"],
                        "difference": diff,
                        "ok": diff < REPEATABILITY,
                    }
                )

    stamp = dt.datetime.now(dt.UTC)
    gpu_slug = (device.get("name") or "gpu").lower().replace("nvidia ", "").replace(" ", "-")
    environment = {
        "date": stamp.isoformat(timespec="seconds"),
        "gpu": device.get("name"),
        "torch": torch.__version__,
        "triton": triton.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "driver": _driver(),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    base = args.out / f"drills-{stamp:%Y-%m-%d}-{gpu_slug}"
    base.with_suffix(".json").write_text(
        json.dumps(
            {
                "environment": environment,
                "bars": verdicts,
                "cuda_tops": cuda_tops,
                "track_order": order,
                "repeatability": repeat_rows,
                "runs": runs,
            },
            indent=1,
            default=str,
        )
    )
    md = [
        f"# Drill ladders on {environment['gpu']}",
        "",
        f"{environment['date']} · torch {environment['torch']} · triton {environment['triton']} · CUDA {environment['cuda']} · "
        f"driver {environment['driver']} · run by `benchmarks/drills_gpu.py` (first of {args.repeat} runs shown)",
        "",
        "## Bars (issues 5 and 16; [n]: the benchmark shape)",
        "",
        "| drill | top rung | vs vendor | floor | share of copy | floor | ok |",
        "|---|---|---|---|---|---|---|",
    ]
    for v in verdicts:
        if "vs_vendor" in v:
            share = "-" if v["share_of_copy"] is None else f"{100 * v['share_of_copy']:.1f}%"
            floor = "-" if v["copy_floor"] is None else f"{100 * v['copy_floor']:.0f}%"
            md.append(
                f"| {v['drill']} [{v['shape']}] | {v['rung']} | {v['vs_vendor']:.2f}x | {v['vendor_floor']}x | {share} | "
                f"{floor} | {'yes' if v['ok'] else 'NO'} |"
            )
        else:
            md.append(f"| {v['drill']} [{v['shape']}] | {v['rung']} | - | - | - | - | NO: {v['why']} |")
    md += [
        "",
        "## CUDA track tops (no bar in issue 5; for comparison)",
        "",
        "| drill | top CUDA rung | vs vendor | share of copy |",
        "|---|---|---|---|",
    ]
    md += [
        f"| {t['drill']} | {t['rung']} | {t['vs_vendor']:.2f}x | {100 * t['share_of_copy']:.1f}% |"
        for t in cuda_tops
    ]
    md += [
        "",
        "## Each rung against the one before it on its track",
        "",
        "| drill | track | rung | ms | previous | ms | faster |",
        "|---|---|---|---|---|---|---|",
    ]
    md += [
        f"| {o['drill']} | {o['track']} | {o['rung']} | {_f(o['ms'])} | {o['previous']} | {_f(o['previous_ms'])} | {'yes' if o['ok'] else 'NO'} |"
        for o in order
    ]
    md += [
        "",
        "## Repeatability (two worker runs, median vs median)",
        "",
        "| drill | kernel | run 1 ms | run 2 ms | difference | < 3% |",
        "|---|---|---|---|---|---|",
    ]
    md += [
        f"| {r['drill']} | {r['kernel']} | {r['run1_ms']:.4f} | {r['run2_ms']:.4f} | {100 * r['difference']:.2f}% | {'yes' if r['ok'] else 'NO'} |"
        for r in repeat_rows
    ]
    md += ["", "## Ladders", ""]
    for results in runs.values():
        md += _table(results[0]) + [""]
    base.with_suffix(".md").write_text("\n".join(md) + "\n")
    print(f"wrote {base.with_suffix('.md')} and {base.with_suffix('.json')}")
    print(short_table(runs, verdicts, order, repeat_rows))
    checks = [*verdicts, *order, *repeat_rows]
    return 0 if all(c["ok"] for c in checks) else 1


def _driver() -> str | None:
    import subprocess

    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
        )
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


if __name__ == "__main__":
    sys.exit(main())
