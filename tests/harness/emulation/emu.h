// A CPU stand-in for the few CUDA features the drills' kernels use, so that their logic
// (indices, masks, barriers, shuffles, atomics) can be checked on a machine without a GPU.
// One launch runs blockDim host threads; they walk the blocks one at a time, so `static`
// storage serves as the block's shared memory. Not a model of performance or of memory order.
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

struct uint3_ { unsigned x = 0, y = 0, z = 0; };
struct dim3 { unsigned x = 1, y = 1, z = 1; };
struct float4 { float x, y, z, w; };
thread_local uint3_ threadIdx, blockIdx;
static dim3 blockDim, gridDim;
static std::unique_ptr<std::barrier<>> emu_block_barrier;
static std::vector<std::unique_ptr<std::barrier<>>> emu_warp_barriers;
static std::vector<float> emu_lanes;
static std::mutex emu_atomic;

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __restrict__ __restrict

static inline unsigned emu_linear() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
static inline void __syncthreads() { emu_block_barrier->arrive_and_wait(); }
static inline float __int_as_float(int v) { float f; std::memcpy(&f, &v, 4); return f; }
static inline float atomicAdd(float* address, float value) {
    std::lock_guard<std::mutex> lock(emu_atomic);
    float old = *address;
    *address = old + value;
    return old;
}
static inline float __shfl_down_sync(unsigned, float v, int offset) {
    const unsigned t = emu_linear(), lane = t % 32, base = t - lane;
    auto& warp = *emu_warp_barriers[t / 32];
    emu_lanes[t] = v;
    warp.arrive_and_wait();
    const unsigned source = lane + offset;
    const float got = source < 32 && base + source < emu_lanes.size() ? emu_lanes[base + source] : v;
    warp.arrive_and_wait();
    return got;
}

template <typename Kernel>
static void emu_launch(dim3 grid, dim3 block, Kernel kernel) {
    gridDim = grid;
    blockDim = block;
    const unsigned threads = block.x * block.y * block.z;
    emu_block_barrier = std::make_unique<std::barrier<>>(threads);
    emu_warp_barriers.clear();
    for (unsigned w = 0; w * 32 < threads; ++w)
        emu_warp_barriers.push_back(std::make_unique<std::barrier<>>(std::min(32u, threads - w * 32)));
    emu_lanes.assign(threads, 0.0f);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back([=] {
            threadIdx = {t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
            for (unsigned bz = 0; bz < grid.z; ++bz)
                for (unsigned by = 0; by < grid.y; ++by)
                    for (unsigned bx = 0; bx < grid.x; ++bx) {
                        blockIdx = {bx, by, bz};
                        kernel();
                        emu_block_barrier->arrive_and_wait();  // shared memory is reused next
                    }
        });
    }
    for (auto& thread : pool) thread.join();
}
