"""A decoupled look-back whose ticket counter is reset too early: the block that draws ticket 0
puts the counter back to 0 "for the next call", while the other blocks are still drawing. On a
GPU, the blocks that draw after the reset get tickets already handed out: they redo tiles that
are done, and the last tiles are never scanned (their outputs are whatever memory held). In
Triton's interpreter, where programs run one after another, every program draws 0. The right
place for the reset is the block that draws the last ticket (or a memset before the launch).

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def _state(flag, value):
    bits = value.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
    return (flag.to(tl.int64) << 32) | bits


@triton.jit
def racy_lookback_kernel(x_ptr, y_ptr, status_ptr, ticket_ptr, n, BLOCK: tl.constexpr):
    tile = tl.atomic_add(ticket_ptr, 1).to(tl.int64)
    if tile == 0:
        tl.atomic_xchg(ticket_ptr, 0)  # the race: others have not all drawn yet
    offsets = tile * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    total = tl.sum(x, axis=0)
    carry = 0.0
    if tile > 0:
        tl.atomic_xchg(status_ptr + tile, _state(tl.full([], 1, tl.int32), total))
        looking = True
        previous = tile - 1
        while looking:
            word = tl.load(status_ptr + previous, volatile=True)
            flag = (word >> 32).to(tl.int32)
            value = (word & 0xFFFFFFFF).to(tl.int32).to(tl.float32, bitcast=True)
            carry = tl.where(flag > 0, carry + value, carry)
            looking = flag != 2
            previous = tl.where(flag == 1, previous - 1, previous)
    tl.atomic_xchg(status_ptr + tile, _state(tl.full([], 2, tl.int32), carry + total))
    tl.store(y_ptr + offsets, tl.cumsum(x, axis=0) + carry, mask=mask)


def cumsum(x):
    n = x.numel()
    y = torch.empty_like(x)
    tiles = triton.cdiv(n, BLOCK)
    workspace = torch.zeros(tiles + 1, dtype=torch.int64, device=x.device)
    racy_lookback_kernel[(tiles,)](x, y, workspace, workspace[tiles:], n, BLOCK=BLOCK)
    return y
