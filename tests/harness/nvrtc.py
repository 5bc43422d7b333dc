"""CUDA C to PTX without a GPU or the CUDA toolkit: NVRTC, the compiler CuPy itself uses, called
through ctypes from the `nvidia-cuda-nvrtc-cu12` wheel (in the test extra on Linux), or from a
system CUDA install.

Only the few entry points a compile needs are bound; see NVIDIA's nvrtc.h for their signatures.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
from pathlib import Path


class NvrtcError(Exception):
    """NVRTC refused the options or the source; the message carries its log."""


def _candidates() -> list[str]:
    found = [os.environ.get("GPUPREP_NVRTC", "")]
    try:
        import nvidia.cuda_nvrtc as wheel  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:
        found += [
            str(p) for d in wheel.__path__ for p in sorted(Path(d, "lib").glob("libnvrtc.so*"))
        ]
    found.append(ctypes.util.find_library("nvrtc") or "")
    return [c for c in found if c]


@functools.cache
def library() -> ctypes.CDLL | None:
    """The NVRTC library, or None where there is none."""
    for candidate in _candidates():
        try:
            lib = ctypes.CDLL(candidate)
        except OSError:
            continue
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        return lib
    return None


def version() -> tuple[int, int]:
    lib = library()
    assert lib is not None
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    return major.value, minor.value


def compile_to_ptx(source: str, name: str, arch: str = "compute_90") -> tuple[str, str]:
    """(PTX, compiler log) for `source`; raises NvrtcError with the log when it does not compile."""
    lib = library()
    if lib is None:
        raise NvrtcError("NVRTC is not installed: pip install nvidia-cuda-nvrtc-cu12")
    program = ctypes.c_void_p()
    _check(
        lib,
        lib.nvrtcCreateProgram(
            ctypes.byref(program), source.encode(), name.encode(), 0, None, None
        ),
        "",
    )
    try:
        options = [f"--gpu-architecture={arch}".encode()]
        status = lib.nvrtcCompileProgram(
            program, len(options), (ctypes.c_char_p * len(options))(*options)
        )
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(program, log)
        text = log.value.decode(errors="replace")
        _check(lib, status, text)
        lib.nvrtcGetPTXSize(program, ctypes.byref(size))
        ptx = ctypes.create_string_buffer(size.value)
        _check(lib, lib.nvrtcGetPTX(program, ptx), text)
        return ptx.value.decode(), text
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(program))


def _check(lib: ctypes.CDLL, status: int, log: str) -> None:
    if status != 0:
        raise NvrtcError(f"{lib.nvrtcGetErrorString(status).decode()}\n{log}")
