"""v1_cuda_naive: CUDA track, first rung: one thread per output, fp32 FMAs straight from global memory.

What it is: a 16 x 16 block of threads computes a 16 x 16 patch of c; thread (x, y) owns
c[m, n] with n along threadIdx.x, so the 16 threads of a half-warp read 16 consecutive
elements of a row of b (coalesced) and all read the same a[m, k] (a broadcast). Each thread
walks K, converting both bf16 operands to fp32 and accumulating with one FMA per k; the sum
is rounded to bf16 once, at the end.

bf16 is handled as its raw 16 bits (the upper half of an fp32): widening is a shift, and the
final rounding (to nearest, ties to even) is a few integer instructions. This needs no
cuda_bf16.h, so the kernel compiles under any NVRTC include setup and runs in the tests' CPU
emulator unchanged.

Why it is slow: every FMA needs two global loads (L1/L2 hits mostly), so the kernel is bound
by the load/store unit at well under 1 FLOP per byte requested, and the tensor cores are idle.
Mapping threadIdx.x to m instead (the classic first mistake) makes a warp's b loads one
element each of 32 different rows and is several times slower again.

What an interviewer wants to hear: which index goes on threadIdx.x and why (coalescing on b,
a broadcast on a), the arithmetic intensity of one thread's loop (2 FLOPs per 4 bytes
loaded), that fp32 accumulation is required for bf16 inputs, and that each element of a and b
is fetched N and M times: the reason for tiling in shared memory, the next rung.
"""

import cupy
import torch

SOURCE = r"""
// bf16 as raw bits: widen by a shift; narrow with round-to-nearest-even (NaN stays NaN).
__device__ __forceinline__ float bf16_to_float(unsigned short h) {
    return __int_as_float((int)((unsigned)h << 16));
}
__device__ __forceinline__ unsigned short float_to_bf16(float f) {
    union { float f; unsigned u; } bits;
    bits.f = f;
    if ((bits.u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((bits.u >> 16) | 0x40u);
    bits.u += 0x7fffu + ((bits.u >> 16) & 1u);
    return (unsigned short)(bits.u >> 16);
}

// a: (M, K), b: (K, N), c: (M, N), bf16 bits, row-major. Launch with 16 x 16 threads and a
// grid of (ceil(N / 16), ceil(M / 16)); thread (x, y) of block (bx, by) owns c[by*16 + y, bx*16 + x].
extern "C" __global__ void __launch_bounds__(256)
matmul_naive(const unsigned short* __restrict__ a, const unsigned short* __restrict__ b,
             unsigned short* __restrict__ c, int M, int N, int K) {
    const int n = blockIdx.x * blockDim.x + threadIdx.x;   // along a row of b: coalesced
    const int m = blockIdx.y * blockDim.y + threadIdx.y;
    if (m >= M || n >= N) return;
    const unsigned short* a_row = a + (long long)m * K;
    float acc = 0.0f;                                      // fp32: bf16 would stall on long K
    for (int k = 0; k < K; ++k)
        acc += bf16_to_float(a_row[k]) * bf16_to_float(b[(long long)k * N + n]);
    c[(long long)m * N + n] = float_to_bf16(acc);
}
"""
_kernel = cupy.RawKernel(SOURCE, "matmul_naive")
THREADS = 16


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    # Launch on torch's current stream, so torch's ordering and the harness's events see it.
    stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
    with stream:
        _kernel(
            ((N + THREADS - 1) // THREADS, (M + THREADS - 1) // THREADS),
            (THREADS, THREADS),
            (
                cupy.uint64(a.data_ptr()),
                cupy.uint64(b.data_ptr()),
                cupy.uint64(c.data_ptr()),
                cupy.int32(M),
                cupy.int32(N),
                cupy.int32(K),
            ),
        )
    return c
