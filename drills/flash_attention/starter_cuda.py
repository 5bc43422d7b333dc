"""Starter for the flash_attention drill (CUDA C through CuPy): correct, one query row per block, slow.

Block (row, batch x head) of 128 threads: each thread scores one key of a 128-key tile (a
float32 dot product over D), the block reduces the tile's max and sum in shared memory, and
thread d keeps output column d with the online softmax (acc and l rescaled by exp(m_old -
m_new) when the max moves). Causal stops at key = row. bfloat16 is read and written as raw
16-bit patterns (NVRTC needs no header for that). D is at most 128. Needs a CUDA GPU and CuPy.
Ideas: a tile of queries per block so each K/V load serves many rows, K and V tiles staged in
shared memory with coalesced loads, warp shuffles for the reductions, tensor cores (mma.sync
through WMMA) for Q K^T and P V.
"""

import cupy
import torch

THREADS = 128
SOURCE = r"""
#define TILE 128      // keys per step: one per thread
#define MAX_DIM 128

__device__ float bf16_to_float(unsigned short bits) { return __int_as_float((int)((unsigned int)bits << 16)); }

__device__ unsigned short float_to_bf16(float x) {  // round to nearest even
    union { float f; unsigned int u; } pun;
    pun.f = x;
    unsigned int bits = pun.u;
    if ((bits & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;  // NaN stays NaN
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return (unsigned short)(bits >> 16);
}

// q, k, v, o: (B, H, S, D) bfloat16, contiguous. Grid (S, B * H), block TILE threads.
// seq_len: S; head_dim: D <= MAX_DIM; causal: 0 or 1.
extern "C" __global__ void __launch_bounds__(TILE) attention_rows(
    const unsigned short* __restrict__ q, const unsigned short* __restrict__ k,
    const unsigned short* __restrict__ v, unsigned short* __restrict__ o,
    int seq_len, int head_dim, int causal) {
    __shared__ float q_row[MAX_DIM];
    __shared__ float p[TILE];
    __shared__ float scratch[TILE];
    const int row = blockIdx.x;
    const int t = threadIdx.x;
    const long long base = (long long)blockIdx.y * seq_len * head_dim;
    for (int d = t; d < head_dim; d += TILE) q_row[d] = bf16_to_float(q[base + (long long)row * head_dim + d]);
    __syncthreads();
    const float scale = 1.0f / sqrtf((float)head_dim);
    const float neg_inf = __int_as_float(0xff800000);  // NVRTC has no INFINITY macro
    const int end = causal ? row + 1 : seq_len;
    float m = neg_inf, row_sum = 0.0f, acc = 0.0f;
    for (int start = 0; start < end; start += TILE) {
        const int j = start + t;
        float s = neg_inf;
        if (j < end) {
            float dot = 0.0f;
            const unsigned short* k_row = k + base + (long long)j * head_dim;
            for (int d = 0; d < head_dim; ++d) dot += q_row[d] * bf16_to_float(k_row[d]);
            s = dot * scale;
        }
        scratch[t] = s;
        __syncthreads();
        for (int stride = TILE / 2; stride > 0; stride /= 2) {
            if (t < stride) scratch[t] = fmaxf(scratch[t], scratch[t + stride]);
            __syncthreads();
        }
        const float m_new = fmaxf(m, scratch[0]);  // key `start` is visible: finite
        __syncthreads();
        const float e = j < end ? expf(s - m_new) : 0.0f;
        p[t] = e;
        scratch[t] = e;
        __syncthreads();
        for (int stride = TILE / 2; stride > 0; stride /= 2) {
            if (t < stride) scratch[t] += scratch[t + stride];
            __syncthreads();
        }
        const float alpha = expf(m - m_new);
        row_sum = row_sum * alpha + scratch[0];
        if (t < head_dim) {
            float a = acc * alpha;
            const int keys = end - start < TILE ? end - start : TILE;
            for (int jj = 0; jj < keys; ++jj)
                a += p[jj] * bf16_to_float(v[base + (long long)(start + jj) * head_dim + t]);
            acc = a;
        }
        m = m_new;
        __syncthreads();
    }
    if (t < head_dim) o[base + (long long)row * head_dim + t] = float_to_bf16(acc / row_sum);
}
"""
_kernel = cupy.RawKernel(SOURCE, "attention_rows")


def attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False
) -> torch.Tensor:
    batch, heads, seq_len, head_dim = q.shape
    if head_dim > 128:
        raise ValueError(f"this starter handles D <= 128, got D = {head_dim}")
    out = torch.empty_like(q)
    stream = cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
    with stream:
        _kernel(
            (seq_len, batch * heads),
            (THREADS,),
            (
                cupy.uint64(q.data_ptr()),
                cupy.uint64(k.data_ptr()),
                cupy.uint64(v.data_ptr()),
                cupy.uint64(out.data_ptr()),
                cupy.int32(seq_len),
                cupy.int32(head_dim),
                cupy.int32(1 if causal else 0),
            ),
        )
    return out
