"""Tune softmax v3's constants on a GPU: each variant is v3 with one constant changed, timed by the
harness (fresh inputs, L2 flushed, checked) beside v3 itself and torch.softmax on every benchmark shape.

    python benchmarks/softmax_variants.py --out DIR     (needs a CUDA GPU; about a minute)

Prints one table per shape, fastest first; writes DIR/softmax-variants-<date>.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import tempfile
from pathlib import Path

#: (variant name, constant, value): one change from v3 each.
VARIANTS = [
    ("rows_4096", "ROW_BLOCK_ELEMENTS", 4096),
    ("rows_8192", "ROW_BLOCK_ELEMENTS", 8192),
    ("rows_16384", "ROW_BLOCK_ELEMENTS", 16384),
    ("split_4_per_sm", "SPLIT_PROGRAMS_PER_SM", 4),
    ("split_16_per_sm", "SPLIT_PROGRAMS_PER_SM", 16),
    ("split_32_per_sm", "SPLIT_PROGRAMS_PER_SM", 32),
    ("chunk_2048", "SPLIT_CHUNK", 2048),
    ("chunk_8192", "SPLIT_CHUNK", 8192),
    ("split_warps_4", "SPLIT_WARPS", 4),
    ("split_warps_16", "SPLIT_WARPS", 16),
]


def write_variants(source: str, folder: Path) -> list[dict]:
    kernels = []
    for name, constant, value in VARIANTS:
        text, count = re.subn(rf"^{constant} = .*$", f"{constant} = {value}", source, flags=re.M)
        if count != 1:
            raise SystemExit(f"v3_tuned_rows.py has no single `{constant} = ...` line")
        path = folder / f"{name}.py"
        path.write_text(text, encoding="utf-8")
        kernels.append({"name": name, "path": str(path), "role": "rung", "language": "triton"})
    return kernels


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--budget", type=float, default=0.3)
    args = parser.parse_args()

    from gpuprep.bank.loader import load_bank
    from gpuprep.harness.api import bench

    bank, _ = load_bank()
    drill = bank.drills["softmax"]
    kernels_dir = bank.kernels_ref_dir("softmax")
    source = (kernels_dir / "v3_tuned_rows.py").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        extra = write_variants(source, Path(folder))
        result = bench(
            drill, kernels_dir, extra_kernels=extra, timing={"budget_s": args.budget}, timeout_s=500
        ).to_json()
    rows = [r for r in [*result["rungs"], result["vendor"]] if r and r["name"] != "v0_three_pass"]
    rows = [r for r in rows if r["name"] not in ("v1_online", "v2_fused_loops")]
    copy = result.get("copy") or {}
    lines = [
        f"softmax variants on {result['device'].get('name')} (copy {copy.get('gbps') or 0:.0f} GB/s)"
    ]
    for index, shape in enumerate(drill.bench_shapes):
        timed = [
            (r["name"], r["shapes"][index])
            for r in rows
            if len(r.get("shapes") or []) > index and r["shapes"][index].get("median_ms")
        ]
        failed = [r["name"] for r in rows if r["status"] != "passed"]
        lines.append(f"-- {shape.label}: {shape.dims}" + (f" (failed: {failed})" if failed else ""))
        for name, figures in sorted(timed, key=lambda item: item[1]["median_ms"]):
            pct = (figures.get("pct_of_peak") or {}).get("copy_this_run") or 0
            lines.append(
                f"{name:<18} {figures['median_ms']:.4f} ms {figures['gbps']:6.0f} GB/s {pct:4.0f}%"
            )
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC)
    path = args.out / f"softmax-variants-{stamp:%Y-%m-%d}.json"
    path.write_text(json.dumps(result, indent=1, default=str))
    print("\n".join(lines))
    print(f"wrote {path}")
    return 0 if result["problem"] == "" else 1


if __name__ == "__main__":
    raise SystemExit(main())
