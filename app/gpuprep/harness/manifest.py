"""The judge's own files, as they were installed: hashed at start-up against `manifest.json`.

Standard library only. A submission that managed to rewrite a harness file (or plant a
compiled `.pyc` beside one) would change every later verdict; the judge refuses to run
instead, and says which file and what to do. Run `python -m gpuprep.harness.manifest --write`
after changing a harness file or one of `OUTSIDE` (a test fails until the manifest matches).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import marshal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"
#: Files outside the harness that a judge runs (`drill_run` computes bytes and FLOPs with
#: `gpuprep.units.formulas`; the collective drill's judge and ranks live in gpuprep.collective),
#: by path from the installed gpuprep package.
OUTSIDE = (
    "units/__init__.py",
    "units/formulas.py",
    "collective/__init__.py",
    "collective/guard.py",
    "collective/inputs.py",
    "collective/judge.py",
    "collective/protocol.py",
    "collective/rank.py",
)
#: The pyc header: magic, flags, then two words of mtime/size or a source hash.
_PYC_HEADER = 16


def _judged_files(folder: Path) -> dict[str, Path]:
    """Every Python file of the harness in `folder`, by file name, then the files outside it that
    the judge runs, by path from the installed package (where the judge imports them from)."""
    files = {path.name: path for path in sorted(folder.glob("*.py"))}
    files.update({name: HERE.parent / name for name in OUTSIDE})
    return files


def current(folder: Path = HERE) -> dict[str, str]:
    """sha256 of every Python file the judge runs, by name (see `_judged_files`)."""
    return {
        name: hashlib.sha256(path.read_bytes()).hexdigest()
        for name, path in _judged_files(folder).items()
        if path.is_file()
    }


def problems(folder: Path = HERE) -> list[str]:
    """Why the installed harness is not what was shipped (empty: it is)."""
    listing = folder / MANIFEST.name
    try:
        shipped = json.loads(listing.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [f"{listing} is missing or unreadable"]
    found = current(folder)
    reasons = [
        f"{name} differs from the installed version" if name in found else f"{name} is missing"
        for name, digest in shipped.items()
        if found.get(name) != digest
    ]
    reasons += [f"{name} was added" for name in found if name not in shipped]
    reasons += [
        f"{name}'s compiled .pyc does not match its source" for name in _stale_bytecode(folder)
    ]
    return reasons


def _stale_bytecode(folder: Path) -> list[str]:
    """Harness modules whose cached bytecode is not their source compiled: Python would run it."""
    stale = []
    for name, path in _judged_files(folder).items():
        cached = Path(importlib.util.cache_from_source(str(path)))
        if not cached.exists():
            continue
        try:
            code = marshal.loads(cached.read_bytes()[_PYC_HEADER:])
            if code != compile(path.read_bytes(), str(path), "exec", dont_inherit=True):
                stale.append(name)
        except (OSError, ValueError, EOFError, TypeError, SyntaxError):
            stale.append(name)
    return stale


def refusal() -> str:
    """The message the judge gives instead of a verdict, or '' when its files are intact."""
    found = problems()
    if not found:
        return ""
    return (
        "the judge's own files are not what was installed ("
        + "; ".join(found[:5])
        + f") in {HERE}: no verdict can be trusted until gpuprep is reinstalled "
        "(pip install --force-reinstall gpuprep; in a checkout, "
        "`git status app/gpuprep/harness app/gpuprep/units` shows what changed, and a developer "
        "who meant it runs `python -m gpuprep.harness.manifest --write`)"
    )


def main() -> None:
    if sys.argv[1:] == ["--write"]:
        MANIFEST.write_text(json.dumps(current(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {MANIFEST}")
        return
    reasons = problems()
    print("\n".join(reasons) or "the harness matches its manifest")
    sys.exit(1 if reasons else 0)


if __name__ == "__main__":
    main()
