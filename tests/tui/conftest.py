"""The TUI tests build the app with `make_app` over a small fixture bank, a temporary store,
a frozen clock, a fixed seed, an unfuzzed scheduler and no cursor blink, so that every run
(and every snapshot) sees the same screen."""

from __future__ import annotations

import asyncio
import inspect
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fsrs import Scheduler
from textual.widgets import Input

from gpuprep.sessions.clock import FrozenClock
from gpuprep.store.database import Store

#: The bank `fixture_bank` (tests/conftest.py) loads; test_signal_wrap copies it.
FIXTURE_BANK = Path(__file__).parent / "fixtures" / "bank"
START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run `async def` tests on a fresh event loop (no asyncio plugin is installed)."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
        return True
    return None


@pytest.fixture(autouse=True)
def gpuprep_home(tmp_path, monkeypatch):
    """Never touch the real user's data: settings, store and workspace live in a temporary home."""
    home = tmp_path / "home"
    monkeypatch.setenv("GPUPREP_HOME", str(home))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return home


@pytest.fixture
def clock():
    return FrozenClock(START)


@pytest.fixture
def store_path(gpuprep_home):
    return gpuprep_home / "progress.db"


@pytest.fixture
def build_app(fixture_bank, clock, store_path):
    """`build_app(practice=...)` -> an app over the fixture bank (or `bank=`); each call reopens
    the same store."""
    from gpuprep.tui.app import make_app

    stores = []

    def build(**options):
        store = Store(store_path)
        stores.append(store)
        options.setdefault("gpu", None)
        options.setdefault("bank", fixture_bank)
        return make_app(
            store=store,
            clock=clock,
            seed=7,
            scheduler=Scheduler(enable_fuzzing=False),
            cursor_blink=False,
            detect_gpu=False,
            **options,
        )

    yield build
    for store in stores:
        store.close()


async def answer_estimate(pilot, text: str) -> None:
    """Type `text` into the estimate box and press Enter, as a user answers an estimation."""
    answer_input = pilot.app.screen.query_one("#estimate-input", Input)
    answer_input.focus()
    answer_input.value = text
    await pilot.press("enter")
    await pilot.pause()
