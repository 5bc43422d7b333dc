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


#: Environment variable that speeds the mock interview's clock up for trying it: 60 makes a
#: 45-minute mock pass in 45 seconds.
CLOCK_SCALE_VARIABLE = "GPUPREP_CLOCK_SCALE"


class ScaledClock:
    """Real time sped up `scale` times from the moment it was made (a 45-minute mock in 45 s at 60)."""

    def __init__(self, scale: float, base: Clock = system_clock) -> None:
        if not scale > 0:
            raise ValueError(f"a clock scale is a positive number, not {scale}")
        self.scale = scale
        self.base = base
        self.origin = base()

    def __call__(self) -> datetime:
        return self.origin + (self.base() - self.origin) * self.scale


def clock_scale(text: str | None) -> float:
    """The speed-up `GPUPREP_CLOCK_SCALE` asks for (1 when unset); ValueError naming the variable."""
    if text is None or not text.strip():
        return 1.0
    try:
        scale = float(text)
    except ValueError:
        scale = float("nan")
    if not (scale > 0 and scale != float("inf")):
        raise ValueError(f"{CLOCK_SCALE_VARIABLE}={text!r}: give a positive number, e.g. 60")
    return scale
