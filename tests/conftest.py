"""Every test runs with its own gpuprep home: the real user's settings and store are never read.

The banks and the store that many files set up the same way live here, once."""

from pathlib import Path

import pytest
from fsrs import Scheduler

from gpuprep.bank.loader import load_bank
from gpuprep.sessions.mock_plan import MockPlan, MockSection
from gpuprep.sessions.practice import PracticeFilter, PracticeSession
from gpuprep.store.database import Store

FIXTURE_BANK = Path(__file__).parent / "tui" / "fixtures" / "bank"


@pytest.fixture(autouse=True)
def isolated_gpuprep_home(tmp_path_factory, monkeypatch):
    # A GPU saved in a developer's settings would otherwise change what `show` and `answer` use.
    home = tmp_path_factory.mktemp("gpuprep-home")
    monkeypatch.setenv("GPUPREP_HOME", str(home))
    return home


@pytest.fixture(scope="module")
def builtin_bank():
    """The built-in bank; a test that uses it fails if any of its files has a problem."""
    bank, problems = load_bank(None)
    assert problems == [], problems
    return bank


@pytest.fixture(scope="session")
def fixture_bank():
    """The small bank under tests/tui/fixtures/bank, without the built-in one."""
    bank, problems = load_bank([FIXTURE_BANK], builtin=False)
    assert problems == [], problems
    return bank


@pytest.fixture
def store(tmp_path):
    """An empty progress store in the test's temporary folder, closed after the test."""
    opened = Store(tmp_path / "progress.db")
    yield opened
    opened.close()


@pytest.fixture
def practice_session(store):
    """`practice_session(bank, clock, topic=..., new_per_day=...)`: a practice session on the
    test's store with seed 1 and an unfuzzed scheduler, so its order and intervals repeat."""

    def start(bank, clock, **fields):
        # Without new_per_day the session keeps its own default cap, as the app does.
        options = {"new_per_day": fields.pop("new_per_day")} if "new_per_day" in fields else {}
        return PracticeSession(
            bank,
            store,
            PracticeFilter(**fields),
            clock=clock,
            seed=1,
            scheduler=Scheduler(enable_fuzzing=False),
            **options,
        )

    return start


@pytest.fixture
def mock_plan(builtin_bank) -> MockPlan:
    """A 45-minute general mock of three short sections from the built-in bank: a roofline
    warm-up (5 min), the GEMV time estimate `roofline-gemv-time` (10) and a debugging scenario (8)."""
    questions = builtin_bank.questions.values()
    warm_up = next(q.id for q in questions if q.kind == "concept" and q.topic == "roofline")
    scenario = next(q.id for q in questions if q.kind == "debugging")
    return MockPlan(
        minutes=45,
        track="general",
        level=None,
        seed=3,
        weak_topics=(),
        sections=(
            MockSection("concept", "Warm-up concepts", (warm_up,), 5),
            MockSection("estimation", "Estimation", ("roofline-gemv-time",), 10),
            MockSection("debugging", "Debugging scenario", (scenario,), 8),
        ),
    )
