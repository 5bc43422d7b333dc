// Measurement kernels for the matmul / kernel-patterns / kernel-coding questions (scratch, not shipped).
// ---------------------------------------------------------------- SGEMM ladder (fp32, row-major, sizes multiples of 128)
extern "C" __global__ void sgemm_naive(int M, int N, int K, const float* A, const float* B, float* C) {
    // threadIdx.x runs DOWN a column of C: the 32 lanes of a warp take 32 consecutive rows
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.f;
        for (int k = 0; k < K; ++k) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
        C[(size_t)row * N + col] = acc;
    }
}
extern "C" __global__ void sgemm_coalesced(int M, int N, int K, const float* A, const float* B, float* C) {
    // threadIdx.x runs ALONG a row of C
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.f;
        for (int k = 0; k < K; ++k) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
        C[(size_t)row * N + col] = acc;
    }
}
extern "C" __global__ void sgemm_smem32(int M, int N, int K, const float* A, const float* B, float* C) {
    __shared__ float As[32][32];
    __shared__ float Bs[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += 32) {
        As[ty][tx] = A[(size_t)row * K + k0 + tx];
        Bs[ty][tx] = B[(size_t)(k0 + ty) * N + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(size_t)row * N + col] = acc;
}
extern "C" __global__ void __launch_bounds__(512) sgemm_1d(int M, int N, int K, const float* A, const float* B, float* C) {
    const int BM = 64, BN = 64, BK = 8, TM = 8;
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    const int threadCol = threadIdx.x % BN, threadRow = threadIdx.x / BN;
    A += (size_t)blockIdx.y * BM * K;
    B += (size_t)blockIdx.x * BN;
    C += (size_t)blockIdx.y * BM * N + (size_t)blockIdx.x * BN;
    const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
    const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
    float acc[TM];
#pragma unroll
    for (int i = 0; i < TM; ++i) acc[i] = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        As[innerRowA * BK + innerColA] = A[(size_t)innerRowA * K + innerColA];
        Bs[innerRowB * BN + innerColB] = B[(size_t)innerRowB * N + innerColB];
        __syncthreads();
        A += BK;
        B += (size_t)BK * N;
#pragma unroll
        for (int d = 0; d < BK; ++d) {
            float b = Bs[d * BN + threadCol];
#pragma unroll
            for (int i = 0; i < TM; ++i) acc[i] += As[(threadRow * TM + i) * BK + d] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) C[(size_t)(threadRow * TM + i) * N + threadCol] = acc[i];
}
extern "C" __global__ void __launch_bounds__(256) sgemm_2d(int M, int N, int K, const float* A, const float* B, float* C) {
    const int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    const int threadCol = threadIdx.x % (BN / TN), threadRow = threadIdx.x / (BN / TN);
    A += (size_t)blockIdx.y * BM * K;
    B += (size_t)blockIdx.x * BN;
    C += (size_t)blockIdx.y * BM * N + (size_t)blockIdx.x * BN;
    const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
    const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
    float acc[TM * TN];
#pragma unroll
    for (int i = 0; i < TM * TN; ++i) acc[i] = 0.f;
    float regM[TM], regN[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int o = 0; o < BM; o += 256 / BK) As[(innerRowA + o) * BK + innerColA] = A[(size_t)(innerRowA + o) * K + innerColA];
#pragma unroll
        for (int o = 0; o < BK; o += 256 / BN) Bs[(innerRowB + o) * BN + innerColB] = B[(size_t)(innerRowB + o) * N + innerColB];
        __syncthreads();
        A += BK;
        B += (size_t)BK * N;
#pragma unroll
        for (int d = 0; d < BK; ++d) {
#pragma unroll
            for (int i = 0; i < TM; ++i) regM[i] = As[(threadRow * TM + i) * BK + d];
#pragma unroll
            for (int j = 0; j < TN; ++j) regN[j] = Bs[d * BN + threadCol * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i * TN + j] += regM[i] * regN[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) C[(size_t)(threadRow * TM + i) * N + threadCol * TN + j] = acc[i * TN + j];
}
extern "C" __global__ void __launch_bounds__(256) sgemm_2d_vec(int M, int N, int K, const float* A, const float* B, float* C) {
    // as sgemm_2d, with float4 global loads and A stored transposed in shared memory (As[k][m])
    const int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    __shared__ __align__(16) float As[BK * BM];
    __shared__ __align__(16) float Bs[BK * BN];
    const int threadCol = threadIdx.x % (BN / TN), threadRow = threadIdx.x / (BN / TN);
    A += (size_t)blockIdx.y * BM * K;
    B += (size_t)blockIdx.x * BN;
    C += (size_t)blockIdx.y * BM * N + (size_t)blockIdx.x * BN;
    const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);   // 128 rows x 2 float4
    const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);   // 8 rows x 32 float4
    float acc[TM * TN];
#pragma unroll
    for (int i = 0; i < TM * TN; ++i) acc[i] = 0.f;
    float regM[TM], regN[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        float4 t = *reinterpret_cast<const float4*>(&A[(size_t)innerRowA * K + innerColA * 4]);
        As[(innerColA * 4 + 0) * BM + innerRowA] = t.x;
        As[(innerColA * 4 + 1) * BM + innerRowA] = t.y;
        As[(innerColA * 4 + 2) * BM + innerRowA] = t.z;
        As[(innerColA * 4 + 3) * BM + innerRowA] = t.w;
        *reinterpret_cast<float4*>(&Bs[innerRowB * BN + innerColB * 4]) =
            *reinterpret_cast<const float4*>(&B[(size_t)innerRowB * N + innerColB * 4]);
        __syncthreads();
        A += BK;
        B += (size_t)BK * N;
#pragma unroll
        for (int d = 0; d < BK; ++d) {
#pragma unroll
            for (int i = 0; i < TM; i += 4) *reinterpret_cast<float4*>(&regM[i]) = *reinterpret_cast<const float4*>(&As[d * BM + threadRow * TM + i]);
#pragma unroll
            for (int j = 0; j < TN; j += 4) *reinterpret_cast<float4*>(&regN[j]) = *reinterpret_cast<const float4*>(&Bs[d * BN + threadCol * TN + j]);
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i * TN + j] += regM[i] * regN[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            *reinterpret_cast<float4*>(&C[(size_t)(threadRow * TM + i) * N + threadCol * TN + j]) =
                make_float4(acc[i * TN + j], acc[i * TN + j + 1], acc[i * TN + j + 2], acc[i * TN + j + 3]);
}

// ---------------------------------------------------------------- vector add
extern "C" __global__ void __launch_bounds__(256) add_scalar(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ z, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
}
extern "C" __global__ void __launch_bounds__(256) add_f4_grid_stride(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ z, long long n) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;
    const long long nv = n / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    float4* z4 = reinterpret_cast<float4*>(z);
    for (long long i = tid; i < nv; i += threads) {
        float4 a = x4[i], b = y4[i];
        z4[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
    for (long long i = 4 * nv + tid; i < n; i += threads) z[i] = x[i] + y[i];
}
extern "C" __global__ void __launch_bounds__(256) add_f4_unroll4(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ z, long long n) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;
    const long long nv = n / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    float4* z4 = reinterpret_cast<float4*>(z);
    long long i = tid;
    for (; i + 3 * threads < nv; i += 4 * threads) {
        float4 a0 = x4[i], a1 = x4[i + threads], a2 = x4[i + 2 * threads], a3 = x4[i + 3 * threads];
        float4 b0 = y4[i], b1 = y4[i + threads], b2 = y4[i + 2 * threads], b3 = y4[i + 3 * threads];
        z4[i] = make_float4(a0.x + b0.x, a0.y + b0.y, a0.z + b0.z, a0.w + b0.w);
        z4[i + threads] = make_float4(a1.x + b1.x, a1.y + b1.y, a1.z + b1.z, a1.w + b1.w);
        z4[i + 2 * threads] = make_float4(a2.x + b2.x, a2.y + b2.y, a2.z + b2.z, a2.w + b2.w);
        z4[i + 3 * threads] = make_float4(a3.x + b3.x, a3.y + b3.y, a3.z + b3.z, a3.w + b3.w);
    }
    for (; i < nv; i += threads) {
        float4 a = x4[i], b = y4[i];
        z4[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
    for (long long j = 4 * nv + tid; j < n; j += threads) z[j] = x[j] + y[j];
}

// ---------------------------------------------------------------- deterministic two-stage reduction
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
extern "C" __global__ void __launch_bounds__(256) partial_sums(const float* __restrict__ x, float* __restrict__ partials, long long n) {
    __shared__ float warp_totals[8];
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;
    const long long nv = n / 4;
    const float4* v = reinterpret_cast<const float4*>(x);
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
    long long i = tid;
    for (; i + 3 * threads < nv; i += 4 * threads) {
        float4 p = v[i], q = v[i + threads], r = v[i + 2 * threads], s = v[i + 3 * threads];
        a0 += (p.x + p.y) + (p.z + p.w);
        a1 += (q.x + q.y) + (q.z + q.w);
        a2 += (r.x + r.y) + (r.z + r.w);
        a3 += (s.x + s.y) + (s.z + s.w);
    }
    for (; i < nv; i += threads) { float4 p = v[i]; a0 += (p.x + p.y) + (p.z + p.w); }
    for (long long j = 4 * nv + tid; j < n; j += threads) a1 += x[j];
    float t = warp_sum((a0 + a1) + (a2 + a3));
    if ((threadIdx.x & 31) == 0) warp_totals[threadIdx.x >> 5] = t;
    __syncthreads();
    if (threadIdx.x < 32) {
        t = warp_sum(threadIdx.x < 8 ? warp_totals[threadIdx.x] : 0.f);
        if (threadIdx.x == 0) partials[blockIdx.x] = t;
    }
}
extern "C" __global__ void __launch_bounds__(1024) finish_sum(const float* __restrict__ partials, float* __restrict__ out, int count) {
    __shared__ float warp_totals[32];
    float t = 0.f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) t += partials[i];
    t = warp_sum(t);
    if ((threadIdx.x & 31) == 0) warp_totals[threadIdx.x >> 5] = t;
    __syncthreads();
    if (threadIdx.x < 32) {
        t = warp_sum(threadIdx.x < (blockDim.x >> 5) ? warp_totals[threadIdx.x] : 0.f);
        if (threadIdx.x == 0) *out = t;
    }
}

// ---------------------------------------------------------------- softmax: one warp per row, cols = 256
__device__ __forceinline__ float warp_max_all(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum_all(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__device__ __forceinline__ unsigned short f2bf(float f) {   // round to nearest even (no NaN handling)
    unsigned int u = __float_as_uint(f);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (unsigned short)(u >> 16);
}
extern "C" __global__ void __launch_bounds__(256) softmax_warp_f32(const float* __restrict__ x, float* __restrict__ y, int rows) {
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float4* src = reinterpret_cast<const float4*>(x + (size_t)row * 256) + 2 * lane;
    float4 p = src[0], q = src[1];
    float v[8] = {p.x, p.y, p.z, p.w, q.x, q.y, q.z, q.w};
    float m = v[0];
#pragma unroll
    for (int i = 1; i < 8; ++i) m = fmaxf(m, v[i]);
    m = warp_max_all(m);
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) { v[i] = exp2f((v[i] - m) * 1.4426950408889634f); s += v[i]; }
    const float inv = 1.f / warp_sum_all(s);
    float4* dst = reinterpret_cast<float4*>(y + (size_t)row * 256) + 2 * lane;
    dst[0] = make_float4(v[0] * inv, v[1] * inv, v[2] * inv, v[3] * inv);
    dst[1] = make_float4(v[4] * inv, v[5] * inv, v[6] * inv, v[7] * inv);
}
extern "C" __global__ void __launch_bounds__(256) softmax_warp_bf16(const unsigned short* __restrict__ x, unsigned short* __restrict__ y, int rows) {
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (row >= rows) return;
    const uint4 p = reinterpret_cast<const uint4*>(x + (size_t)row * 256)[lane];   // 8 bf16, 16 bytes
    const unsigned int w[4] = {p.x, p.y, p.z, p.w};
    float v[8];
#pragma unroll
    for (int i = 0; i < 4; ++i) { v[2 * i] = __uint_as_float(w[i] << 16); v[2 * i + 1] = __uint_as_float(w[i] & 0xffff0000u); }
    float m = v[0];
#pragma unroll
    for (int i = 1; i < 8; ++i) m = fmaxf(m, v[i]);
    m = warp_max_all(m);
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) { v[i] = exp2f((v[i] - m) * 1.4426950408889634f); s += v[i]; }
    const float inv = 1.f / warp_sum_all(s);
    unsigned int o[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) o[i] = (unsigned int)f2bf(v[2 * i] * inv) | ((unsigned int)f2bf(v[2 * i + 1] * inv) << 16);
    reinterpret_cast<uint4*>(y + (size_t)row * 256)[lane] = make_uint4(o[0], o[1], o[2], o[3]);
}
