extern "C" __global__ void hist_naive(const int* __restrict__ x, unsigned int* __restrict__ h, long long n) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        atomicAdd(&h[x[i]], 1u);
}
extern "C" __global__ void hist_priv(const int* __restrict__ x, unsigned int* __restrict__ h, long long n, int bins) {
    extern __shared__ unsigned int s[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) s[b] = 0u;
    __syncthreads();
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        atomicAdd(&s[x[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&h[b], s[b]);   // one global atomic per bin per block
}
