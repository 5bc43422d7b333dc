"""Starter for the scan drill (CUDA C through CuPy): correct, one block, Hillis-Steele in shared memory.

One block of 256 threads walks x in chunks of 256: each chunk is scanned in shared memory in
log2(256) = 8 doubling steps (each thread reads the element `stride` before its own, the block
syncs, then writes: reading and writing in the same step would race), the running total of the
earlier chunks is added, and thread 255 carries the chunk's last value forward. One block uses
one SM of the GPU's hundred-odd. Needs a CUDA GPU and CuPy. Ideas: one block per chunk and a
second pass for the carries, a work-efficient scan per thread (several elements each, then warp
shuffles: __shfl_up_sync), reduce-then-scan, and a single pass with decoupled look-back.
"""

import cupy
import torch

THREADS = 256
SOURCE = r"""
extern "C" __global__ void one_block_scan(const float* __restrict__ x, float* __restrict__ y, long long n) {
    __shared__ float chunk[256];   // launched with 256 threads: one element each
    __shared__ float carry;        // sum of every chunk before this one
    if (threadIdx.x == 0) carry = 0.0f;
    for (long long start = 0; start < n; start += blockDim.x) {
        long long i = start + threadIdx.x;
        chunk[threadIdx.x] = i < n ? x[i] : 0.0f;
        __syncthreads();
        for (int stride = 1; stride < blockDim.x; stride *= 2) {
            float earlier = threadIdx.x >= stride ? chunk[threadIdx.x - stride] : 0.0f;
            __syncthreads();
            chunk[threadIdx.x] += earlier;
            __syncthreads();
        }
        float value = chunk[threadIdx.x] + carry;
        if (i < n) y[i] = value;
        __syncthreads();   // everyone has read carry before thread 255 moves it
        if (threadIdx.x == blockDim.x - 1) carry = value;
        __syncthreads();
    }
}
"""
_kernel = cupy.RawKernel(SOURCE, "one_block_scan")


def cumsum(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
    with stream:
        _kernel(
            (1,),
            (THREADS,),
            (cupy.uint64(x.data_ptr()), cupy.uint64(y.data_ptr()), cupy.int64(x.numel())),
        )
    return y
