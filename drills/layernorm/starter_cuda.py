"""Starter for the layernorm drill (CUDA C through CuPy): correct, one block per row, three passes.

256 threads per row: a shared-memory tree for the sum (the mean), another for the sum of squared
deviations from it (the biased variance: never E[x^2] - E[x]^2, which cancels in float32 when the
mean is large), then a loop that normalises. The kernel works in float32; bfloat16 inputs are
converted at the edges (extra passes over memory: a first thing to remove). Needs a CUDA GPU and
CuPy. Ideas: read bfloat16 in the kernel, warp shuffles for the reductions, float4 loads, the
whole row in registers when it fits, several narrow rows per block.
"""

import cupy
import torch

THREADS = 256
SOURCE = r"""
__device__ float block_sum(float value, float* scratch) {
    // Every thread of the block (256) calls this; the total comes back to all of them.
    scratch[threadIdx.x] = value;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
        __syncthreads();
    }
    float total = scratch[0];
    __syncthreads();
    return total;
}

extern "C" __global__ void layernorm_rows(const float* __restrict__ x, const float* __restrict__ weight,
                                          const float* __restrict__ bias, float* __restrict__ y,
                                          int cols, float eps) {
    // One block of 256 threads per row (blockIdx.x); x and y are (rows, cols) row-major.
    __shared__ float scratch[256];
    const float* row = x + (long long)blockIdx.x * cols;
    float* out = y + (long long)blockIdx.x * cols;
    float partial = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) partial += row[c];
    float mean = block_sum(partial, scratch) / cols;
    partial = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float centred = row[c] - mean;
        partial += centred * centred;
    }
    float rstd = 1.0f / sqrtf(block_sum(partial, scratch) / cols + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = (row[c] - mean) * rstd * weight[c] + bias[c];
}
"""
_kernel = cupy.RawKernel(SOURCE, "layernorm_rows")


def layernorm(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float
) -> torch.Tensor:
    rows, cols = x.shape
    wide = x.dtype != torch.float32
    x32, w32, b32 = (t.float() if wide else t for t in (x, weight, bias))
    y = torch.empty_like(x32)
    stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
    with stream:
        _kernel(
            (rows,),
            (THREADS,),
            (
                cupy.uint64(x32.data_ptr()),
                cupy.uint64(w32.data_ptr()),
                cupy.uint64(b32.data_ptr()),
                cupy.uint64(y.data_ptr()),
                cupy.int32(cols),
                cupy.float32(eps),
            ),
        )
    return y.to(x.dtype) if wide else y
