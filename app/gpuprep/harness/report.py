"""The verdict a candidate reads, typed: `SubmitReport`, `BenchReport` and the lines they hold.

App side, standard library only (no pydantic: these records also reach scripts and the store
as plain JSON). `harness.api` builds them once from the judge's events, with the figures of
`harness.figures`; the CLI, the TUI and the sessions only read them. `to_json()` is what
`gpuprep submit --json` and `bench --json` print and what the store keeps, with the fields'
names; `from_json()` reads such a document back (a stored result, a committed benchmark run).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, TypedDict, cast

from gpuprep.harness.sanitizer import SanitizerResult

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

JSON = dict[str, Any]


def _plain(pairs: list[tuple[str, Any]]) -> JSON:
    return {key: value.value if isinstance(value, Enum) else value for key, value in pairs}


class Record:
    """A report's part that prints as JSON with its fields' names, in their order."""

    def to_json(self) -> JSON:
        return asdict(cast("DataclassInstance", self), dict_factory=_plain)


class Status(StrEnum):
    """A kernel's verdict, in the judge's words."""

    PASSED = "passed"
    FAILED = "failed"
    """Wrong output, or the file did not load or define the entry function."""
    REJECTED = "rejected"
    """Broke a rule: a forbidden op, a borrowed rung, faster than the memory allows."""
    CRASHED = "crashed"
    """The call faulted, or the sandbox or the judge died."""
    TIMEOUT = "timeout"
    SKIPPED = "skipped"
    """Not runnable here: a CUDA (CuPy) kernel on a machine without a CUDA GPU."""
    NOT_RUN = "not run"
    """The run stopped before this kernel (bench only)."""


class Mode(StrEnum):
    """Where the judge ran: timed on a CUDA GPU, or checked on a CPU through Triton's interpreter."""

    GPU = "gpu"
    CPU = "cpu"


class Device(TypedDict, total=False):
    """The device the judge ran on, as it described it (passed through untouched)."""

    kind: str
    """'cuda' or 'cpu'."""
    name: str
    """The driver's name for the GPU ('NVIDIA H200'), or 'CPU (Triton interpreter)'."""
    torch: str
    triton: str | None
    cuda: str | None
    compute_capability: str
    sms: int
    l2_bytes: int
    memory_bytes: int
    interpreter: bool


@dataclass(frozen=True)
class Ceilings:
    """What the achieved figures are compared with, in bytes/s and FLOP/s."""

    gpu_id: str | None = None
    """The hardware table matching the judge's device, if one does."""
    datasheet_bandwidth: float | None = None
    datasheet_flops: float | None = None
    calibrated_bandwidth: float | None = None
    """The copy bandwidth `gpuprep hw calibrate` measured on this GPU."""
    datasheet_tensor_flops: dict[str, float] = field(default_factory=dict)
    """Input dtype -> the datasheet's dense tensor-core peak in FLOP/s (see TENSOR_PEAKS): the
    ceiling of the judge's speed-of-light verdict on FLOPs."""
    calibrated_tensor_flops: dict[str, float] = field(default_factory=dict)
    """Input dtype -> the matrix rate `gpuprep hw calibrate` measured (bf16 only so far)."""


#: The hardware table's figure that bounds a kernel's FLOP rate per input dtype: the dense
#: tensor-core peak, TF32's for float32 inputs (the fastest any fp32 product may legally run).
TENSOR_PEAKS = {"bfloat16": "bf16_dense", "float16": "fp16_dense", "float32": "tf32_dense"}


@dataclass(frozen=True)
class Timing(Record):
    """The timer's summary of one kernel on one shape (fresh inputs, L2 flushed, CUDA events)."""

    median_ms: float
    p10_ms: float
    p90_ms: float
    cv: float
    """Coefficient of variation of the timed calls."""
    runs: int
    """Timed calls behind the figures."""

    @classmethod
    def from_json(cls, data: JSON | None) -> Timing | None:
        if not data:
            return None
        median = float(data["median_ms"])
        return cls(
            median_ms=median,
            p10_ms=float(data.get("p10_ms") or median),
            p90_ms=float(data.get("p90_ms") or median),
            cv=float(data.get("cv") or 0.0),
            runs=int(data.get("runs") or 0),
        )


@dataclass(frozen=True)
class PeakShare(Record):
    """Achieved bandwidth as a percentage of each ceiling; None where that ceiling is unknown."""

    datasheet: float | None = None
    """Of the hardware table's HBM bandwidth."""
    copy_this_run: float | None = None
    """Of a device-to-device copy timed in the same run: the practical ceiling."""
    calibrated: float | None = None
    """Of the copy measured by `gpuprep hw calibrate`."""

    @classmethod
    def from_json(cls, data: JSON | None) -> PeakShare:
        data = data or {}
        return cls(data.get("datasheet"), data.get("copy_this_run"), data.get("calibrated"))


@dataclass(frozen=True)
class Mismatch(Record):
    """The first element that is wrong, where and by how much."""

    index: list[int]
    got: float | str
    """The value read back ('nan' or 'inf' as text)."""
    expected: float | str


@dataclass(frozen=True)
class CaseCheck(Record):
    """One correctness case: a shape, a dtype and a value distribution, checked by the judge."""

    dims: dict[str, int]
    dtype: str
    distribution: str
    ok: bool
    params: dict[str, bool | int | float] = field(default_factory=dict)
    """The scalar params the entry was called with ({'causal': True}); {} without params."""
    problem: str = ""
    """Why the case failed ('' when it passed)."""
    rel_err: float | None = None
    """Norm error relative to the reference's norm."""
    max_abs_err: float | None = None
    first_mismatch: Mismatch | None = None

    @classmethod
    def from_json(cls, data: JSON) -> CaseCheck:
        mismatch = data.get("first_mismatch")
        return cls(
            dims=data.get("dims") or {},
            dtype=data.get("dtype", ""),
            distribution=data.get("distribution", ""),
            ok=bool(data.get("ok")),
            params=dict(data.get("params") or {}),
            problem=data.get("problem") or "",
            rel_err=data.get("rel_err"),
            max_abs_err=data.get("max_abs_err"),
            first_mismatch=Mismatch(mismatch["index"], mismatch["got"], mismatch["expected"])
            if mismatch
            else None,
        )


@dataclass(frozen=True)
class ShapeLine(Record):
    """One kernel's figures on one benchmark shape (the headline shape first)."""

    label: str
    dims: dict[str, int] | None
    status: Status
    message: str = ""
    params: dict[str, bool | int | float] = field(default_factory=dict)
    """The scalar params this shape is timed with ({'causal': False})."""
    median_ms: float | None = None
    gbps: float | None = None
    tflops: float | None = None
    pct_of_peak: PeakShare = field(default_factory=PeakShare)
    flags: list[str] = field(default_factory=list)
    speedup_vs_previous: float | None = None
    """Against the previous rung of the same track on this shape (bench only)."""

    @classmethod
    def from_json(cls, data: JSON) -> ShapeLine:
        return cls(
            label=data.get("label", ""),
            dims=data.get("dims"),
            status=Status(data.get("status", "failed")),
            message=data.get("message") or "",
            params=dict(data.get("params") or {}),
            median_ms=data.get("median_ms"),
            gbps=data.get("gbps"),
            tflops=data.get("tflops"),
            pct_of_peak=PeakShare.from_json(data.get("pct_of_peak")),
            flags=list(data.get("flags") or []),
            speedup_vs_previous=data.get("speedup_vs_previous"),
        )


@dataclass(frozen=True)
class KernelLine(Record):
    """One kernel of a run: a ladder rung, the vendor op, the copy baseline (or a bench row)."""

    name: str
    status: Status
    role: str | None = None
    """'rung', 'vendor', 'copy' or 'submission'."""
    language: str | None = None
    """'triton', 'cuda' or 'torch' (the vendor op and the copy)."""
    message: str = ""
    median_ms: float | None = None
    """The headline shape's median; None when it was not timed."""
    gbps: float | None = None
    tflops: float | None = None
    pct_of_peak: PeakShare = field(default_factory=PeakShare)
    flags: list[str] = field(default_factory=list)
    timing: Timing | None = None
    shapes: list[ShapeLine] = field(default_factory=list)
    """Every benchmark shape, the headline first."""
    cases: int | None = None
    """Correctness cases checked (None when none ran)."""
    speedup_vs_previous: float | None = None
    """Against the previous timed rung of the same track (bench only)."""

    @classmethod
    def from_json(cls, data: JSON | None) -> KernelLine | None:
        if not data:
            return None
        return cls(
            name=data.get("name", ""),
            status=Status(data.get("status", "failed")),
            role=data.get("role"),
            language=data.get("language"),
            message=data.get("message") or "",
            median_ms=data.get("median_ms"),
            gbps=data.get("gbps"),
            tflops=data.get("tflops"),
            pct_of_peak=PeakShare.from_json(data.get("pct_of_peak")),
            flags=list(data.get("flags") or []),
            timing=Timing.from_json(data.get("timing")),
            shapes=[ShapeLine.from_json(shape) for shape in data.get("shapes") or []],
            cases=data.get("cases"),
            speedup_vs_previous=data.get("speedup_vs_previous"),
        )


@dataclass(frozen=True)
class Achieved(Record):
    """What the submission reached on the headline shape."""

    gbps: float | None
    tflops: float | None
    bytes: float | None
    """Bytes the drill's formula says one call moves at this shape."""
    shape: dict[str, int] | None


@dataclass(frozen=True)
class SubmitReport(Record):
    """One submission, checked (and on a GPU, timed beside the ladder): what `gpuprep submit` shows."""

    drill: str
    file: str
    status: Status
    message: str = ""
    """Why it did not pass ('' when it did)."""
    language: str = "triton"
    """The track it is placed on: 'cuda' when the file compiles CUDA C through CuPy."""
    mode: Mode | None = None
    """None when the judge never said where it ran."""
    device: Device = field(default_factory=Device)
    checks: list[CaseCheck] = field(default_factory=list)
    traceback: str = ""
    timing: Timing | None = None
    """The headline shape's timing; None unless it passed on a GPU."""
    achieved: Achieved | None = None
    pct_of_peak: PeakShare | None = None
    gpu: str | None = None
    """The hardware table the percentages use (None: this run's copy only)."""
    shapes: list[ShapeLine] = field(default_factory=list)
    ladder: list[KernelLine] = field(default_factory=list)
    vendor: KernelLine | None = None
    copy: KernelLine | None = None
    placement: str = ""
    """Where the time sits on the ladder of its language's track, and the next rung to study."""
    flags: list[str] = field(default_factory=list)
    """Suspicions worth a look (a time faster than the memory allows, work outside the stream)."""
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """The source lint's coaching: patterns that often mean work done outside the kernel."""
    sanitizer: SanitizerResult | None = None
    """What compute-sanitizer found (`submit --sanitize` only)."""

    @property
    def passed(self) -> bool:
        return self.status is Status.PASSED

    def to_json(self) -> JSON:
        """The document `gpuprep submit --json` prints (its keys are a script's contract)."""
        document = asdict(self, dict_factory=_plain)
        if self.pct_of_peak is not None:
            document["pct_of_peak"]["gpu"] = self.gpu
        return document

    @classmethod
    def from_json(cls, data: JSON) -> SubmitReport:
        achieved = data.get("achieved")
        pct = data.get("pct_of_peak")
        return cls(
            drill=data.get("drill", ""),
            file=data.get("file", ""),
            status=Status(data.get("status") or "crashed"),
            message=data.get("message") or "",
            language=data.get("language") or "triton",
            mode=Mode(data["mode"]) if data.get("mode") else None,
            device=_device(data),
            checks=[CaseCheck.from_json(check) for check in data.get("checks") or []],
            traceback=data.get("traceback") or "",
            timing=Timing.from_json(data.get("timing")),
            achieved=None
            if not achieved
            else Achieved(
                achieved.get("gbps"),
                achieved.get("tflops"),
                achieved.get("bytes"),
                achieved.get("shape"),
            ),
            pct_of_peak=PeakShare.from_json(pct) if pct else None,
            gpu=(pct or {}).get("gpu"),
            shapes=[ShapeLine.from_json(shape) for shape in data.get("shapes") or []],
            ladder=[line for line in map(KernelLine.from_json, data.get("ladder") or []) if line],
            vendor=KernelLine.from_json(data.get("vendor")),
            copy=KernelLine.from_json(data.get("copy")),
            placement=data.get("placement") or "",
            flags=list(data.get("flags") or []),
            notes=list(data.get("notes") or []),
            warnings=list(data.get("warnings") or []),
            sanitizer=SanitizerResult.from_json(data.get("sanitizer")),
        )


@dataclass(frozen=True)
class BenchReport(Record):
    """Every rung of a drill's ladder and the vendor op side by side: what `gpuprep bench` shows."""

    drill: str
    mode: Mode | None
    device: Device = field(default_factory=Device)
    gpu: str | None = None
    """The hardware table the percentages use."""
    shape: dict[str, int] | None = None
    """The headline benchmark shape."""
    rungs: list[KernelLine] = field(default_factory=list)
    """The ladder's rungs (and any extra kernels), in ladder order."""
    vendor: KernelLine | None = None
    copy: KernelLine | None = None
    problem: str = ""
    """Why the run did not finish ('' when it did)."""
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[KernelLine]:
        """Rungs that neither passed nor were skipped."""
        return [r for r in self.rungs if r.status not in (Status.PASSED, Status.SKIPPED)]

    def to_json(self) -> JSON:
        """The document `gpuprep bench --json` prints."""
        return asdict(self, dict_factory=_plain)

    @classmethod
    def from_json(cls, data: JSON) -> BenchReport:
        return cls(
            drill=data.get("drill", ""),
            mode=Mode(data["mode"]) if data.get("mode") else None,
            device=_device(data),
            gpu=data.get("gpu"),
            shape=data.get("shape"),
            rungs=[row for row in map(KernelLine.from_json, data.get("rungs") or []) if row],
            vendor=KernelLine.from_json(data.get("vendor")),
            copy=KernelLine.from_json(data.get("copy")),
            problem=data.get("problem") or "",
            notes=list(data.get("notes") or []),
        )


def _device(data: JSON) -> Device:
    return cast(Device, dict(data.get("device") or {}))
