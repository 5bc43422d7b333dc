"""Every rung of the reference ladder and the starter sum correctly on 2, 3 and 4 gloo ranks,
on every checked size (one element, fewer elements than ranks, odd, not divisible by N, MBs)."""

from __future__ import annotations

import pytest

from gpuprep.collective.judge import judge

from .conftest import DRILL, LADDER

FILES = [DRILL / "starter.py", *sorted(LADDER.glob("v*.py"))]


def test_the_ladder_on_disk_is_the_ladder_the_spec_names(drill):
    assert [rung.name for rung in drill.ladder] == [path.stem for path in FILES[1:]]


@pytest.mark.parametrize("ranks", [2, 3, 4])
@pytest.mark.parametrize("file", FILES, ids=lambda path: path.stem)
def test_the_rung_sums_every_size_on_every_rank(file, ranks, request_for, drill):
    report = judge(request_for(file, ranks))
    assert report["status"] == "passed", report["message"] + report["traceback"]
    assert [case["numel"] for case in report["cases"]] == [case.numel for case in drill.cases]
    assert all(case["checked"] and case["bad_ranks"] == [] for case in report["cases"])
