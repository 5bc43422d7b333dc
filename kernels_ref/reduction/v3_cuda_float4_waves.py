"""v3_cuda_float4_waves: CUDA track: many elements per thread through float4 loads, a grid of a few waves.

What changed from v2_cuda_warp_shuffle: a thread no longer owns one element. The grid is sized
to the GPU, not to the data: 8 blocks of 256 threads per SM (2048 threads, a full SM), times a
few waves; each thread walks the array in a grid-stride loop, loading 16-byte float4s, four of
them issued before the first add (64 bytes in flight per thread), into four independent
accumulators. The block then reduces with v2's shuffles and does one atomicAdd: about 4,000
atomics for 1 GiB instead of 2^18. A pointer that is not 16-byte aligned is handled by a
scalar head (at most 3 elements) and the n % 4 tail by a scalar pass, so any length works.

Why: v2 was bound by its atomics and, with one 4-byte load per thread, had only ~8 KB in flight
per SM. Little's law asks for bandwidth x latency, about 4.8 TB/s x ~600 ns = ~3 MB across 132
SMs, ~22 KB per SM; 2048 threads x 64 bytes is 128 KB per SM, comfortably more. The atomics
drop to a few thousand, which cost microseconds.

What it should buy: the bandwidth bound: about the time of reading 1 GiB once (~0.25 ms on an
H200, where a device copy moves ~4.2 TB/s counting read and write), level with torch.sum.

What an interviewer wants to hear: Little's law and bytes in flight; "vectorise and put several
independent loads in flight per thread"; why the grid is sized to the machine (SMs x resident
blocks x a few waves: a grid-stride loop keeps every block's work equal, and a few waves stay
balanced even if fewer blocks fit per SM than assumed); alignment (float4 needs 16-byte
addresses, hence the head); that the order of additions changes the float result (within
n * eps * sum|x|); and the deterministic alternative: per-block partials and a second tiny
pass, or a last-block-done counter, instead of atomics.
"""

import functools

import cupy
import torch

SOURCE = r"""
__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// x: the input, n floats; out: a zeroed float that receives the sum; n: the element count;
// head: how many elements precede x's first 16-byte boundary (0..3, at most n), added one by one.
// Launch with 256 threads per block and any number of blocks (the loop strides by the grid).
extern "C" __global__ void __launch_bounds__(256)
float4_sum(const float* __restrict__ x, float* __restrict__ out, long long n, int head) {
    __shared__ float warp_totals[8];              // 256 threads = 8 warps
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;   // independent chains, no add waits on another

    if (tid < head) a0 += x[tid];                 // scalar head up to the 16-byte boundary
    const float4* v = reinterpret_cast<const float4*>(x + head);
    const long long vectors = (n - head) / 4;     // whole float4s after the head
    long long i = tid;
    for (; i + 3 * threads < vectors; i += 4 * threads) {
        const float4 p = v[i], q = v[i + threads], r = v[i + 2 * threads], s = v[i + 3 * threads];
        a0 += (p.x + p.y) + (p.z + p.w);          // four 16-byte loads issued before these adds
        a1 += (q.x + q.y) + (q.z + q.w);
        a2 += (r.x + r.y) + (r.z + r.w);
        a3 += (s.x + s.y) + (s.z + s.w);
    }
    for (; i < vectors; i += threads) {           // fewer than four strides left
        const float4 p = v[i];
        a0 += (p.x + p.y) + (p.z + p.w);
    }
    const long long tail = head + 4 * vectors;    // at most 3 elements after the last float4
    if (tid < n - tail) a1 += x[tail + tid];

    float total = warp_sum((a0 + a1) + (a2 + a3));
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_totals[warp] = total;
    __syncthreads();
    if (warp == 0) {
        total = warp_sum(lane < 8 ? warp_totals[lane] : 0.0f);
        if (lane == 0) atomicAdd(out, total);     // one atomic per block, ~4k in all
    }
}
"""
_kernel = cupy.RawKernel(SOURCE, "float4_sum")
THREADS = 256
BLOCKS_PER_SM = 2048 // THREADS  # a full SM on Hopper (2048 resident threads)
WAVES = 4


@functools.cache
def _sm_count(device_index: int) -> int:
    return torch.cuda.get_device_properties(device_index).multi_processor_count


def reduce_sum(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    n = x.numel()
    head = min(n, (16 - x.data_ptr() % 16) % 16 // 4)  # fp32 pointers are 4-byte aligned
    blocks = min(_sm_count(x.device.index) * BLOCKS_PER_SM * WAVES, (n + THREADS - 1) // THREADS)
    # Launch on torch's current stream, so torch's ordering and the harness's events see it.
    stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
    with stream:
        _kernel(
            (max(blocks, 1),),
            (THREADS,),
            (
                cupy.uint64(x.data_ptr()),
                cupy.uint64(out.data_ptr()),
                cupy.int64(n),
                cupy.int32(head),
            ),
        )
    return out
