"""Where does scan's decoupled look-back (kernels_ref/scan/v3) lose its 0.5 ms at 2^28 floats?

v3 is 0.62x torch.cumsum on the H200 while its frontier model predicts ~0.1 ms of look-back
(its docstring). This aid times, in one run at the headline size, the same kernel with parts
switched off, beside the floors they should approach, so one device call separates the causes:

- copy:            y = x in tiles (the 2n floor),
- tile cumsum:     each tile scanned with tl.cumsum, no carries (the floor with the block scan),
- + ticket:        tiles numbered by the atomic counter (its serialisation),
- + publish:       the aggregate and the inclusive prefix written (the status traffic),
- full look-back:  v3 as it is, over windows and tile shapes (the only variants that are right),
- program_id order: full, but tiles numbered by blockIdx as CUB does (no ticket; run last).

    bash benchmarks/run_on_device.sh python3 benchmarks/scan_lookback_probe.py
    ... python3 benchmarks/scan_lookback_probe.py --sizes 1048576,10000003  (the other shapes)
On a CPU (TRITON_INTERPRET=1) it checks the full variants on small lengths and times nothing.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl

ROOT = Path(__file__).resolve().parents[1]
# constexpr: a jitted function may read a module global only if it is one.
AGGREGATE = tl.constexpr(1)
INCLUSIVE = tl.constexpr(2)


@triton.jit
def _state(flag, value):
    bits = value.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
    return (flag.to(tl.int64) << 32) | bits


@triton.jit
def probe_kernel(
    x_ptr,
    y_ptr,
    status_ptr,
    ticket_ptr,
    n,
    BLOCK: tl.constexpr,
    WINDOW: tl.constexpr,
    SCAN: tl.constexpr,
    TICKET: tl.constexpr,
    PUBLISH: tl.constexpr,
    LOOKBACK: tl.constexpr,
):
    if TICKET:
        tile = tl.atomic_add(ticket_ptr, 1).to(tl.int64)
    else:
        tile = tl.program_id(0).to(tl.int64)
    offsets = tile * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    carry = 0.0
    if SCAN:
        total = tl.sum(x, axis=0)
        if PUBLISH and tile > 0:
            tl.atomic_xchg(status_ptr + tile, _state(tl.full([], AGGREGATE, tl.int32), total))
        local = tl.cumsum(x, axis=0)
        if LOOKBACK and tile > 0:
            end = tile
            looking = True
            while looking:
                index = end - WINDOW + tl.arange(0, WINDOW)
                words = tl.load(
                    status_ptr + index, mask=index >= 0, other=INCLUSIVE << 32, volatile=True
                )
                flags = (words >> 32).to(tl.int32)
                values = (words & 0xFFFFFFFF).to(tl.int32).to(tl.float32, bitcast=True)
                ready = tl.min(flags, axis=0) > 0
                newest = tl.max(tl.where(flags == INCLUSIVE, index, end - WINDOW - 1), axis=0)
                found = newest >= end - WINDOW
                window_sum = tl.sum(tl.where(index >= newest, values, 0.0), axis=0)
                carry = tl.where(ready, carry + window_sum, carry)
                end = tl.where(ready & (not found), end - WINDOW, end)
                looking = not (ready & found)
        if PUBLISH:
            tl.atomic_xchg(
                status_ptr + tile, _state(tl.full([], INCLUSIVE, tl.int32), carry + total)
            )
        tl.store(y_ptr + offsets, local + carry, mask=mask)
    else:
        tl.store(y_ptr + offsets, x, mask=mask)


def run(x, block, warps, window=256, scan=True, ticket=True, publish=True, lookback=True):
    n = x.numel()
    y = torch.empty_like(x)
    tiles = triton.cdiv(n, block)
    workspace = torch.zeros(tiles + 1, dtype=torch.int64, device=x.device)
    probe_kernel[(tiles,)](
        x, y, workspace, workspace[tiles:], n, BLOCK=block, WINDOW=window, SCAN=scan,
        TICKET=ticket, PUBLISH=publish, LOOKBACK=lookback, num_warps=warps,
    )  # fmt: skip
    return y


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / f"kernels_ref/scan/{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.cumsum


def error(got: torch.Tensor, x: torch.Tensor) -> float:
    want = torch.cumsum(x.double(), 0)
    scale = torch.cumsum(x.double().abs(), 0).clamp_min(1e-30)
    return float(((got.double() - want).abs() / scale).max())


SHAPES = [(4096, 8), (8192, 16), (8192, 8), (16384, 16)]


#: Tile shapes tried where fewer, smaller tiles may shorten the look-back chain (--sizes).
SMALL_SHAPES = [(1024, 4), (2048, 4), (2048, 8), (4096, 4), (4096, 8), (8192, 8)]


def other_sizes(sizes: list[int]) -> int:
    """The full look-back over tile shapes and windows at the drill's other benchmark sizes,
    beside torch.cumsum and v2/v3 (v3's one shape was chosen at 2^28)."""
    print(f"{'n':>10} {'kernel':<30} {'ms':>8} {'vs cumsum':>9} {'error':>6}")
    for n in sizes:
        x = torch.randn(n, device="cuda")
        want_ms = triton.testing.do_bench(lambda x=x: torch.cumsum(x, 0))
        rows = [("torch.cumsum", want_ms, "")]
        for name in ("v2_reduce_then_scan", "v3_decoupled_lookback"):
            fn = load(name)
            ms = triton.testing.do_bench(lambda fn=fn, x=x: fn(x))
            rows.append((name, ms, f"{error(fn(x), x):.0e}"))
        for (block, warps), window in itertools.product(SMALL_SHAPES, (32, 128)):

            def call(x=x, block=block, warps=warps, window=window):
                return run(x, block, warps, window)

            rows.append(
                (f"{block}x{warps}w window {window}", triton.testing.do_bench(call),
                 f"{error(call(), x):.0e}")
            )  # fmt: skip
        for label, ms, err in rows:
            print(f"{n:>10} {label:<30} {ms:8.4f} {want_ms / ms:9.3f} {err:>6}", flush=True)
    return 0


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--sizes":
        return other_sizes([int(value) for value in sys.argv[2].split(",")])
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu":
        for n in (1, 4097, 30001):
            x = torch.randn(n)
            for block, warps in ((1024, 4), (4096, 8)):
                for window, ticket in ((32, True), (256, True), (256, False)):
                    err = error(run(x, block, warps, window, ticket=ticket), x)
                    print(f"n={n} tile={block} window={window} ticket={ticket}: error {err:.1e}")
                    if err > 1e-5:
                        return 1
        return 0
    n = 1 << 28
    x = torch.randn(n, device="cuda")
    copy_ms = triton.testing.do_bench(lambda: torch.empty_like(x).copy_(x))
    rows = [("torch.cumsum", triton.testing.do_bench(lambda: torch.cumsum(x, 0)), "")]
    rows.append(("x.clone() (copy)", copy_ms, ""))
    for name in ("v2_reduce_then_scan", "v3_decoupled_lookback"):
        fn = load(name)
        rows.append((name, triton.testing.do_bench(lambda fn=fn: fn(x)), f"{error(fn(x), x):.0e}"))
    for block, warps in SHAPES:
        parts = [
            (
                "copy in tiles",
                {"scan": False, "ticket": False, "publish": False, "lookback": False},
            ),
            ("tile cumsum", {"ticket": False, "publish": False, "lookback": False}),
            ("+ ticket", {"publish": False, "lookback": False}),
            ("+ publish", {"lookback": False}),
        ]
        parts += [(f"full, window {w}", {"window": w}) for w in (32, 128, 256)]
        for label, options in parts:

            def call(options=options, block=block, warps=warps):
                return run(x, block, warps, **options)

            try:
                ms = triton.testing.do_bench(call)
                err = f"{error(call(), x):.0e}" if "full" in label else ""
                rows.append((f"{block}x{warps}w {label}", ms, err))
            except Exception as failure:  # noqa: BLE001 - a shape that does not compile is a row
                rows.append(
                    (f"{block}x{warps}w {label}: {type(failure).__name__}", float("nan"), "")
                )
    # Last, since it can hang: CUB numbers tiles by blockIdx and relies on blocks starting in
    # index order (true of NVIDIA's dispatch in practice, not promised); no ticket latency.
    for block, warps in SHAPES[:2]:

        def in_order(block=block, warps=warps):
            return run(x, block, warps, ticket=False)

        label = f"{block}x{warps}w full, program_id order"
        try:
            rows.append((label, triton.testing.do_bench(in_order), f"{error(in_order(), x):.0e}"))
        except Exception as failure:  # noqa: BLE001 - as above
            rows.append((f"{label}: {type(failure).__name__}", float("nan"), ""))
    want_ms = rows[0][1]
    print(f"{'kernel':<34} {'ms':>8} {'GB/s':>7} {'vs cumsum':>9} {'error':>6}")
    for label, ms, err in rows:
        gbs = 2 * 4 * n / ms / 1e6
        print(f"{label:<34} {ms:8.4f} {gbs:7.0f} {want_ms / ms:9.3f} {err:>6}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
