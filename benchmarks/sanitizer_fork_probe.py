"""Does a child forked before CUDA starts survive its first Triton kernel under compute-sanitizer,
with and without the fds it inherited? Run as: compute-sanitizer --target-processes all python3 this."""

import os
import sys

import torch
import triton
import triton.language as tl

print("fds at start", sorted(os.listdir("/proc/self/fd"), key=int), flush=True)
for fd in sorted(os.listdir("/proc/self/fd"), key=int):
    try:
        print("  ", fd, os.readlink(f"/proc/self/fd/{fd}"), flush=True)
    except OSError:
        pass
print(
    "env",
    {
        k: v[:80]
        for k, v in os.environ.items()
        if any(s in k for s in ("SANITIZER", "INJECT", "PRELOAD", "CUDA"))
    },
    flush=True,
)


@triton.jit
def add_one(x, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + i, tl.load(x + i, mask=i < n) + 1, mask=i < n)


def work():
    x = torch.zeros(1000, device="cuda")
    y = x * 2
    add_one[(8,)](x, 1000, BLOCK=128)
    torch.cuda.synchronize()
    return float(x.sum() + y.sum())


for close in (False, True):
    pid = os.fork()
    if pid == 0:
        if close:
            os.closerange(3, 1 << 16)
        try:
            print("child close=%s sum=%s" % (close, work()), flush=True)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    print("child close=%s exit status" % close, os.waitstatus_to_exitcode(status), flush=True)
print("parent", work())
