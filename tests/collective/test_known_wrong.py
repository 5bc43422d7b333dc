"""Each known-wrong submission under drills/all_reduce/wrong/ gets the verdict the spec gives it,
with a message naming what a user must fix (the ranks, the forbidden call)."""

from __future__ import annotations

import re
import time

import pytest

from gpuprep.collective.judge import judge
from gpuprep.collective.spec import load_collective

from .conftest import DRILL

KNOWN = load_collective(DRILL / "collective.yaml").known_wrong
CASE_TIMEOUT_S = 3.0


def test_every_file_under_wrong_has_its_expected_verdict():
    assert sorted(k.file for k in KNOWN) == sorted(p.name for p in (DRILL / "wrong").glob("*.py"))


@pytest.mark.parametrize("known", KNOWN, ids=lambda known: known.file)
def test_the_known_wrong_submission_gets_its_verdict(known, request_for):
    began = time.monotonic()
    report = judge(request_for(DRILL / "wrong" / known.file, 3, case_timeout_s=CASE_TIMEOUT_S))
    assert report["status"] == known.status, report["message"]
    assert known.says in report["message"]
    # A hang ends within the case's timeout (plus start-up and the kill), not gloo's 30 minutes.
    assert time.monotonic() - began < CASE_TIMEOUT_S + 30


def test_a_deadlock_names_every_rank_left_waiting(request_for):
    report = judge(
        request_for(DRILL / "wrong" / "deadlock_by_ordering.py", 3, case_timeout_s=CASE_TIMEOUT_S)
    )
    assert report["status"] == "timeout"
    assert f"timed out after {CASE_TIMEOUT_S:g} s" in report["message"]
    assert "ranks 0, 1, 2 did not finish" in report["message"]
    assert "one element" in report["message"]


def test_a_rank_that_skips_the_last_chunk_is_wrong_in_that_chunk_only(request_for):
    report = judge(request_for(DRILL / "wrong" / "skips_last_chunk.py", 4))
    big = next(case for case in report["cases"] if case["numel"] == 100003)
    assert big["bad_ranks"] == [0, 1, 2, 3]
    # Rank 3 owns chunk 0 (25001 elements) after the reduce-scatter: those are wrong, and no
    # more. A few may miss by luck (the dropped partial sum near zero), so the count may dip.
    found = re.search(
        r"rank 0: (\d+) of 100003 elements wrong, the first at (\d+):", big["message"]
    )
    assert found, big["message"]
    assert 24_900 <= int(found[1]) <= 25_001 and int(found[2]) < 25_001


def test_a_forbidden_call_is_rejected_with_the_call_named_per_rank(request_for):
    report = judge(request_for(DRILL / "wrong" / "calls_dist_all_reduce.py", 2))
    assert report["status"] == "rejected"
    assert set(report["forbidden_calls"]) == {"0", "1"}
    assert "torch.distributed.all_reduce" in report["forbidden_calls"]["0"]
    # The verdict stops at the first case that shows the call: no time spent on the rest.
    assert len(report["cases"]) == 1
