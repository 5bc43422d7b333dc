"""v3_decoupled_lookback: one pass, 2n words: each block publishes its total at once, then looks
back over its predecessors' published states for its carry (Merrill and Garland, 2016).

What changed from v2: the three phases become one kernel. A block (1) takes a ticket from an
atomic counter: tickets, not `tl.program_id`, number the tiles, so every tile before ours
belongs to a program that has already started and will finish without waiting on us (blocks are
not scheduled in program-id order, and a block that spins on one not yet resident deadlocks);
(2) loads its tile, publishes the tile's total as an AGGREGATE and scans it with `tl.cumsum`;
(3) looks back WINDOW predecessors at a time: while any of them has published nothing it
re-reads the window; otherwise it adds every value from the newest INCLUSIVE prefix in the
window onwards (that prefix already counts everything before it), and moves one window further
back only if there is none; (4) publishes its own INCLUSIVE prefix and writes y. Flag and value
share one 64-bit word (flag in the high half, the float's bits in the low half), written by one
atomic exchange and read by volatile loads that skip L1: a reader sees a whole state or none,
so no fence is needed between a value and its flag. The status words and the ticket counter
are one zeroed workspace per call (one small memset).

Why it is faster: x is read once and y written once, the 2n minimum, against v2's 3n. But the
traffic is only half the story; the other half is how many tiles are in flight. A tile holds its
SM slot from its ticket until its look-back finds an INCLUSIVE prefix, and by Little's law the
throughput is the resident tiles over that latency: the shape of a tile decides both. Measured
on an H200 at 2^28 floats, each part switched on in turn (benchmarks/scan_lookback_probe.py,
benchmarks/results/session13-2026-12-01-h200/scan-lookback-probe.log; torch.cumsum 0.850 ms,
a copy 0.508):

    tile x warps   copy    +cumsum  +ticket  +publish  full (window 32 / 128 / 256)
    4096 x 8       0.534   0.526    0.534    0.619     0.991 / 0.784 / 0.802 ms
    8192 x 16      0.529   0.528    0.616    0.788     1.357 / 1.364 / 1.361 ms

The 16-warp tile (an earlier version of this rung, 0.62x torch.cumsum) pays for everything that
waits: the ticket atomic, the publish, and above all the look-back, whose three block-wide
reductions each synchronise 16 warps through shared memory, while fewer such tiles fit on an SM
to hide it. 8-warp tiles of 4096 floats hide the same work behind more tiles in flight: 0.784 ms
with a 128-tile window, 1.08x torch.cumsum and 1.07x v2 (0.838 ms). A 32-tile window is too
short (the frontier of finished tiles advances at most a window per round trip: 65536 tiles in
2048 rounds); 256 reads more status words per round for no fewer rounds. Numbering tiles by
program id, as CUB does, was 8% faster still (0.724 ms: no ticket) but relies on blocks starting
in index order, which CUDA does not promise; the ticket is the portable form.

What an interviewer wants to hear: why a single pass needs communication between blocks, the
three states (not ready, aggregate, inclusive prefix) and why the aggregate is published before
the look-back (successors need not wait for our whole chain: the look-back is decoupled from the
predecessor's own), why tickets (forward progress: a spin-wait on a block that has not started
is a deadlock), memory ordering (a flag visible before its value is the classic bug; one 64-bit
word avoids it), the two rates above (tiles in flight over the look-back latency, and the
frontier's window per round trip, against bytes over bandwidth), and the error: carries are
added in a chain of up to n / 4096 steps, each rounding like any fp32 addition. In Triton's
interpreter programs run one after another, so every predecessor is done when a block looks
back: the interpreter checks the arithmetic, not the concurrency (tests/harness/
test_scan_ladder.py stages a mid-flight workspace for the walk).
"""

import torch
import triton
import triton.language as tl

#: (elements per tile, warps) and the look-back window, chosen from the table above.
TILE = (4096, 8)
WINDOW = 128
AGGREGATE = 1
INCLUSIVE = 2


@triton.jit
def _state(flag, value):
    """One 64-bit status word: the flag in the high 32 bits, the float's bits in the low 32."""
    bits = value.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
    return (flag.to(tl.int64) << 32) | bits


@triton.jit
def lookback_scan_kernel(
    x_ptr,
    y_ptr,
    status_ptr,
    ticket_ptr,
    n,
    BLOCK: tl.constexpr,
    WINDOW: tl.constexpr,
    AGGREGATE: tl.constexpr,
    INCLUSIVE: tl.constexpr,
):
    """x_ptr, y_ptr: n inputs and outputs; status_ptr: one zeroed 64-bit state per tile;
    ticket_ptr: a zeroed counter handing out tile numbers in the order programs start."""
    tile = tl.atomic_add(ticket_ptr, 1).to(tl.int64)
    offsets = tile * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    total = tl.sum(x, axis=0)
    carry = 0.0
    if tile > 0:
        tl.atomic_xchg(status_ptr + tile, _state(tl.full([], AGGREGATE, tl.int32), total))
    local = tl.cumsum(x, axis=0)
    if tile > 0:
        end = tile  # the window is the WINDOW tiles before `end`
        looking = True
        while looking:
            index = end - WINDOW + tl.arange(0, WINDOW)
            words = tl.load(
                status_ptr + index, mask=index >= 0, other=INCLUSIVE << 32, volatile=True
            )
            flags = (words >> 32).to(tl.int32)
            values = (words & 0xFFFFFFFF).to(tl.int32).to(tl.float32, bitcast=True)
            ready = tl.min(flags, axis=0) > 0
            newest_inclusive = tl.max(tl.where(flags == INCLUSIVE, index, end - WINDOW - 1), axis=0)
            found = newest_inclusive >= end - WINDOW
            window_sum = tl.sum(tl.where(index >= newest_inclusive, values, 0.0), axis=0)
            carry = tl.where(ready, carry + window_sum, carry)
            end = tl.where(ready & (not found), end - WINDOW, end)
            looking = not (ready & found)
    tl.atomic_xchg(status_ptr + tile, _state(tl.full([], INCLUSIVE, tl.int32), carry + total))
    tl.store(y_ptr + offsets, local + carry, mask=mask)


def cumsum(x: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    y = torch.empty_like(x)
    block, warps = TILE
    tiles = triton.cdiv(n, block)
    workspace = torch.zeros(tiles + 1, dtype=torch.int64, device=x.device)
    lookback_scan_kernel[(tiles,)](
        x,
        y,
        workspace,
        workspace[tiles:],
        n,
        BLOCK=block,
        WINDOW=WINDOW,
        AGGREGATE=AGGREGATE,
        INCLUSIVE=INCLUSIVE,
        num_warps=warps,
    )
    return y
