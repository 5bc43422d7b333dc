"""Words in messages: counted nouns ("1 plan", "3 plans", never "plan(s)") and unknown names
with the nearest known ones."""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """`number` and the noun agreeing with it: counted(1, "card") == "1 card"."""
    noun = singular if number == 1 else (plural or singular + "s")
    return f"{number} {noun}"


def _folded(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def match_name(value: str, known: Iterable[str]) -> str | None:
    """The known name `value` means, ignoring case and '-' for '_' ('H100-SXM' is h100_sxm)."""
    wanted = _folded(value)
    for name in known:
        if _folded(name) == wanted:
            return name
    return None


def did_you_mean(value: str, known: Iterable[str], most: int = 3) -> str:
    """'; did you mean h200?' naming up to `most` close known names, the closest first, or ''."""
    near = get_close_matches(_folded(value), sorted(known), n=most, cutoff=0.6)
    return f"; did you mean {' or '.join(near)}?" if near else ""


def unknown_name(what: str, value: str, known: Iterable[str]) -> str:
    """'unknown GPU 'h20'; did you mean h200? known: ...': the closest names first, then all."""
    names = sorted(known)
    hint = did_you_mean(value, names)
    return f"unknown {what} {value!r}{hint} (known: {', '.join(names) or 'none'})"
