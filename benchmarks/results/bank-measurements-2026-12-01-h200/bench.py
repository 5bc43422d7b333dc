"""Scratch measurements on the lent H200 for the matmul / kernel-patterns / kernel-coding questions."""
import importlib.util, json, os, subprocess, sys, time, traceback
import torch, triton, triton.language as tl
import cupy as cp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.environ.get("OUT", "/tmp/out")
os.makedirs(OUT, exist_ok=True)
R = {}
LOG = open(os.path.join(OUT, "log.txt"), "w")


def log(*a):
    s = " ".join(str(x) for x in a)
    print(s, flush=True)
    LOG.write(s + "\n"); LOG.flush()


def save():
    json.dump(R, open(os.path.join(OUT, "results.json"), "w"), indent=1, default=str)


def timeit(fn, iters=20, warmup=3):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(iters):
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        ts.append(s.elapsed_time(e))
    ts.sort()
    return ts[len(ts) // 2]


def section(name):
    def deco(f):
        def run():
            t0 = time.time()
            log(f"=== {name}")
            try:
                f()
            except Exception:
                log(traceback.format_exc())
                R.setdefault("errors", {})[name] = traceback.format_exc()[-2000:]
            log(f"--- {name} took {time.time() - t0:.1f} s")
            save()
        return run
    return deco


def load_ref(rel):
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_"), os.path.join(ROOT, rel))
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod


dev = torch.device("cuda")
props = torch.cuda.get_device_properties(0)
SMS = props.multi_processor_count
R["env"] = dict(torch=torch.__version__, triton=triton.__version__, gpu=props.name, sms=SMS, cupy=cp.__version__)
log(R["env"])
MOD = cp.RawModule(code=open(os.path.join(HERE, "kernels.cu")).read(), options=("-std=c++17",))
K_ = {n: MOD.get_function(n) for n in [
    "sgemm_naive", "sgemm_coalesced", "sgemm_smem32", "sgemm_1d", "sgemm_2d", "sgemm_2d_vec",
    "add_scalar", "add_f4_grid_stride", "add_f4_unroll4", "partial_sums", "finish_sum",
    "softmax_warp_f32", "softmax_warp_bf16"]}


def launch(name, grid, block, args):
    stream = cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
    with stream:
        K_[name](grid, block, args)


def ptr(t):
    return cp.uint64(t.data_ptr())


def copy_time(nbytes):
    a = torch.empty(nbytes // 4, device=dev); b = torch.empty_like(a)
    t = timeit(lambda: b.copy_(a))
    return t, 2 * nbytes / (t * 1e-3) / 1e9


@section("copy")
def s_copy():
    t, gbs = copy_time(1 << 30)
    R["copy_1GiB"] = dict(ms=t, GBps=gbs)
    log("copy 1 GiB", t, "ms", gbs, "GB/s (read+write)")


@section("sgemm ladder")
def s_sgemm():
    M = N = K = 4096
    torch.backends.cuda.matmul.allow_tf32 = False
    A = torch.randn(M, K, device=dev); B = torch.randn(K, N, device=dev); C = torch.empty(M, N, device=dev)
    ref = A.double() @ B.double()
    flops = 2 * M * N * K
    out = {}
    cfg = {
        "sgemm_naive": ((M // 32, N // 32), (32, 32), 3),
        "sgemm_coalesced": ((N // 32, M // 32), (32, 32), 5),
        "sgemm_smem32": ((N // 32, M // 32), (32, 32), 10),
        "sgemm_1d": ((N // 64, M // 64), (512,), 10),
        "sgemm_2d": ((N // 128, M // 128), (256,), 10),
        "sgemm_2d_vec": ((N // 128, M // 128), (256,), 10),
    }
    for name, (grid, block, iters) in cfg.items():
        C.zero_()
        f = lambda: launch(name, grid, block, (cp.int32(M), cp.int32(N), cp.int32(K), ptr(A), ptr(B), ptr(C)))
        t = timeit(f, iters=iters, warmup=1)
        err = ((C.double() - ref).abs().max() / ref.abs().max()).item()
        out[name] = dict(ms=t, tflops=flops / (t * 1e-3) / 1e12, rel_err=err)
        log(name, out[name])
    t = timeit(lambda: torch.matmul(A, B, out=C))
    out["torch_fp32_notf32"] = dict(ms=t, tflops=flops / (t * 1e-3) / 1e12)
    torch.backends.cuda.matmul.allow_tf32 = True
    t = timeit(lambda: torch.matmul(A, B, out=C))
    out["torch_tf32"] = dict(ms=t, tflops=flops / (t * 1e-3) / 1e12)
    torch.backends.cuda.matmul.allow_tf32 = False
    Ah, Bh = A.bfloat16(), B.bfloat16()
    t = timeit(lambda: Ah @ Bh)
    out["torch_bf16_4096"] = dict(ms=t, tflops=flops / (t * 1e-3) / 1e12)
    log(out)
    R["sgemm"] = out


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
              PREC: tl.constexpr, BUGGY: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    if BUGGY:
        pid_m = first_pid_m + (pid % GROUP_M)
        pid_n = (pid % num_pid_in_group) // GROUP_M
    else:
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
        pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_n[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kmask = offs_k < K - k * BK
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & kmask[None, :], other=0.0)
        b = tl.load(b_ptrs, mask=kmask[:, None] & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PREC)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c_ptrs = c_ptr + offs_m[:, None] * scm + offs_n[None, :] * scn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def mm(a, b, c, BM=128, BN=128, BK=64, GROUP_M=8, PREC="tf32", BUGGY=False, warps=8, stages=3):
    M, K = a.shape; N = b.shape[1]
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    mm_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                    BM=BM, BN=BN, BK=BK, GROUP_M=GROUP_M, PREC=PREC, BUGGY=BUGGY, num_warps=warps, num_stages=stages)
    return c


@section("triton tf32 default")
def s_tf32():
    torch.manual_seed(0)
    M = N = K = 4096
    a = torch.randn(M, K, device=dev); b = torch.randn(K, N, device=dev)
    torch.backends.cuda.matmul.allow_tf32 = False
    ref64 = (a.double() @ b.double())
    ref = a @ b
    out = {"allow_tf32": torch.backends.cuda.matmul.allow_tf32, "float32_matmul_precision": torch.get_float32_matmul_precision()}
    for prec, bk in (("tf32", 32), ("tf32x3", 32), ("ieee", 32)):
        c = torch.empty(M, N, device=dev)
        f = lambda: mm(a, b, c, BM=128, BN=128, BK=bk, PREC=prec, warps=8, stages=3)
        f(); torch.cuda.synchronize()
        d = (c - ref).abs(); d64 = (c.double() - ref64).abs()
        rel = d / ref.abs().clamp_min(1e-30)
        try:
            torch.testing.assert_close(c, ref); verdict = "pass"
        except AssertionError as e:
            verdict = str(e)[:600]
        t = timeit(f, iters=10)
        out[prec] = dict(ms=t, tflops=2 * M * N * K / (t * 1e-3) / 1e12, max_abs_vs_torch=d.max().item(),
                         mean_abs_vs_torch=d.mean().item(), max_abs_vs_fp64=d64.max().item(),
                         mean_abs_vs_fp64=d64.mean().item(), verdict=verdict,
                         n_mismatch=int((d > 1e-5 + 1.3e-6 * ref.abs()).sum().item()))
        log(prec, out[prec])
    d64t = (ref.double() - ref64).abs()
    out["torch_fp32_vs_fp64"] = dict(max=d64t.max().item(), mean=d64t.mean().item(), ref_abs_mean=ref.abs().mean().item(), ref_abs_max=ref.abs().max().item())
    out["torch_fp32_ms"] = timeit(lambda: a @ b, iters=10)
    log(out)
    R["tf32"] = out


@section("grouped order")
def s_grouped():
    out = {}
    # the buggy remap: which elements are never written
    for (M, N, K) in ((4096, 4096, 4096), (2048, 2048, 1024), (1024, 4096, 4096), (2500, 2048, 4096), (384, 4096, 4096)):
        torch.manual_seed(1)
        a = torch.randn(M, K, device=dev, dtype=torch.bfloat16); b = torch.randn(K, N, device=dev, dtype=torch.bfloat16)
        ref = (a.float() @ b.float())
        c = torch.full((M, N), float("nan"), device=dev, dtype=torch.bfloat16)
        mm(a, b, c, BUGGY=True); torch.cuda.synchronize()
        bad = ~torch.isclose(c.float(), ref, rtol=2e-2, atol=1e-1)
        nb = int(bad.sum().item())
        rec = dict(mismatch=nb, total=M * N)
        if nb:
            rows = bad.any(1).nonzero().flatten(); cols = bad.any(0).nonzero().flatten()
            rec.update(rows=(rows.min().item(), rows.max().item()), cols=(cols.min().item(), cols.max().item()), nan=int(torch.isnan(c).sum().item()))
        c2 = torch.empty((M, N), device=dev, dtype=torch.bfloat16)
        mm(a, b, c2, BUGGY=False)
        try:
            torch.testing.assert_close(c2.float(), ref, rtol=2e-2, atol=1e-1); rec["fixed"] = "pass"
        except AssertionError as e:
            rec["fixed"] = str(e)[:300]
        out[f"{M}x{N}x{K}"] = rec
        log(M, N, K, rec)
    # timing: row-major vs grouped on a big bf16 GEMM
    M = N = K = 8192
    a = torch.randn(M, K, device=dev, dtype=torch.bfloat16); b = torch.randn(K, N, device=dev, dtype=torch.bfloat16)
    c = torch.empty(M, N, device=dev, dtype=torch.bfloat16)
    for g in (1, 8):
        for (BM, BN, warps, stages) in ((128, 128, 8, 3), (128, 256, 8, 3)):
            try:
                t = timeit(lambda: mm(a, b, c, BM=BM, BN=BN, BK=64, GROUP_M=g, warps=warps, stages=stages), iters=10)
                out[f"time_8192_g{g}_{BM}x{BN}"] = dict(ms=t, tflops=2 * M * N * K / (t * 1e-3) / 1e12)
            except Exception as e:
                out[f"time_8192_g{g}_{BM}x{BN}"] = str(e)[:200]
            log(g, BM, BN, out[f"time_8192_g{g}_{BM}x{BN}"])
    t = timeit(lambda: a @ b, iters=10)
    out["torch_8192"] = dict(ms=t, tflops=2 * M * N * K / (t * 1e-3) / 1e12)
    log(out["torch_8192"])
    R["grouped"] = out


@section("gemm shapes (torch)")
def s_shapes():
    out = {}
    torch.manual_seed(0)
    # tile/wave quantisation: M tokens x 4096 x 4096
    for N in (4096, 14336):
        b = torch.randn(4096, N, device=dev, dtype=torch.bfloat16)
        for M in (4096, 4100, 4224, 4352):
            a = torch.randn(M, 4096, device=dev, dtype=torch.bfloat16)
            t = timeit(lambda: a @ b, iters=20)
            out[f"M{M}_N{N}_K4096"] = dict(ms=t, tflops=2 * M * N * 4096 / (t * 1e-3) / 1e12)
            log(M, N, out[f"M{M}_N{N}_K4096"])
    # split-K shape: dW = X^T dY, 512 x 512 over 65536 tokens
    for (Mo, Kt) in ((512, 65536), (256, 65536), (512, 131072)):
        x = torch.randn(Kt, Mo, device=dev, dtype=torch.bfloat16); dy = torch.randn(Kt, Mo, device=dev, dtype=torch.bfloat16)
        t = timeit(lambda: x.t() @ dy, iters=20)
        out[f"dW_{Mo}_K{Kt}"] = dict(ms=t, tflops=2 * Mo * Mo * Kt / (t * 1e-3) / 1e12)
        log("dW", Mo, Kt, out[f"dW_{Mo}_K{Kt}"])
        if (Mo, Kt) == (512, 65536):
            from torch.profiler import profile, ProfilerActivity
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(3):
                    x.t() @ dy
                torch.cuda.synchronize()
            names = sorted({e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA})
            out["dW_512_kernels"] = names
            log(names)
            # the same with our Triton kernel, no split: 16 programs
            c = torch.empty(Mo, Mo, device=dev, dtype=torch.bfloat16)
            xt = x.t()
            t = timeit(lambda: mm(xt, dy, c, BM=128, BN=128, BK=64, GROUP_M=8), iters=10)
            out["dW_512_triton_nosplit"] = dict(ms=t)
            log("triton no split", t)
    # GEMV: batch 1 .. 64 against an 8192 x 8192 bf16 weight
    W = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
    for bsz in (1, 8, 16, 32, 64, 128):
        xb = torch.randn(bsz, 8192, device=dev, dtype=torch.bfloat16)
        t = timeit(lambda: xb @ W.t(), iters=50)
        out[f"gemv_8192_b{bsz}"] = dict(us=t * 1e3, GBps=8192 * 8192 * 2 / (t * 1e-3) / 1e9)
        log("gemv", bsz, out[f"gemv_8192_b{bsz}"])
    R["shapes"] = out


@section("vector add")
def s_vadd():
    n = 1 << 28
    x = torch.randn(n, device=dev); y = torch.randn(n, device=dev); z = torch.empty_like(x)
    out = {}
    nb = 3 * n * 4
    def run(name, grid):
        f = lambda: launch(name, (grid,), (256,), (ptr(x), ptr(y), ptr(z), cp.int64(n)))
        t = timeit(f, iters=20)
        ok = torch.equal(z, x + y)
        out[f"{name}_grid{grid}"] = dict(ms=t, GBps=nb / (t * 1e-3) / 1e9, ok=ok)
        log(name, grid, out[f"{name}_grid{grid}"])
    run("add_scalar", (n + 255) // 256)
    run("add_f4_grid_stride", (n // 4 + 255) // 256)
    for w in (1, 4, 16):
        run("add_f4_grid_stride", SMS * 8 * w)
        run("add_f4_unroll4", SMS * 8 * w)
    t = timeit(lambda: torch.add(x, y, out=z)); out["torch_add"] = dict(ms=t, GBps=nb / (t * 1e-3) / 1e9)
    ref = load_ref("kernels_ref/vector_add/v1_wide_blocks.py")
    t = timeit(lambda: ref.vector_add(x, y)); out["v1_wide_blocks"] = dict(ms=t, GBps=nb / (t * 1e-3) / 1e9)
    t, gbs = copy_time(n * 4); out["copy"] = dict(ms=t, GBps=gbs)
    # misaligned view: x[1:] is 4 bytes past a 16-byte boundary
    xs, ys = x[1:], y[1:]
    out["misaligned_ptr_mod16"] = xs.data_ptr() % 16
    log(out)
    R["vadd"] = out


@section("reduction")
def s_red():
    n = 1 << 28
    torch.manual_seed(0)
    x = torch.randn(n, device=dev)
    out = {}
    G = SMS * 8
    partials = torch.empty(G, device=dev); res = torch.empty((), device=dev)
    def det():
        launch("partial_sums", (G,), (256,), (ptr(x), ptr(partials), cp.int64(n)))
        launch("finish_sum", (1,), (1024,), (ptr(partials), ptr(res), cp.int32(G)))
        return res
    vals = set()
    for _ in range(20):
        det(); torch.cuda.synchronize(); vals.add(res.item())
    t = timeit(det, iters=20)
    exact = x.double().sum().item()
    out["two_stage"] = dict(ms=t, GBps=n * 4 / (t * 1e-3) / 1e9, distinct=len(vals), value=list(vals)[0], err=abs(list(vals)[0] - exact))
    ref = load_ref("kernels_ref/reduction/v3_cuda_float4_waves.py")
    vals3 = set()
    for _ in range(20):
        vals3.add(ref.reduce_sum(x).item())
    t3 = timeit(lambda: ref.reduce_sum(x), iters=20)
    out["v3_cuda_atomics"] = dict(ms=t3, distinct=len(vals3), spread=max(vals3) - min(vals3))
    valst = set(torch.sum(x).item() for _ in range(20))
    out["torch_sum"] = dict(ms=timeit(lambda: torch.sum(x)), distinct=len(valst))
    out["exact"] = exact
    log(out)
    R["reduction"] = out


@section("softmax warp per row")
def s_softmax():
    rows, cols = 262144, 256
    out = {}
    ref3 = load_ref("kernels_ref/softmax/v3_tuned_rows.py")
    for dt in (torch.float32, torch.bfloat16):
        torch.manual_seed(0)
        x = (torch.randn(rows, cols, device=dev) * 4).to(dt)
        x[:, ::7] = float("-inf")
        y = torch.empty_like(x)
        name = "softmax_warp_f32" if dt == torch.float32 else "softmax_warp_bf16"
        f = lambda: launch(name, ((rows * 32 + 255) // 256,), (256,), (ptr(x), ptr(y), cp.int32(rows)))
        f(); torch.cuda.synchronize()
        expect = torch.softmax(x.float(), -1)
        err = (y.float() - expect).abs().max().item()
        nb = 2 * rows * cols * x.element_size()
        t = timeit(f, iters=20)
        rec = dict(ms=t, GBps=nb / (t * 1e-3) / 1e9, max_err=err)
        rec["torch_ms"] = timeit(lambda: torch.softmax(x, -1))
        rec["v3_ms"] = timeit(lambda: ref3.softmax(x))
        ct, cg = copy_time(rows * cols * x.element_size())
        rec["copy_ms"] = ct; rec["copy_GBps"] = cg
        out[str(dt)] = rec
        log(dt, rec)
    R["softmax"] = out


@triton.jit
def wide_to_tall(x_ptr, y_ptr, rows, cols, R_: tl.constexpr, BLOCK: tl.constexpr):
    """x is (rows, cols) with few rows: read R_ row segments of BLOCK, write one contiguous BLOCK x rows chunk."""
    c = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    r = tl.arange(0, R_)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(y_ptr + c[:, None] * rows + r[None, :], tl.trans(tile), mask=tl.trans(mask))


@triton.jit
def tall_to_wide(x_ptr, y_ptr, rows, cols, C_: tl.constexpr, BLOCK: tl.constexpr):
    """x is (rows, cols) with few cols: read one contiguous BLOCK x cols chunk, write cols row segments of BLOCK."""
    r = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    c = tl.arange(0, C_)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(y_ptr + c[:, None] * rows + r[None, :], tl.trans(tile), mask=tl.trans(mask))


@section("transpose skinny")
def s_transpose():
    out = {}
    v3 = load_ref("kernels_ref/transpose/v3_tiles_64.py")
    v3c = load_ref("kernels_ref/transpose/v3_cuda_tile_32x8.py")
    shapes = [(8192, 8192), (3, 1 << 25), (1 << 25, 3), (8, 1 << 24), (1 << 24, 8), (3, 100003), (100003, 3)]
    for (rows, cols) in shapes:
        x = torch.randn(rows, cols, device=dev)
        ref = x.t().contiguous()
        nb = 2 * rows * cols * 4
        rec = {}
        def tryit(label, fn):
            try:
                y = fn(); torch.cuda.synchronize()
                ok = torch.equal(y, ref)
                t = timeit(fn, iters=10)
                rec[label] = dict(ms=t, GBps=nb / (t * 1e-3) / 1e9, ok=ok)
            except Exception as e:
                rec[label] = "ERROR " + (str(e).splitlines() or [""])[0][:200]
        tryit("v3_tiles_64", lambda: v3.transpose(x))
        tryit("v3_cuda_tile_32x8", lambda: v3c.transpose(x))
        tryit("torch_t_contiguous", lambda: x.t().contiguous())
        if rows <= 16:
            def wt(BLOCK=1024):
                y = torch.empty(cols, rows, device=dev)
                wide_to_tall[(triton.cdiv(cols, BLOCK),)](x, y, rows, cols, R_=triton.next_power_of_2(rows), BLOCK=BLOCK, num_warps=8)
                return y
            tryit("wide_to_tall_1024", wt)
            tryit("wide_to_tall_4096", lambda: wt(4096))
        if cols <= 16:
            def tw(BLOCK=1024):
                y = torch.empty(cols, rows, device=dev)
                tall_to_wide[(triton.cdiv(rows, BLOCK),)](x, y, rows, cols, C_=triton.next_power_of_2(cols), BLOCK=BLOCK, num_warps=8)
                return y
            tryit("tall_to_wide_1024", tw)
            tryit("tall_to_wide_4096", lambda: tw(4096))
        ct, cg = copy_time(rows * cols * 4)
        rec["copy"] = dict(ms=ct, GBps=cg)
        out[f"{rows}x{cols}"] = rec
        log(rows, cols, rec)
    R["transpose"] = out


def ncu_runs():
    log("=== ncu")
    target = os.path.join(HERE, "ncu_target.py")
    metrics = "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed_op_shared_ld.sum,sm__sass_thread_inst_executed_op_ffma_pred_on.sum"
    for what in ("sgemm", "gemm"):
        rx = "regex:sgemm" if what == "sgemm" else "regex:mm_kernel|nvjet|gemm|cutlass|sm90"
        cmd = ["ncu", "--clock-control", "none", "--kernel-name", rx, "--metrics", metrics, sys.executable, target, what]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
            txt = p.stdout[-20000:] + "\nSTDERR\n" + p.stderr[-4000:]
        except Exception as e:
            txt = "ncu failed: " + repr(e)
        open(os.path.join(OUT, f"ncu_{what}.txt"), "w").write(txt)
        log(f"ncu {what}: {len(txt)} chars")
    cmd = ["ncu", "--clock-control", "none", "--section", "MemoryWorkloadAnalysis_Tables", "--section", "SpeedOfLight",
           "--kernel-name", "regex:sgemm_smem32|sgemm_2d", sys.executable, target, "sgemm"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
        txt = p.stdout[-30000:] + "\nSTDERR\n" + p.stderr[-3000:]
    except Exception as e:
        txt = "ncu failed: " + repr(e)
    open(os.path.join(OUT, "ncu_sgemm_sections.txt"), "w").write(txt)


if __name__ == "__main__":
    which = sys.argv[1:] or ["copy", "sgemm", "tf32", "grouped", "shapes", "vadd", "red", "softmax", "transpose", "ncu"]
    table = {"copy": s_copy, "sgemm": s_sgemm, "tf32": s_tf32, "grouped": s_grouped, "shapes": s_shapes,
             "vadd": s_vadd, "red": s_red, "softmax": s_softmax, "transpose": s_transpose, "ncu": ncu_runs}
    for w in which:
        table[w]()
    save()
    log("done")
