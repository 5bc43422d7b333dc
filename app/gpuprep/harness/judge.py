"""The judge: the trusted process that decides every verdict.

Run as `python -m gpuprep.harness.judge` by the app (`runner.py`). It never imports a
submission. It holds the drill's spec, draws a fresh seed for every case, writes the inputs
into the arena it shares with a sandbox, keeps private copies, and after each call computes
the float64 reference from those copies, reads the output back and checks it
(`drill_run.py`). Each kernel (the submission, every rung, the vendor op) gets a sandbox of
its own, forked from the fork server, so nothing one does reaches the next or the judge.
Events go to the app over a pipe only the judge holds.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import traceback

from gpuprep.harness import forkserver, manifest
from gpuprep.harness.protocol import Channel


def main() -> None:
    inherited = forkserver.inherited_fds()
    config = json.loads(sys.stdin.readline())
    result_fd = int(config.pop("result_fd"))
    channel = Channel(result_fd, str(config.pop("nonce")))
    # Under `submit --sanitize` the sandboxes keep what the tool passed the judge (never the
    # result pipe): its injected library reports through those pipes.
    tool_fds = frozenset(inherited - {result_fd}) if config.get("sanitize") else frozenset()
    refusal = manifest.refusal()
    if refusal:
        channel.send("fatal", message=refusal)
        os._exit(2)
    # Imported only now, after the manifest check: a changed harness file must not run first.
    import torch

    if config.get("mode") == "auto":
        # NVML's answer (the runner asks for it) initialises no CUDA context: forks stay safe.
        config["mode"] = "gpu" if torch.cuda.is_available() else "cpu"
    if config["mode"] == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"
        config["check_only"] = True
    try:
        import triton  # noqa: F401 - imported once here, so no sandbox pays for it
    except ImportError:
        pass
    from gpuprep.harness import sandbox
    from gpuprep.harness.arena import Arena

    # The guard's first dispatch imports torch._dynamo, the FSDP modules and sympy (measured on
    # the H200: 5-7 s in every sandbox's first call, 6 of a softmax submit's 7 sandboxes). Paid
    # once here, on the CPU and before any fork, every sandbox inherits the imported modules.
    sandbox.warm_the_guard()
    from gpuprep.harness.drill_run import DrillRun, arena_bytes
    from gpuprep.harness.sandboxes import Sandbox

    try:
        if config.get("task") == "calibrate":
            from gpuprep.harness.timing import calibrate

            calibrate(channel)
        else:
            gpu = config["mode"] == "gpu"
            arena = None if gpu else Arena(arena_bytes(config), torch.device("cpu"))
            # On a CPU the arena is shared memory the sandboxes inherit; a GPU's is sent later.
            server = forkserver.start(
                functools.partial(sandbox.run, arena.bytes if arena else None), keep=tool_fds
            )
            forkserver.guard_the_judge()
            if gpu:
                device = torch.device("cuda", torch.cuda.current_device())
                arena = Arena(arena_bytes(config), device)
            assert arena is not None
            DrillRun(config, channel, lambda: Sandbox(server), arena).run()
    except BaseException as error:  # noqa: BLE001
        tail = "".join(traceback.format_exception(type(error), error, error.__traceback__))[-3000:]
        channel.send("fatal", message=f"{type(error).__name__}: {error}", traceback=tail)
        forkserver.kill_all_but(os.getpid(), keep=set())
        os._exit(3)
    channel.send("done")
    forkserver.kill_all_but(os.getpid(), keep=set())
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
