"""Benchmark every drill's ladder on the local GPU, twice, and check the issue's bars.

Runs `gpuprep.harness.sessions.bench` (the same worker and timer as `gpuprep bench`) for each
drill in two separate worker processes, so the second run measures repeatability, then writes
`drills-<date>-<gpu>.json` (everything) and `.md` (the tables and the bars) into --out.

Needs torch, triton, pyyaml and pydantic (the bank loader); no typer, textual or sympy.
On a machine where gpuprep is not installed, put a folder holding `gpuprep -> app/` on
PYTHONPATH (see benchmarks/run_on_device.sh).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import sys
import time
from pathlib import Path

#: (drill, top rung, vendor speed-up floor, share-of-copy floor), from issue 5.
BARS = [
    ("reduction", "v4_tuned_single_pass", 0.97, 0.90),
    ("softmax", "v3_tuned_rows", 1.8, 0.85),
    ("transpose", "v3_tiles_64", 3.0, 0.85),
]
REPEATABILITY = 0.03


def _ceilings_for(bank):  # noqa: ANN001, ANN202
    from gpuprep.bank.hardware import find_by_device_name
    from gpuprep.harness.report import Ceilings

    def ceilings(device: dict) -> Ceilings:
        gpu = find_by_device_name(bank.hardware.values(), device.get("name", ""))
        bandwidth = gpu.get("hbm_bandwidth") if gpu else None
        return Ceilings(
            gpu_id=gpu.id if gpu else None,
            datasheet_bandwidth=bandwidth.to("B/s") if bandwidth else None,
        )

    return ceilings


def _table(result: dict) -> list[str]:
    lines = [
        f"### {result['drill']} ({', '.join(f'{k}={v}' for k, v in (result.get('shape') or {}).items())})",
        "",
        "| kernel | status | median ms | p10 ms | p90 ms | cv | runs | GB/s | % datasheet | % copy | speed-up |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in [*result["rungs"], result.get("vendor"), result.get("copy")]:
        if not row:
            continue
        timing = row.get("timing") or {}
        pct = row.get("pct_of_peak") or {}

        def f(value, pattern="{:.4f}"):  # noqa: ANN001, ANN202
            return "-" if value is None else pattern.format(value)

        lines.append(
            f"| {row['name']} | {row['status']} | {f(row.get('median_ms'))} | {f(timing.get('p10_ms'))} | {f(timing.get('p90_ms'))} | "
            f"{f(timing.get('cv'), '{:.3f}')} | {timing.get('runs', '-')} | {f(row.get('gbps'), '{:.0f}')} | {f(pct.get('datasheet'), '{:.0f}%')} | "
            f"{f(pct.get('copy_this_run'), '{:.0f}%')} | {f(row.get('speedup_vs_previous'), '{:.2f}x')} |"
        )
        if row["status"] not in ("passed",) and row.get("message"):
            lines.append(f"|  | {row['message'][:200]} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument(
        "--drills", nargs="*", default=["vector_add", "reduction", "softmax", "transpose"]
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
    from gpuprep.harness.sessions import bench

    bank, _ = load_bank()
    ceilings = _ceilings_for(bank)
    runs: dict[str, list[dict]] = {}
    for drill_id in args.drills:
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
            )
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
    for drill_id, top, vendor_floor, copy_floor in BARS:
        if drill_id not in runs:
            continue
        first = runs[drill_id][0]
        rung = next(r for r in first["rungs"] if r["name"] == top)
        vendor, copy = first["vendor"], first["copy"]
        if not (
            rung.get("median_ms")
            and vendor
            and vendor.get("median_ms")
            and copy
            and copy.get("gbps")
        ):
            verdicts.append(
                {
                    "drill": drill_id,
                    "rung": top,
                    "ok": False,
                    "why": f"not timed: {rung.get('message') or rung['status']}",
                }
            )
            continue
        speedup = vendor["median_ms"] / rung["median_ms"]
        share = rung["gbps"] / copy["gbps"]
        verdicts.append(
            {
                "drill": drill_id,
                "rung": top,
                "vs_vendor": speedup,
                "vendor_floor": vendor_floor,
                "share_of_copy": share,
                "copy_floor": copy_floor,
                "ok": speedup >= vendor_floor and share >= copy_floor,
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
        "## Bars (issue 5)",
        "",
        "| drill | top rung | vs vendor | floor | share of copy | floor | ok |",
        "|---|---|---|---|---|---|---|",
    ]
    for v in verdicts:
        if "vs_vendor" in v:
            md.append(
                f"| {v['drill']} | {v['rung']} | {v['vs_vendor']:.2f}x | {v['vendor_floor']}x | {100 * v['share_of_copy']:.1f}% | "
                f"{100 * v['copy_floor']:.0f}% | {'yes' if v['ok'] else 'NO'} |"
            )
        else:
            md.append(f"| {v['drill']} | {v['rung']} | - | - | - | - | NO: {v['why']} |")
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
    print("\n".join(md))
    return 0 if all(v["ok"] for v in verdicts) and all(r["ok"] for r in repeat_rows) else 1


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
