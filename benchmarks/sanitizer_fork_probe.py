"""Which of the sandbox's first steps does compute-sanitizer's injected library not survive?
Each variant starts gpuprep's fork server and runs torch and a Triton kernel in a sandbox it
forks, as the judge does, keeping some inherited descriptors and turning Landlock on or not.
Run as: compute-sanitizer --target-processes all python3 this (benchmarks/sanitizer_probe.sh)."""

import os

from gpuprep.harness import forkserver

AT_START = forkserver.inherited_fds()  # before torch: what the launcher passed

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from gpuprep.harness.landlock import restrict_writes  # noqa: E402


def links(fds):
    out = {}
    for fd in sorted(fds):
        try:
            out[fd] = os.readlink(f"/proc/self/fd/{fd}")[-45:]
        except OSError:
            out[fd] = "?"
    return out


print("fds at start", links(AT_START), flush=True)
AFTER_TORCH = forkserver.inherited_fds()
print("fds after import torch", links(AFTER_TORCH), flush=True)


@triton.jit
def add_one(x, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + i, tl.load(x + i, mask=i < n) + 1, mask=i < n)


def sandbox(landlock, sock):
    x = torch.zeros(1000, device="cuda")
    y = x * 2
    if landlock:
        from gpuprep.harness.forkserver import writable_folders

        restrict_writes(writable_folders(os.getcwd()))
    sock.sendall(SEEN.encode() + b"torch ok; ")
    add_one[(8,)](x, 1000, BLOCK=128)
    torch.cuda.synchronize()
    sock.sendall(f"triton ok, sum {float(x.sum() + y.sum())}".encode())


import resource  # noqa: E402
import signal  # noqa: E402
import tempfile  # noqa: E402


def harden(skip):
    """forkserver._harden with one step left out."""

    def run(sock, keep=frozenset()):
        global SEEN
        forkserver._prctl(forkserver._PR_SET_PDEATHSIG, signal.SIGKILL)
        mine = forkserver.inherited_fds()
        server = {int(fd) for fd in os.listdir(f"/proc/{os.getppid()}/fd")}
        born = mine - server
        SEEN = f"born in the fork {links(born)}; the server's {sorted(server)}; "
        if skip == "born":
            keep = frozenset({*keep, *born})
        low = 3
        for fd in sorted({*keep, sock.fileno()}):
            os.closerange(low, fd)
            low = fd + 1
        os.closerange(low, 1 << 16)
        if skip != "chdir":
            os.chdir(tempfile.mkdtemp(prefix="gpuprep-sandbox-"))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if skip != "file size limit":
            resource.setrlimit(
                resource.RLIMIT_FSIZE, (forkserver.FILE_LIMIT, forkserver.FILE_LIMIT)
            )
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    return run


SEEN = ""
for skip in ("nothing", "born"):
    forkserver._harden = harden(skip)
    server = forkserver.start(lambda sock: sandbox(False, sock), keep=frozenset(AT_START))
    pid, sock = server.spawn()
    said = b""
    while chunk := sock.recv(4096):
        said += chunk
    server.control.close()
    os.waitpid(server.pid, 0)
    print(f"keep fds at start, harden keeping {skip}: sandbox said {said.decode()!r}", flush=True)
