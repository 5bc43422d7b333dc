"""Calls torch.sum inside the grid callable it hands to Triton: Triton calls the grid from its
launcher, so a guard that exempted every op with a Triton frame anywhere on the stack would let it
through. Only Triton's code as the nearest caller is exempt.

Expected verdict: rejected
Expected message: aten::sum
"""

import triton
import triton.language as tl


@triton.jit
def noop_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass


def reduce_sum(x):
    box = []

    def grid(meta):
        box.append(x.sum())
        return (1,)

    noop_kernel[grid](x, x.numel(), BLOCK=16)
    return box[0]
