"""The memory the judge and the sandbox share: inputs, guard bands and the output slot.

Torch and the standard library only. The judge allocates one flat byte arena (CUDA memory
shared once through an IPC handle, or shared anonymous memory inherited by the sandbox on a
CPU), writes each case's fresh inputs into it between guard bands, and names slots by
offset. The sandbox builds views over the same bytes; after the call it copies the output
into the output slot. A write past the end of an input lands in a band, which the judge
checks after every call.
"""

from __future__ import annotations

import math
import mmap

import torch

from gpuprep.harness.protocol import OutputSlot, Slot

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
#: Bytes of guard band on each side of every input: a kernel's block overrun lands here.
BAND = 4096
#: Offsets are aligned for vector loads and TMA descriptors.
ALIGN = 256
#: The byte the bands are filled with: all-ones bytes are NaN in every float dtype, so a kernel
#: that reads past the end of an input gets NaN, not a plausible number.
SENTINEL = 0xFF


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).replace("torch.", "")


def _aligned(offset: int) -> int:
    return (offset + ALIGN - 1) // ALIGN * ALIGN


def case_bytes(input_shapes: list[tuple[int, ...]], output_shape: tuple[int, ...], itemsize: int) -> int:
    """Arena bytes one case needs: every input between bands, and the output slot."""
    total = 0
    for shape in input_shapes:
        total = _aligned(total + BAND) + math.prod(shape) * itemsize + BAND
    return _aligned(total) + math.prod(output_shape) * itemsize + ALIGN


class Arena:
    """The judge's side: owns the bytes, lays out cases, checks the bands."""

    def __init__(self, nbytes: int, device: torch.device) -> None:
        self.device = device
        self.nbytes = _aligned(max(nbytes, ALIGN))
        if device.type == "cuda":
            self.bytes = torch.empty(self.nbytes, dtype=torch.uint8, device=device)
        else:
            # MAP_SHARED and anonymous: the sandbox, forked later, sees the same pages.
            self._map = mmap.mmap(-1, self.nbytes, flags=mmap.MAP_SHARED)
            self.bytes = torch.frombuffer(self._map, dtype=torch.uint8)
        self._bands: list[tuple[int, int]] = []

    def layout(
        self, input_shapes: list[tuple[int, ...]], dtype: str, output_shape: tuple[int, ...]
    ) -> tuple[list[Slot], OutputSlot]:
        """Slots for one case's inputs, each between two bands, and the output slot after them."""
        itemsize = torch.empty((), dtype=DTYPES[dtype]).element_size()
        slots: list[Slot] = []
        self._bands = []
        offset = 0
        for shape in input_shapes:
            start = _aligned(offset + BAND)
            size = math.prod(shape) * itemsize
            self._bands += [(start - BAND, start), (start + size, start + size + BAND)]
            slots.append({"offset": start, "shape": list(shape), "dtype": dtype})
            offset = start + size + BAND
        out_offset = _aligned(offset)
        capacity = self.nbytes - out_offset
        if capacity < math.prod(output_shape) * itemsize:
            raise ValueError("the arena is too small for this case (a harness bug)")
        return slots, {"offset": out_offset, "capacity": capacity}

    def view(self, slot: Slot) -> torch.Tensor:
        return view(self.bytes, slot)

    def output(self, slot: OutputSlot, shape: list[int], dtype: str) -> torch.Tensor:
        """A private copy of what the sandbox put in the output slot."""
        return self.view({"offset": slot["offset"], "shape": shape, "dtype": dtype}).clone()

    def arm_bands(self) -> None:
        for start, end in self._bands:
            self.bytes[start:end].fill_(SENTINEL)

    def band_problem(self, names: list[str]) -> str:
        """'' when every band still holds the sentinel, else which input was overrun."""
        for index, (start, end) in enumerate(self._bands):
            touched = int((self.bytes[start:end] != SENTINEL).sum())
            if touched:
                where = "before the start" if index % 2 == 0 else "past the end"
                return f"wrote {touched} byte(s) {where} of input {names[index // 2]}"
        return ""


def view(arena_bytes: torch.Tensor, slot: Slot) -> torch.Tensor:
    """A tensor over `slot`'s bytes of the arena (both processes build views this way)."""
    dtype = DTYPES[slot["dtype"]]
    itemsize = torch.empty((), dtype=dtype).element_size()
    count = math.prod(slot["shape"])
    raw = arena_bytes[slot["offset"] : slot["offset"] + count * itemsize]
    return raw.view(dtype).view(slot["shape"])
