"""Sweep the tuning knobs of the top rungs on the local GPU (how their constants were chosen).

Uses triton.testing.do_bench (median, its own 256 MB L2 clear between calls), not the harness:
this is a quick search, and the chosen configuration is then measured by drills_gpu.py.
Prints one line per configuration, best first per drill; writes JSON with --out.
"""

# ruff: noqa: B023 - each closure is benchmarked inside the loop iteration that made it.
from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
from pathlib import Path

import torch
import triton
from triton.testing import do_bench

ROOT = Path(__file__).resolve().parent.parent


def load(drill: str, rung: str):  # noqa: ANN201
    spec = importlib.util.spec_from_file_location(
        f"sweep_{drill}_{rung}", ROOT / "kernels_ref" / drill / f"{rung}.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench(fn) -> float:  # noqa: ANN001
    return do_bench(fn, warmup=50, rep=300, return_mode="median")


def sweep_reduction(results: list) -> None:
    module = load("reduction", "v2_two_pass_persistent")
    n = 2**28
    x = torch.randn(n, device="cuda")
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    truth = x.double().sum().item()
    for block, warps, per_sm in itertools.product(
        [1024, 2048, 4096, 8192], [4, 8, 16], [1, 2, 4, 8, 16]
    ):
        programs = sms * per_sm
        partials = torch.empty(programs, device="cuda")
        out = torch.empty((), device="cuda")

        def run() -> None:
            module.partial_sum_kernel[(programs,)](x, partials, n, BLOCK=block, num_warps=warps)
            module.finish_kernel[(1,)](
                partials, out, programs, BLOCK=triton.next_power_of_2(programs), num_warps=4
            )

        try:
            ms = bench(run)
        except Exception as error:  # noqa: BLE001
            results.append(
                {"drill": "reduction", "config": [block, warps, per_sm], "error": str(error)[:100]}
            )
            continue
        assert abs(out.item() - truth) < 1e-3 * x.abs().sum().item()
        results.append(
            {
                "drill": "reduction",
                "config": {"BLOCK": block, "num_warps": warps, "per_sm": per_sm},
                "ms": ms,
                "gbps": n * 4 / ms / 1e6,
            }
        )
    results.append(
        {
            "drill": "reduction",
            "config": "torch.sum",
            "ms": bench(lambda: torch.sum(x)),
            "gbps": n * 4 / bench(lambda: torch.sum(x)) / 1e6,
        }
    )


def sweep_softmax(results: list) -> None:
    module = load("softmax", "v3_tuned_rows")
    for rows, cols in [(8192, 8192), (262144, 256)]:
        x = torch.randn(rows, cols, device="cuda")
        y = torch.empty_like(x)
        block_cols = triton.next_power_of_2(cols)
        for rows_per, warps in itertools.product([1, 2, 4, 8, 16, 32], [2, 4, 8, 16, 32]):
            if rows_per * block_cols > 65536 or rows_per * block_cols < 256:
                continue
            grid = (triton.cdiv(rows, rows_per),)
            try:
                ms = bench(
                    lambda: module.rows_in_registers_kernel[grid](
                        x, y, rows, cols, ROWS=rows_per, BLOCK_COLS=block_cols, num_warps=warps
                    )
                )
            except Exception as error:  # noqa: BLE001
                results.append(
                    {
                        "drill": "softmax",
                        "shape": [rows, cols],
                        "config": [rows_per, warps],
                        "error": str(error)[:100],
                    }
                )
                continue
            results.append(
                {
                    "drill": "softmax",
                    "shape": [rows, cols],
                    "config": {"ROWS": rows_per, "num_warps": warps},
                    "ms": ms,
                    "gbps": 2 * x.numel() * 4 / ms / 1e6,
                }
            )
        ms = bench(lambda: torch.softmax(x, -1))
        results.append(
            {
                "drill": "softmax",
                "shape": [rows, cols],
                "config": "torch.softmax",
                "ms": ms,
                "gbps": 2 * x.numel() * 4 / ms / 1e6,
            }
        )


def sweep_transpose(results: list) -> None:
    module = load("transpose", "v1_tiles_64x128_grouped")
    rows = cols = 8192
    x = torch.randn(rows, cols, device="cuda")
    y = torch.empty(cols, rows, device="cuda")
    for (tr, tc), warps, group in itertools.product(
        [(32, 32), (64, 64), (64, 128), (128, 64), (128, 128), (32, 128), (128, 32)],
        [4, 8, 16],
        [1, 4, 8, 32],
    ):
        grid = (triton.cdiv(rows, tr) * triton.cdiv(cols, tc),)
        try:
            ms = bench(
                lambda: module.transpose_kernel[grid](
                    x, y, rows, cols, TILE_R=tr, TILE_C=tc, GROUP=group, num_warps=warps
                )
            )
        except Exception as error:  # noqa: BLE001
            results.append(
                {"drill": "transpose", "config": [tr, tc, warps, group], "error": str(error)[:100]}
            )
            continue
        results.append(
            {
                "drill": "transpose",
                "config": {"TILE_R": tr, "TILE_C": tc, "num_warps": warps, "GROUP": group},
                "ms": ms,
                "gbps": 2 * x.numel() * 4 / ms / 1e6,
            }
        )
    ms = bench(lambda: x.t().contiguous())
    results.append(
        {"drill": "transpose", "config": "torch", "ms": ms, "gbps": 2 * x.numel() * 4 / ms / 1e6}
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path)
    parser.add_argument("--drills", nargs="*", default=["reduction", "softmax", "transpose"])
    args = parser.parse_args()
    src = torch.randn(2**28, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = bench(lambda: dst.copy_(src))
    results: list = [
        {"drill": "copy", "config": "1 GiB", "ms": copy_ms, "gbps": 2 * 2**28 * 4 / copy_ms / 1e6}
    ]
    src = dst = None  # free 2 GiB before the sweeps
    for drill in args.drills:
        globals()[f"sweep_{drill}"](results)
    ok = [r for r in results if "ms" in r]
    for key in sorted({(r["drill"], str(r.get("shape", ""))) for r in ok}):
        rows = sorted(
            (r for r in ok if (r["drill"], str(r.get("shape", ""))) == key), key=lambda r: r["ms"]
        )
        print(f"== {key[0]} {key[1]}")
        for r in rows[:8] + [r for r in rows if isinstance(r["config"], str)]:
            print(f"  {r['ms']:.4f} ms  {r['gbps']:.0f} GB/s  {r['config']}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
