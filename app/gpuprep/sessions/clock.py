"""Time as the sessions see it: a callable returning an aware UTC datetime, so tests can freeze it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


class FrozenClock:
    """A clock that only moves when told to (tests, snapshots, the benchmark)."""

    def __init__(self, now: datetime) -> None:
        if now.tzinfo is None:
            raise ValueError("FrozenClock needs an aware UTC datetime")
        self.now = now.astimezone(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        """Move forward, e.g. `advance(days=3)`."""
        self.now += timedelta(**delta)
