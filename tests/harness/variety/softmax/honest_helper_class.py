"""Row softmax organised around a small helper class that picks the launch parameters and launches
a three-loop kernel (row max, sum of exponentials, normalise), chunk by chunk so any width works.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.jit
def three_loop_softmax(x_ptr, y_ptr, cols, stride, CHUNK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * stride
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    for c in range(0, cols, CHUNK):
        offs = c + tl.arange(0, CHUNK)
        m = tl.maximum(m, tl.load(x_ptr + base + offs, mask=offs < cols, other=float("-inf")).to(tl.float32))
    row_max = tl.max(m, axis=0)
    s = tl.zeros([CHUNK], tl.float32)
    for c in range(0, cols, CHUNK):
        offs = c + tl.arange(0, CHUNK)
        v = tl.load(x_ptr + base + offs, mask=offs < cols, other=float("-inf")).to(tl.float32)
        s += tl.exp(v - row_max)
    inv = 1.0 / tl.sum(s, axis=0)
    for c in range(0, cols, CHUNK):
        offs = c + tl.arange(0, CHUNK)
        keep = offs < cols
        v = tl.load(x_ptr + base + offs, mask=keep, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + base + offs, (tl.exp(v - row_max) * inv).to(y_ptr.dtype.element_ty), mask=keep)


class RowSoftmax:
    """Chooses the chunk from the row width and launches one program per row."""

    def __init__(self, max_chunk: int = 4096):
        self.max_chunk = max_chunk

    def chunk_for(self, cols: int) -> int:
        return min(triton.next_power_of_2(cols), self.max_chunk)

    def warps_for(self, chunk: int) -> int:
        return 8 if chunk >= 2048 else 4

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        rows, cols = x.shape
        y = torch.empty_like(x)
        chunk = self.chunk_for(cols)
        three_loop_softmax[(rows,)](x, y, cols, x.stride(0), CHUNK=chunk, num_warps=self.warps_for(chunk))
        return y


_impl = RowSoftmax()


def softmax(x):
    return _impl(x)
