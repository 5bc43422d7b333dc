"""Hardware tables: the model of `hardware/<gpu>.yaml`, one file per GPU.

Every figure carries its unit and the id of the document it was read from. Derived figures
(ridge points, bytes per clock per SM) are computed here from the typed ones, never typed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from gpuprep.bank.base import ID_PATTERN, BankModel
from gpuprep.estimate.quantity import Quantity, UnitError, parse_unit, quantity
from gpuprep.estimate.units import Dimension, dimension_name

_COUNT: Dimension = (0, 0, 0, 0)
_FREQUENCY: Dimension = (-1, 0, 0, 0)
_DATA: Dimension = (0, 1, 0, 0)
_BANDWIDTH: Dimension = (-1, 1, 0, 0)
_RATE: Dimension = (-1, 0, 1, 0)
_POWER: Dimension = (-1, 0, 0, 1)

#: The dimension each field must have; the unit in the file must agree.
FIELD_DIMENSIONS: dict[str, Dimension] = {
    "sms": _COUNT,
    "boost_clock": _FREQUENCY,
    "hbm_capacity": _DATA,
    "hbm_bandwidth": _BANDWIDTH,
    "l2_size": _DATA,
    "smem_per_sm": _DATA,
    "smem_per_block": _DATA,
    "registers_per_sm": _COUNT,
    "max_threads_per_sm": _COUNT,
    "max_warps_per_sm": _COUNT,
    "max_blocks_per_sm": _COUNT,
    "warp_size": _COUNT,
    "fp64": _RATE,
    "fp32": _RATE,
    "tf32_dense": _RATE,
    "bf16_dense": _RATE,
    "fp16_dense": _RATE,
    "fp8_dense": _RATE,
    "int8_dense": _RATE,
    "fp4_dense": _RATE,
    "nvlink_bandwidth": _BANDWIDTH,
    "pcie_bandwidth": _BANDWIDTH,
    "tdp": _POWER,
}

#: Figures computed from the table: name -> (what it is, unit it is shown in).
DERIVED_FIELDS: dict[str, tuple[str, str]] = {
    "ridge_bf16": ("bf16 dense rate / HBM bandwidth", "FLOP/B"),
    "ridge_fp32": ("fp32 rate / HBM bandwidth", "FLOP/B"),
    "bytes_per_clock_per_sm": ("HBM bandwidth / (SMs x boost clock)", "B"),
}


class Spec(BankModel):
    """One figure: value, unit, and the source it was read from."""

    value: float = Field(ge=0)
    """The number, in `unit`."""
    unit: str
    """Unit string: 'TB/s', 'TFLOP/s', 'MHz', 'GB', 'MiB', 'KiB', 'W', or '1' for a count."""
    source: str
    """Id of a document in the file's `sources`."""
    note: str = ""
    """Caveats: 'dense; the datasheet prints the 2:4 sparse figure', 'per direction' ..."""

    @field_validator("unit")
    @classmethod
    def _known_unit(cls, unit: str) -> str:
        try:
            parse_unit(unit)
        except UnitError as error:
            raise ValueError(str(error)) from None
        return unit

    def quantity(self) -> Quantity:
        """The figure as a quantity in base units."""
        return quantity(self.value, self.unit)


class Source(BankModel):
    """A document figures were read from."""

    title: str
    """Its name, e.g. 'NVIDIA H100 Tensor Core GPU Architecture whitepaper v1.04'."""
    url: str = ""
    """Where to find it."""
    kind: Literal["datasheet", "whitepaper", "guide", "product-brief", "vendor-doc", "measured", "secondary"]
    """What sort of document it is."""


class Specs(BankModel):
    """The figures of one GPU; every rate is dense (no 2:4 sparsity)."""

    sms: Spec | None = None
    """Streaming multiprocessors (compute units on AMD)."""
    boost_clock: Spec | None = None
    """The clock the vendor's peak rates are computed at."""
    hbm_capacity: Spec | None = None
    """Device memory capacity (HBM, or GDDR on consumer cards)."""
    hbm_bandwidth: Spec | None = None
    """Peak device memory bandwidth."""
    l2_size: Spec | None = None
    """L2 cache size."""
    smem_per_sm: Spec | None = None
    """Largest shared-memory carve-out per SM."""
    smem_per_block: Spec | None = None
    """Largest shared memory one block may use (opt-in)."""
    registers_per_sm: Spec | None = None
    """32-bit registers per SM."""
    max_threads_per_sm: Spec | None = None
    """Resident threads per SM."""
    max_warps_per_sm: Spec | None = None
    """Resident warps (wavefronts) per SM."""
    max_blocks_per_sm: Spec | None = None
    """Resident blocks per SM."""
    warp_size: Spec | None = None
    """Threads per warp (32 on NVIDIA, 64 per wavefront on CDNA)."""
    fp64: Spec | None = None
    """FP64 rate, non-tensor."""
    fp32: Spec | None = None
    """FP32 rate, non-tensor."""
    tf32_dense: Spec | None = None
    """TF32 tensor rate, dense."""
    bf16_dense: Spec | None = None
    """BF16 tensor rate with FP32 accumulate, dense."""
    fp16_dense: Spec | None = None
    """FP16 tensor rate with FP32 accumulate, dense."""
    fp8_dense: Spec | None = None
    """FP8 tensor rate, dense."""
    int8_dense: Spec | None = None
    """INT8 tensor rate, dense (OP/s)."""
    fp4_dense: Spec | None = None
    """FP4 tensor rate, dense."""
    nvlink_bandwidth: Spec | None = None
    """GPU-to-GPU link bandwidth per GPU, both directions added (NVLink, Infinity Fabric)."""
    pcie_bandwidth: Spec | None = None
    """Host link bandwidth, both directions added (NVIDIA's convention)."""
    tdp: Spec | None = None
    """Board power."""


class Hardware(BankModel):
    """One GPU's table."""

    id: str = Field(pattern=ID_PATTERN)
    """GPU id: 'h100_sxm'; must match the file name."""
    name: str
    """Marketing name: 'NVIDIA H100 SXM5 80GB'."""
    vendor: Literal["nvidia", "amd"]
    """Who makes it."""
    architecture: str
    """Architecture: 'Hopper'."""
    compute_capability: str = ""
    """CUDA compute capability ('9.0'), or the AMD gfx target."""
    aliases: list[str] = Field(default_factory=list)
    """Names the device reports (torch.cuda.get_device_name), for auto-detection."""
    sources: dict[str, Source] = Field(min_length=1)
    """The documents figures were read from, by id."""
    specs: Specs
    """The figures."""
    notes: list[str] = Field(default_factory=list)
    """Caveats worth knowing when estimating on this GPU."""

    @model_validator(mode="after")
    def _units_and_sources_agree(self) -> Hardware:
        for name, spec in self.figures().items():
            _scale, dimension = parse_unit(spec.unit)
            expected = FIELD_DIMENSIONS[name]
            if dimension != expected:
                raise ValueError(
                    f"specs.{name}: unit {spec.unit!r} is {dimension_name(dimension)}, "
                    f"expected {dimension_name(expected)}"
                )
            if spec.source not in self.sources:
                raise ValueError(
                    f"specs.{name}: source {spec.source!r} is not one of the file's sources "
                    f"({', '.join(sorted(self.sources))})"
                )
        return self

    def figures(self) -> dict[str, Spec]:
        """The typed figures present in this table, by field name."""
        return {name: spec for name, spec in self.specs if spec is not None}

    def get(self, name: str) -> Quantity | None:
        """A typed or derived figure as a quantity, or None where it does not apply."""
        if name in DERIVED_FIELDS:
            return self.derived().get(name)
        spec = getattr(self.specs, name, None)
        return spec.quantity() if spec is not None else None

    def derived(self) -> dict[str, Quantity]:
        """Ridge points and bytes per clock per SM, computed from the typed figures."""
        figures = {name: spec.quantity() for name, spec in self.figures().items()}
        bandwidth = figures.get("hbm_bandwidth")
        derived: dict[str, Quantity] = {}
        if bandwidth is not None:
            if "bf16_dense" in figures:
                derived["ridge_bf16"] = figures["bf16_dense"] / bandwidth
            elif "fp16_dense" in figures:
                # Turing and Volta have no bf16; their half-precision ridge stands in.
                derived["ridge_bf16"] = figures["fp16_dense"] / bandwidth
            if "fp32" in figures:
                derived["ridge_fp32"] = figures["fp32"] / bandwidth
            if "sms" in figures and "boost_clock" in figures:
                derived["bytes_per_clock_per_sm"] = bandwidth / (figures["sms"] * figures["boost_clock"])
        return derived
