"""A stand-in for the part of CuPy the drills use: RawKernel runs the CUDA source on CPU threads.

The source is compiled with g++ against emu.h into a small shared library, with one
`emu_<kernel>` entry that takes the grid, the block and the arguments as 64-bit words; the
drill's own host wrapper (grid sizes, pointer offsets, argument types) runs unchanged.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import re
import struct
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
_BUILD = Path(tempfile.mkdtemp(prefix="gpuprep-emu-"))


def _scalar(value: int) -> int:
    return int(value)


uint64 = int64 = uint32 = int32 = _scalar


def float32(value: float) -> int:
    """A float argument (layernorm's eps) travels as its 32 bits, unpacked by the wrapper."""
    return int(struct.unpack("<I", struct.pack("<f", value))[0])


class _Cuda:
    @staticmethod
    @contextlib.contextmanager
    def ExternalStream(handle: int):  # noqa: N802 - CuPy's name
        yield handle


cuda = _Cuda()


def _parameters(source: str, name: str) -> list[str]:
    match = re.search(rf"\b{re.escape(name)}\s*\(([^)]*)\)\s*\{{", source)
    if match is None:
        raise ValueError(f"no kernel {name} in the source")
    return [p.strip() for p in match.group(1).split(",") if p.strip()]


def _unpack(index: int, parameter: str) -> str:
    declared = re.sub(r"\b\w+\s*$", "", parameter).strip()  # drop the argument's name
    if "*" in declared:
        return f"reinterpret_cast<{declared}>(argv[{index}])"
    if declared == "float":
        return f"__builtin_bit_cast(float, static_cast<uint32_t>(argv[{index}]))"
    return f"static_cast<{declared}>(static_cast<int64_t>(argv[{index}]))"


class RawKernel:
    def __init__(self, source: str, name: str) -> None:
        params = _parameters(source, name)
        args = ", ".join(_unpack(i, p) for i, p in enumerate(params))
        wrapper = (
            f'#include "{HERE / "emu.h"}"\n{source}\n'
            f'extern "C" void emu_{name}(unsigned gx, unsigned gy, unsigned gz, unsigned bx, '
            f"unsigned by, unsigned bz, const uint64_t* argv) {{\n"
            f"    emu_launch(dim3{{gx, gy, gz}}, dim3{{bx, by, bz}}, [=] {{ {name}({args}); }});\n}}\n"
        )
        digest = hashlib.sha256(wrapper.encode()).hexdigest()[:16]
        library = _BUILD / f"{name}-{digest}.so"
        if not library.exists():
            cpp = library.with_suffix(".cpp")
            cpp.write_text(wrapper)
            done = subprocess.run(
                [
                    "g++",
                    "-std=c++20",
                    "-O1",
                    "-shared",
                    "-fPIC",
                    "-pthread",
                    "-o",
                    str(library),
                    str(cpp),
                ],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise RuntimeError(f"emulated compile of {name} failed:\n{done.stderr[-3000:]}")
        self._function = getattr(ctypes.CDLL(str(library)), f"emu_{name}")
        self._arity = len(params)

    def __call__(self, grid: tuple, block: tuple, args: tuple) -> None:
        if len(args) != self._arity:
            raise TypeError(f"kernel takes {self._arity} arguments, got {len(args)}")
        grid, block = (tuple(grid) + (1, 1))[:3], (tuple(block) + (1, 1))[:3]
        argv = (ctypes.c_uint64 * max(len(args), 1))(*[a & (2**64 - 1) for a in args])
        self._function(*map(ctypes.c_uint, grid), *map(ctypes.c_uint, block), argv)
