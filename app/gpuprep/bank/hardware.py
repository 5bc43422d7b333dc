"""Hardware tables: the model of `hardware/<gpu>.yaml`, one file per GPU.

Every figure carries its unit and the id of the document it was read from. Derived figures
(ridge points, bytes per clock per SM) are computed here from the typed ones, never typed.

Conventions every table follows, so that one formula means the same thing on every GPU:

- Tensor rates are dense. Where the vendor prints the 2:4-sparse figure, the table keeps it in
  `sparse` and the dense `value` is half of it.
- `boost_clock` is the clock the vendor's dense tensor peaks are computed at (on Hopper that is
  below the clock of the FP32 peak; the note says so).
- On GeForce cards `bf16_dense` and `fp16_dense` are the FP32-accumulate rates, half the
  FP16-accumulate rate the marketing quotes.
- On GPUs without bf16 (T4, V100) `fp16_dense` is the half-precision tensor rate, and the bf16
  ridge point is computed from it.
- `hbm_capacity` and `hbm_bandwidth` hold device memory, GDDR included, whatever its kind.
- Link bandwidths (`nvlink_bandwidth`, `pcie_bandwidth`) are both directions added, per GPU.
- A field that does not apply (fp8 on A100, NVLink on L40S) is left out.

Beside the figures, `features` says yes or no to what a GPU can do (fp8 tensor math, TMA,
NVLink SHARP ...), each answer with its source, and `memory` names the kind of device memory
(HBM3, GDDR6 ...). Templates test them (`{% if gpu.fp8 %}`, `{% if gpu.hbm %}`), so prose
offers a feature only where the GPU has it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import Field, field_validator, model_validator

from gpuprep.bank.base import ID_PATTERN, BankModel
from gpuprep.units.quantity import Quantity, UnitError, parse_unit, quantity
from gpuprep.units.table import Dimension, dimension_name

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

#: Tensor-rate fields: the only ones where a vendor prints a 2:4-sparse figure.
TENSOR_RATE_FIELDS: frozenset[str] = frozenset(
    {"tf32_dense", "bf16_dense", "fp16_dense", "fp8_dense", "int8_dense", "fp4_dense"}
)

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
    sparse: float | None = Field(default=None, gt=0)
    """The 2:4 structured-sparse figure the vendor prints, in `unit` (tensor rates only)."""
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
    kind: Literal[
        "datasheet", "whitepaper", "guide", "product-brief", "vendor-doc", "measured", "secondary"
    ]
    """What sort of document it is."""


#: Device memory kinds; `hbm` in templates is true for the HBM ones.
MemoryKind = Literal["HBM2", "HBM2e", "HBM3", "HBM3e", "GDDR6", "GDDR6X"]


class Feature(BankModel):
    """One yes-or-no capability, with the source that says so."""

    supported: bool
    """Whether the GPU (as this table describes it) has the capability."""
    source: str
    """Id of a document in the file's `sources`."""
    note: str = ""
    """What the answer hangs on: 'on the HGX 8-GPU board only', 'FNUZ encodings' ..."""


class Features(BankModel):
    """What a GPU can do, beyond its figures; every capability is answered, yes or no.

    A template tests a capability by name (`{% if gpu.tma %}`), so prose never offers fp8 to
    an A100 or NVLink SHARP to a PCIe card.
    """

    bf16: Feature
    """BF16 tensor-core math (Ampere and later, CDNA 3; not Volta or Turing)."""
    tf32: Feature
    """TF32 tensor-core math for FP32 inputs (Ampere and later, CDNA 3)."""
    fp8: Feature
    """FP8 tensor-core math (Ada, Hopper, Blackwell; CDNA 3 with the FNUZ encodings)."""
    fp4: Feature
    """FP4 tensor-core math (Blackwell)."""
    cp_async: Feature
    """`cp.async`: asynchronous global-to-shared copies that bypass registers (compute
    capability 8.0 and later)."""
    tma: Feature
    """The Tensor Memory Accelerator: descriptor-driven bulk tensor copies (Hopper and later)."""
    clusters: Feature
    """Thread block clusters and distributed shared memory (Hopper and later)."""
    multicast: Feature
    """TMA multicast: one load delivered to the shared memory of several blocks of a cluster."""
    wgmma: Feature
    """Warpgroup MMA (`wgmma.mma_async`, sm_90a): Hopper only; Blackwell has tcgen05 instead."""
    tcgen05: Feature
    """Fifth-generation tensor-core instructions (`tcgen05.mma`) with Tensor Memory (sm_100a)."""
    nvlink: Feature
    """NVIDIA NVLink of any kind, a two-card bridge or a switch (not AMD Infinity Fabric)."""
    nvswitch: Feature
    """Every GPU of the usual multi-GPU board reaches every other at full NVLink speed through
    NVSwitch (HGX A100/H100/H200/B200 8-GPU boards)."""
    nvls: Feature
    """NVLink SHARP: reductions and multicast computed in the NVSwitch (NCCL's NVLS algorithm);
    third-generation NVSwitch and later."""
    mig: Feature
    """Multi-Instance GPU: hardware partitions with their own SMs, L2 slices and memory."""


#: The capabilities every table answers, by name.
FEATURE_NAMES: tuple[str, ...] = tuple(Features.model_fields)

#: A capability whose tensor rate must be in the table exactly when the capability is.
_FEATURE_RATES = {
    "bf16": "bf16_dense",
    "tf32": "tf32_dense",
    "fp8": "fp8_dense",
    "fp4": "fp4_dense",
}

#: A capability that cannot be there without another.
_FEATURE_NEEDS = {
    "multicast": ("tma", "clusters"),
    "clusters": ("tma",),
    "tma": ("cp_async",),
    "wgmma": ("tma",),
    "tcgen05": ("tma",),
    "nvswitch": ("nvlink",),
    "nvls": ("nvswitch",),
}


class Specs(BankModel):
    """The figures of one GPU; every rate is dense (no 2:4 sparsity)."""

    sms: Spec | None = None
    """Streaming multiprocessors enabled on the product (compute units on AMD)."""
    boost_clock: Spec | None = None
    """The clock the vendor's dense tensor peaks are computed at."""
    hbm_capacity: Spec | None = None
    """Device memory capacity (HBM, or GDDR on T4, L40S and GeForce cards)."""
    hbm_bandwidth: Spec | None = None
    """Peak device memory bandwidth (HBM or GDDR)."""
    l2_size: Spec | None = None
    """L2 cache size."""
    smem_per_sm: Spec | None = None
    """Largest shared-memory carve-out per SM (LDS per CU on AMD)."""
    smem_per_block: Spec | None = None
    """Largest shared memory one block may use (opt-in)."""
    registers_per_sm: Spec | None = None
    """32-bit registers per SM (vector registers per CU on AMD)."""
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
    """BF16 tensor rate with FP32 accumulate, dense (absent on GPUs without bf16)."""
    fp16_dense: Spec | None = None
    """FP16 tensor rate with FP32 accumulate, dense (the FP16-accumulate rate on T4/V100)."""
    fp8_dense: Spec | None = None
    """FP8 tensor rate, dense (FP32 accumulate where the vendor distinguishes)."""
    int8_dense: Spec | None = None
    """INT8 tensor rate, dense (OP/s)."""
    fp4_dense: Spec | None = None
    """FP4 tensor rate, dense."""
    nvlink_bandwidth: Spec | None = None
    """GPU-to-GPU link bandwidth per GPU, both directions added (NVLink, Infinity Fabric)."""
    pcie_bandwidth: Spec | None = None
    """Host link bandwidth, both directions added (NVIDIA's convention)."""
    tdp: Spec | None = None
    """Board power (TDP, TGP or TBP, the vendor's maximum)."""


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
    memory: MemoryKind | None = None
    """The kind of device memory: 'HBM3', 'GDDR6' ... (`hbm_capacity` holds GDDR too)."""
    features: Features | None = None
    """What the GPU can do (fp8, TMA, NVLink SHARP ...), each answer with its source."""
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
            if spec.sparse is not None:
                if name not in TENSOR_RATE_FIELDS:
                    raise ValueError(f"specs.{name}: only tensor rates have a sparse figure")
                if spec.sparse <= spec.value:
                    raise ValueError(
                        f"specs.{name}: the sparse figure {spec.sparse} must exceed the dense "
                        f"value {spec.value}; `value` is the dense rate"
                    )
        if self.features is not None:
            self._features_agree()
        return self

    def _features_agree(self) -> None:
        assert self.features is not None
        answers = {name: feature.supported for name, feature in self.features}
        for name, feature in self.features:
            if feature.source not in self.sources:
                raise ValueError(
                    f"features.{name}: source {feature.source!r} is not one of the file's "
                    f"sources ({', '.join(sorted(self.sources))})"
                )
        for name, rate in _FEATURE_RATES.items():
            has_rate = getattr(self.specs, rate) is not None
            if answers[name] != has_rate:
                raise ValueError(
                    f"features.{name} is {str(answers[name]).lower()} but specs "
                    f"{'has' if has_rate else 'has no'} {rate}; they must agree"
                )
        for name, needs in _FEATURE_NEEDS.items():
            missing = [need for need in needs if answers[name] and not answers[need]]
            if missing:
                raise ValueError(
                    f"features.{name} is true but features.{', '.join(missing)} is false; "
                    f"{name} needs {' and '.join(needs)}"
                )
        if answers["nvlink"] and self.specs.nvlink_bandwidth is None:
            raise ValueError("features.nvlink is true but specs has no nvlink_bandwidth")

    def feature(self, name: str) -> bool | None:
        """Whether the GPU has a capability (`FEATURE_NAMES`), or None where the table is silent."""
        if name == "hbm":
            return None if self.memory is None else self.memory.startswith("HBM")
        if name not in FEATURE_NAMES or self.features is None:
            return None
        return bool(getattr(self.features, name).supported)

    def matches_device_name(self, device_name: str) -> bool:
        """Whether a name the driver reports (torch.cuda.get_device_name) is this GPU."""
        wanted = device_name.strip().casefold()
        return any(alias.casefold() == wanted for alias in (self.name, *self.aliases))

    def figures(self) -> dict[str, Spec]:
        """The typed figures present in this table, by field name."""
        return {name: spec for name, spec in self.specs if spec is not None}

    def get(self, name: str) -> Quantity | None:
        """A typed or derived figure as a quantity, or None where it does not apply."""
        if name in DERIVED_FIELDS:
            return self.derived().get(name)
        if name not in FIELD_DIMENSIONS:
            return None
        spec = getattr(self.specs, name)
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
                derived["bytes_per_clock_per_sm"] = bandwidth / (
                    figures["sms"] * figures["boost_clock"]
                )
        return derived


def find_by_device_name(gpus: Iterable[Hardware], device_name: str) -> Hardware | None:
    """The table whose name or aliases match the name the driver reports, if any."""
    return next((gpu for gpu in gpus if gpu.matches_device_name(device_name)), None)
