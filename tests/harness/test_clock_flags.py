"""The side-stream flag compares the host clock with the events; only hidden work may raise it."""

from gpuprep.harness.timing import FLAG_OUTSIDE_THE_STREAM, Timing, clock_flags

SPIN_MS = 0.55


def _summary(events: list[float], walls: list[float], brackets: list[float]) -> dict:
    return Timing(runs=events, walls=walls, brackets=brackets).summary()


def test_an_honest_kernel_on_a_quiet_gpu_is_not_flagged():
    summary = _summary([0.14] * 20, [SPIN_MS + 0.2] * 20, [0.19, 0.18, 0.2, 0.19, 0.18])
    assert clock_flags(summary, SPIN_MS) == []


def test_an_honest_kernel_stretched_by_another_process_on_the_gpu_is_not_flagged():
    # Time-slicing with three other processes stretched most bracketed and wall-clock calls
    # (the 2026-11-30 H200 run under pytest -n 4); the least stretched one is the kernel's own.
    walls = [SPIN_MS + 0.2] * 5 + [SPIN_MS + 3.0] * 15
    summary = _summary([0.14] * 20, walls, [0.19, 2.5, 3.1, 2.8, 1.9])
    assert summary["bracket_median_ms"] > 4 * summary["median_ms"]
    assert clock_flags(summary, SPIN_MS) == []


def test_work_hidden_on_a_side_stream_is_flagged_through_the_brackets():
    # 2 ms of side-stream work in every call: under the busy-wait it is gone from the events
    # and the walls, but every bracketed call waits for it.
    summary = _summary([0.01] * 20, [SPIN_MS + 0.05] * 20, [2.1, 2.0, 2.2, 2.05, 2.1])
    assert clock_flags(summary, SPIN_MS) == [FLAG_OUTSIDE_THE_STREAM]
    assert "another process" in FLAG_OUTSIDE_THE_STREAM, "an honest kernel on a shared GPU too"


def test_work_longer_than_the_busy_wait_is_flagged_through_the_walls():
    summary = _summary([0.01] * 20, [SPIN_MS + 5.0] * 20, [])
    assert clock_flags(summary, SPIN_MS)
