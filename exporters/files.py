"""Writing an export: the output path checked before the work, the file replaced atomically.

A failed export never leaves a half-written file where a good one was: the bytes go to a
temporary file beside the target, which replaces it only when complete.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from gpuprep.exporters.view import ExportError

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank


def check_output(path: Path) -> Path:
    """The absolute output path, or :class:`ExportError` (usage) saying why it cannot be written."""
    path = Path(path).expanduser()
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise ExportError(f"-o {path}: that is a folder; give a file name", usage=True)
    if not folder.exists():
        raise ExportError(f"-o {path}: the folder {folder} does not exist", usage=True)
    if not folder.is_dir():
        raise ExportError(f"-o {path}: {folder} is not a folder", usage=True)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ExportError(f"-o {path}: cannot write in {folder} (permission denied)", usage=True)
    if path.exists() and not os.access(path, os.W_OK):
        raise ExportError(f"-o {path}: the file is read-only", usage=True)
    return path.absolute()


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder, then rename it over."""
    folder = path.parent
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".part")
    except OSError as error:
        raise ExportError(f"cannot write {path}: {error.strerror or error}", usage=True) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise ExportError(f"cannot write {path}: {error.strerror or error}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def bank_timestamp(bank: Bank) -> int:
    """When the export's content last changed, in Unix seconds: `SOURCE_DATE_EPOCH` when set,
    else the newest modification time of the bank's files and of the exporters' code.

    The same bank gives the same bytes; an edited bank gives a later time, which Anki needs to
    update the notes it already has (it keeps the newer of two copies).
    """
    fixed = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if fixed.isdigit():
        return int(fixed)
    newest = 0.0
    sources = [*bank.line_maps, *Path(__file__).parent.glob("*.py")]
    for source in sources:
        try:
            newest = max(newest, source.stat().st_mtime)
        except OSError:
            continue
    return int(newest)
