#!/usr/bin/env bash
# Everything the lent H200 checks for the kernel drills, in one command (about 4-5 minutes):
#   1. every GPU test (pytest -m gpu: 4 processes on the one GPU, since they check paths, not
#      speed; then the few that compare clocks, alone),
#   2. the ladder benchmark of all four drills, both tracks (Triton and CUDA), twice, alone
#      on the GPU, on each drill's headline shape,
#   3. softmax once more on every benchmark shape (narrow and wide rows), for the record,
# then a short table last. Full results go to $OUT (the device tool's folder) or
# benchmarks/results/device/. Run it through run_on_device.sh, which supplies pydantic:
#   bash benchmarks/run_on_device.sh bash benchmarks/device_check.sh
# The whole run no longer fits one 10-minute device call: TESTS_ONLY=1 (tests, ~8 min: 5 for 107 tests on 4 workers in session 12, now 6 workers, 2-3 for the clock tests alone), then
# BENCH_ONLY=1 (benchmarks, ~8 min). SANITIZER=1 runs only submit --sanitize's GPU tests (up to 8 min). Before any call: the judge's manifest
# must match the harness (`python -m gpuprep.harness.manifest --write`), and the device tool's
# carry must name .whl (pydantic and the rest).
set -uo pipefail
OUT=${OUT:-benchmarks/results/device}
mkdir -p "$OUT"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv;
  python3 -c 'import torch, triton, cupy; print("torch", torch.__version__, "triton", triton.__version__, "cupy", cupy.__version__)'; } \
  > "$OUT/environment.txt" 2>&1
if [ -n "${SANITIZER:-}" ]; then  # SANITIZER=1: submit --sanitize's GPU tests alone (memcheck is slow)
  echo "== pytest -m gpu tests/harness/test_sanitizer_gpu.py (log: $OUT/pytest-sanitizer.log)"
  timeout -s INT -k 20 480 python3 -m pytest -m gpu tests/harness/test_sanitizer_gpu.py -q -rfE \
    --durations=5 -p no:cacheprovider > "$OUT/pytest-sanitizer.log" 2>&1
  sanitizer_rc=$?
  tail -n 12 "$OUT/pytest-sanitizer.log"
  exit $sanitizer_rc
fi
if [ -n "${BENCH_ONLY:-}" ]; then pytest_rc=0; else
parallel=""
python3 -c 'import xdist' 2>/dev/null && parallel="-n 6"
# Every gpu-marked file but the sanitizer's (SANITIZER=1); the collective tests skip on one GPU.
gpu_files="tests/harness/test_gpu.py tests/harness/test_flash_attention.py tests/harness/test_methods.py tests/collective/test_nccl.py"
echo "== pytest -m 'gpu and not timing' $gpu_files $parallel, then -m 'gpu and timing' alone"
timeout -s INT -k 20 380 python3 -m pytest -m "gpu and not timing" $gpu_files $parallel -q -rfE \
  --durations=10 -p no:cacheprovider > "$OUT/pytest-gpu.log" 2>&1
pytest_rc=$?
# The clock-comparison tests need the GPU to themselves: time-slicing with the other workers
# stretches the host clock and not the events.
timeout -s INT -k 20 180 python3 -m pytest -m "gpu and timing" tests/harness/test_gpu.py -v -rfE \
  -p no:cacheprovider >> "$OUT/pytest-gpu.log" 2>&1
timing_rc=$?
[ "$pytest_rc" -eq 0 ] && pytest_rc=$timing_rc
grep -E "^(FAILED|ERROR)|[0-9]+ (passed|failed|skipped|deselected|errors?)\b" "$OUT/pytest-gpu.log" | tail -n 40
fi
if [ -n "${TESTS_ONLY:-}" ]; then  # TESTS_ONLY=1: the GPU tests alone (about 8 minutes)
  echo "== pytest exit $pytest_rc"
  [ "$pytest_rc" -eq 0 ]
  exit
fi
echo "== benchmarks/drills_gpu.py (log: $OUT/bench.log)"
# Every timed call gets fresh inputs through the judge's arena and its output checked, and each
# kernel starts a sandbox of its own: about 60 s a drill a repeat on the H200 (2026-12-01).
timeout -s INT -k 20 420 python3 benchmarks/drills_gpu.py --out "$OUT" --repeat 2 --headline-only \
  --budget 0.5 > "$OUT/bench.log" 2>&1
bench_rc=$?
grep -E "run [0-9]+:" "$OUT/bench.log" | cut -c1-160
echo "== softmax on all its benchmark shapes (narrow and wide rows too; informational, one run)"
timeout -s INT -k 20 150 python3 benchmarks/drills_gpu.py --drills softmax --out "$OUT/softmax-shapes" \
  --repeat 1 --budget 0.3 >> "$OUT/bench.log" 2>&1
echo "softmax shapes exit $?"
echo "== pytest exit $pytest_rc, benchmark exit $bench_rc (1: a bar, order or repeatability check said NO; 124: time limit)"
sed -n '/^wrote /,$p' "$OUT/bench.log"
[ "$pytest_rc" -eq 0 ] && [ "$bench_rc" -eq 0 ]
