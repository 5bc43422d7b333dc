"""Time every rung of the all_reduce ladder beside dist.all_reduce (NCCL) on the GPUs present.

For each rung, one judge run on N ranks (one per GPU, NCCL, NCCL_NVLS_ENABLE=0): the
correctness sizes are checked first, then 256 MiB and 1 GiB in fp32 and bf16 are timed, and
dist.all_reduce is timed in the same ranks on the same tensors. Prints busbw (nccl-tests'
convention: bytes / time x 2(N-1)/N) and the rung's share of NCCL's, and writes the JSON under
$OUT (when set) or benchmarks/results/. Target: the top rung at 0.8x NCCL or better.

    python benchmarks/allreduce_gpu.py               # on a 2+ GPU machine
    python benchmarks/allreduce_gpu.py --cpu --ranks 4 --small   # a smoke run with gloo

Imports the judge side only (torch and the stdlib): the GPU machine may have no pydantic.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
os.environ.setdefault("NCCL_NVLS_ENABLE", "0")

from gpuprep.collective.judge import judge  # noqa: E402
from gpuprep.collective.protocol import CaseSpec, Request  # noqa: E402

LADDER = ROOT / "kernels_ref" / "all_reduce"
#: The same as drills/all_reduce/collective.yaml (read without yaml here): checked sizes.
CHECKED = [(1, "float32"), (3, "float32"), (100003, "float32"), (4099, "bfloat16")]
#: Timed sizes: (label, bytes).
TIMED = [("256 MiB", 256 << 20), ("1 GiB", 1 << 30)]
SMALL = [("4 MiB", 4 << 20)]
TOLERANCE = {"float32": 2.0**-23, "bfloat16": 2.0**-8}
FORBIDDEN = [
    "all_reduce",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "all_gather",
    "all_gather_into_tensor",
    "broadcast",
    "reduce",
    "all_to_all",
]


def gpu_count() -> int:
    """GPUs, asked of a child process: the ranks are forked from this one, which must not
    open CUDA first."""
    import subprocess

    probe = "import torch; print(torch.cuda.device_count() if torch.cuda.is_available() else 0)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return int(done.stdout.strip() or 0)


def request_for(file: Path, ranks: int, device: str, sizes, iters: int) -> Request:
    cases: list[CaseSpec] = [
        {"label": f"check {n}", "numel": n, "dtype": d, "check": True, "timed": False}
        for n, d in CHECKED
    ]
    for dtype, width in (("float32", 4), ("bfloat16", 2)):
        cases += [
            {"label": label, "numel": size // width, "dtype": dtype, "check": False, "timed": True}
            for label, size in sizes
        ]
    return {
        "file": str(file),
        "entry": "all_reduce",
        "ranks": ranks,
        "device": device,
        "cases": cases,
        "tolerance": TOLERANCE,
        "forbidden": FORBIDDEN,
        "case_timeout_s": 120.0,
        "startup_timeout_s": 300.0,
        "warmup": 3,
        "iters": iters,
        "vendor": True,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=None, help="default: every GPU present")
    parser.add_argument("--cpu", action="store_true", help="gloo ranks on the CPU (smoke run)")
    parser.add_argument("--small", action="store_true", help="time 4 MiB instead of 256 MiB/1 GiB")
    parser.add_argument("--iters", type=int, default=10)
    parser.add_argument("--rungs", nargs="*", default=None, help="rung names (default: all)")
    args = parser.parse_args()

    gpus = 0 if args.cpu else gpu_count()
    device = "cuda" if gpus else "cpu"
    ranks = args.ranks or (gpus if gpus else 4)
    if device == "cuda" and gpus < 2:
        sys.exit(f"needs 2+ GPUs, found {gpus}; --cpu runs gloo ranks instead")
    rungs = sorted(LADDER.glob("v*.py"))
    if args.rungs:
        rungs = [r for r in rungs if r.stem in args.rungs]
    sizes = SMALL if args.small or device == "cpu" else TIMED

    runs = {}
    for rung in rungs:
        print(f"{rung.stem} on {ranks} {device} ranks...", file=sys.stderr, flush=True)
        runs[rung.stem] = judge(request_for(rung, ranks, device, sizes, args.iters))

    rows = []
    print(f"\nall_reduce ladder on {next(iter(runs.values()))['device']}, {ranks} ranks")
    print(
        f"{'rung':28} {'size':>8} {'dtype':>9} {'ms':>9} {'busbw':>8} {'NCCL ms':>9} "
        f"{'NCCL bus':>9} {'share':>6}"
    )
    for name, report in runs.items():
        if report["status"] != "passed":
            print(f"{name:28} {report['status'].upper()}: {report['message']}")
        for case in report["cases"]:
            if not case.get("median_ms"):
                continue
            row = {
                "rung": name,
                **{
                    k: case.get(k)
                    for k in (
                        "label",
                        "dtype",
                        "bytes",
                        "median_ms",
                        "algbw_gbps",
                        "busbw_gbps",
                        "vendor_ms",
                        "vendor_busbw_gbps",
                        "share_of_vendor",
                    )
                },
            }
            rows.append(row)
            print(
                f"{name:28} {case['label']:>8} {case['dtype']:>9} {case['median_ms']:9.3f} "
                f"{case['busbw_gbps']:8.1f} {case['vendor_ms']:9.3f} "
                f"{case['vendor_busbw_gbps']:9.1f} {case['share_of_vendor']:6.2f}"
            )
    top = rungs[-1].stem if rungs else None
    shares = [r["share_of_vendor"] for r in rows if r["rung"] == top]
    if shares:
        print(f"\n{top}: worst share of NCCL busbw {min(shares):.2f}x (target >= 0.80x)")

    out = Path(os.environ["OUT"]) if os.environ.get("OUT") else ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d-%H%M")
    path = out / f"allreduce-{stamp}-{device}-{ranks}ranks.json"
    path.write_text(
        json.dumps(
            {
                "ranks": ranks,
                "device": device,
                "rows": rows,
                "reports": runs,
                "nccl_nvls_enable": os.environ.get("NCCL_NVLS_ENABLE"),
            },
            indent=1,
        )
    )
    print(f"wrote {path}", file=sys.stderr)
    failed = [name for name, report in runs.items() if report["status"] != "passed"]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
