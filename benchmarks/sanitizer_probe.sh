#!/usr/bin/env bash
# Where `submit --sanitize`'s time goes on a GPU machine (developer aid, one device call):
# torch's first kernel alone under memcheck, the same with a kernel-name filter that matches
# nothing, then an honest and a wrong softmax through the CLI, each progress line stamped.
# Run through run_on_device.sh. Results under $OUT (or benchmarks/results/device/).
set -uo pipefail
OUT=${OUT:-benchmarks/results/device}
mkdir -p "$OUT"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
stamp() { python3 -u -c '
import sys, time
t0 = time.monotonic()
for line in sys.stdin:
    print(f"{time.monotonic() - t0:7.1f}s {line}", end="", flush=True)'; }
probe='import torch, time; t=time.monotonic(); x=torch.ones(1<<20, device="cuda"); y=(x*2).sum(); torch.cuda.synchronize(); print("first kernels", round(time.monotonic()-t,1), "s")'
[ -n "${FIRST_KERNELS:-}" ] && for args in "" "--tool memcheck" "--tool memcheck --kernel-name kns=no_such_kernel" "--tool racecheck"; do
  echo "== ${args:-no tool}"
  start=$(date +%s.%N)
  if [ -z "$args" ]; then timeout 120 python3 -c "$probe"; else timeout 120 "$CS" $args python3 -c "$probe" | tail -n 3; fi
  echo "   wall $(python3 -c "print(round($(date +%s.%N)-$start,1))") s"
done
# Why a sandbox under the tool may die: the same memcheck run with the tool, without it (the
# sandbox's sanitize settings alone), with Landlock off, and with the allocator's cache on.
mkdir -p /tmp/probe-site
for variant in ${VARIANTS:-tool no-tool no-landlock cached}; do
  echo "== submit softmax softmax_stores_one_past_the_end.py --sanitize, memcheck only: $variant"
  case $variant in
    no-landlock) echo 'import gpuprep.harness.landlock as l; l.restrict_writes = lambda *a, **k: 0' > /tmp/probe-site/sitecustomize.py ;;
    cached) echo 'import gpuprep.harness.sanitizer as s; s.SANDBOX_ENV.clear()' > /tmp/probe-site/sitecustomize.py ;;
    *) rm -f /tmp/probe-site/sitecustomize.py ;;
  esac
  PYTHONPATH=/tmp/probe-site:$PYTHONPATH VARIANT=$variant timeout 200 python3 -u benchmarks/sanitizer_probe.py 2>&1 | stamp | tail -n 40
done
echo "== a forked child under memcheck, with and without its inherited fds"
timeout 120 "$CS" --tool memcheck --target-processes all python3 -u benchmarks/sanitizer_fork_probe.py; echo "without the tool:"; timeout 60 python3 -u benchmarks/sanitizer_fork_probe.py 2>&1 | tail -n 30
