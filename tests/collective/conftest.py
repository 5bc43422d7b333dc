"""Collective drill tests: the judge runs in this process and forks gloo ranks on the CPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuprep.collective.protocol import Request
from gpuprep.collective.spec import CollectiveDrill, load_collective, to_request

ROOT = Path(__file__).resolve().parents[2]
DRILL = ROOT / "drills" / "all_reduce"
LADDER = ROOT / "kernels_ref" / "all_reduce"
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def drill() -> CollectiveDrill:
    return load_collective(DRILL / "collective.yaml")


@pytest.fixture
def request_for(drill: CollectiveDrill):
    """A CPU request for a file on N ranks, with a short per-case timeout for the tests."""

    def make(file: Path, ranks: int, case_timeout_s: float = 20.0) -> Request:
        return to_request(
            drill,
            file,
            ranks=ranks,
            device="cpu",
            case_timeout_s=case_timeout_s,
            startup_timeout_s=60.0,
        )

    return make
