"""A failure on one rank ends every rank at once, names the rank, and leaves no process behind."""

from __future__ import annotations

import os
import time
from pathlib import Path

from gpuprep.collective.judge import judge

from .conftest import FIXTURES


def _children(pid: int) -> list[int]:
    """Live (non-zombie) processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_rank_that_raises_is_named_without_waiting_for_the_timeout(request_for):
    from .conftest import DRILL

    began = time.monotonic()
    report = judge(request_for(DRILL / "wrong" / "raises_on_one_rank.py", 4, case_timeout_s=60))
    assert report["status"] == "crashed"
    assert report["message"].startswith("rank 1 raised on case 1 (one element")
    assert "RuntimeError: chunk index out of range" in report["message"]
    assert "raises_on_one_rank.py" in report["traceback"]
    assert time.monotonic() - began < 30  # the other ranks, blocked in recv, were killed
    assert _children(os.getpid()) == []


def test_a_rank_that_exits_is_named_with_its_exit_code(request_for):
    report = judge(request_for(FIXTURES / "exits_on_rank_2.py", 3, case_timeout_s=60))
    assert report["status"] == "crashed"
    assert report["message"].startswith("rank 2 exited with code 3 on case 1")
    assert _children(os.getpid()) == []


def test_no_rank_and_no_process_a_rank_started_outlives_a_hung_run(
    request_for, tmp_path, monkeypatch
):
    monkeypatch.setenv("COLLECTIVE_TEST_PIDS", str(tmp_path))
    report = judge(request_for(FIXTURES / "leaves_a_sleeper_and_hangs.py", 3, case_timeout_s=3))
    assert report["status"] == "timeout"
    sleepers = [int(p.name) for p in tmp_path.iterdir()]
    assert len(sleepers) == 3
    time.sleep(0.2)
    assert [pid for pid in sleepers if _alive(pid)] == []
    assert _children(os.getpid()) == []


def test_the_process_group_method_is_guarded_like_the_module_function(request_for):
    report = judge(request_for(FIXTURES / "calls_the_process_group_method.py", 2))
    assert report["status"] == "rejected"
    assert report["forbidden_calls"]["0"] == ["ProcessGroup.allreduce"]


def test_a_sum_returned_instead_of_written_into_x_fails_and_says_in_place(request_for):
    report = judge(request_for(FIXTURES / "returns_a_new_tensor.py", 2))
    assert report["status"] == "failed"
    assert "must sum x in place" in report["cases"][0]["message"]


def test_the_guard_is_in_place_before_the_submission_is_imported(request_for):
    report = judge(request_for(FIXTURES / "imports_all_reduce_by_name.py", 2))
    assert report["status"] == "rejected"
    assert "torch.distributed.all_reduce" in report["message"]
