"""Drills: the model of `drills/<id>/drill.yaml`, a kernel to write and its reference ladder.

The model holds everything the harness needs to check and time a submission: how inputs are
drawn (shapes with odd sizes, dtypes, value distributions with the op's numeric traps), which
reference computes the truth, the tolerance per dtype, the bytes and FLOPs as formulas over
the shape, the ops a submission may not call, and the ladder. The worker process never sees
this model: `to_worker_spec` turns it into plain JSON, because the GPU machine may lack pydantic.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from gpuprep.bank.base import ID_PATTERN, BankModel
from gpuprep.units.formulas import FormulaError, check_formula

DType = Literal["float32", "bfloat16", "float16"]
Distribution = Literal["normal", "uniform", "row_shifted", "neg_inf_sprinkled"]
Reference = Literal[
    "vector_add", "reduce_sum", "softmax", "transpose", "matmul", "attention", "layernorm", "cumsum"
]
ErrorScale = Literal["output_norm", "input_abs_sum", "running_abs_sum"]
Method = Literal["tensor_cores", "shared_memory"]
#: A scalar argument's value: YAML's true/false, integers and floats (1.0e-5).
ParamValue = bool | int | float


class Rung(BankModel):
    """One step of the reference ladder."""

    name: str = Field(pattern=r"^v\d+_[a-z0-9_]+$")
    """Module name under kernels_ref/<drill>/, e.g. 'v2_shared'."""
    summary: str
    """One line: what this rung changes and why it is faster."""
    language: Literal["triton", "cuda"] = "triton"
    """The rung's track: a ladder holds a Triton track and, where the story is CUDA's (shared-memory
    padding, shuffles), a CUDA C track through CuPy. Each rung beats the one before it on its own
    track, and a submission is placed on the track of its language. Triton rungs run everywhere
    (the interpreter on a CPU); CUDA rungs need a GPU."""
    requires: list[Method] = Field(default_factory=list)
    """Methods this rung's compiled code must show, e.g. ['shared_memory'] for the tiled rung:
    on a GPU the judge reads the PTX of every kernel the rung launched and flags a rung whose
    instructions lack the method (see `Drill.requires`)."""


class Input(BankModel):
    """One argument of the entry function, as the harness generates it."""

    name: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    """Argument name, e.g. 'x'."""
    shape: list[str] = Field(min_length=1)
    """Dimensions as symbols bound by each case, e.g. ['rows', 'cols'], ['cols'] for a
    layernorm weight, ['batch', 'heads', 'seq', 'dim'] for attention."""
    distribution: str | None = None
    """The name of one of the drill's distributions that this input is always drawn from
    (a layernorm weight near 1, a small bias); without it, the input follows each case's
    distribution. A distribution an input names is that input's own: cases do not cycle
    through it."""


class Param(BankModel):
    """A scalar argument of the entry function, passed after the inputs in declared order:
    `attention(q, k, v, causal)`, `layernorm(x, weight, bias, eps)`."""

    name: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    """Argument name, e.g. 'causal'; formulas may use it (true is 1, false is 0)."""
    values: list[ParamValue] = Field(min_length=1)
    """The values checked: every correctness case runs with each, unless its shape fixes one."""


class ValueDistribution(BankModel):
    """How input values are drawn; each correctness case is repeated for every distribution."""

    name: str
    """Short label shown in the report: 'normal', 'large_rows'."""
    kind: Distribution
    """normal(mean, std); uniform[low, high); row_shifted: normal(0, std) plus a random offset per
    row of magnitude up to `shift` (large-magnitude rows); neg_inf_sprinkled: normal with a
    `fraction` of entries set to -inf (masked positions), never a whole row."""
    mean: float = 0.0
    """Mean of the normal kinds."""
    std: float = 1.0
    """Standard deviation of the normal kinds."""
    low: float = -1.0
    """Lower bound of `uniform`."""
    high: float = 1.0
    """Upper bound of `uniform` (excluded)."""
    shift: float = 0.0
    """Largest per-row offset of `row_shifted`."""
    fraction: float = Field(default=0.0, ge=0.0, lt=1.0)
    """Share of entries set to -inf by `neg_inf_sprinkled`."""
    dtypes: list[DType] | None = None
    """Only cases in these dtypes draw from it (default: every dtype of the drill): a trap that
    one dtype cannot represent (a spread of 1 on rows near 1000 is one or two bf16 steps of 4)."""


class Shape(BankModel):
    """A case: a value for every shape symbol."""

    label: str = ""
    """Why this shape is here: 'odd tail', 'one element', 'wider than a block'."""
    dims: dict[str, int]
    """Symbol -> size."""
    params: dict[str, ParamValue] = Field(default_factory=dict)
    """Param name -> the one value this shape runs with, e.g. {causal: true}; a param not named
    here runs with each of its values. Benchmark shapes fix every param with more than one."""

    @field_validator("dims")
    @classmethod
    def _positive(cls, dims: dict[str, int]) -> dict[str, int]:
        for symbol, size in dims.items():
            if size < 1:
                raise ValueError(f"dimension {symbol} must be at least 1, got {size}")
        return dims


class Drill(BankModel):
    """A kernel drill."""

    id: str = Field(pattern=ID_PATTERN)
    """Drill id; must match the folder name."""
    title: str
    """Human title."""
    topic: str
    """Topic id the drill practises."""
    entry: str
    """Name of the function a submission defines."""
    contract: str
    """What the entry function takes and returns, in words."""
    inputs: list[Input] = Field(default_factory=list)
    """The entry function's tensor arguments, in order."""
    params: list[Param] = Field(default_factory=list)
    """The entry function's scalar arguments, after the inputs, in order."""
    requires: list[Method] = Field(default_factory=list)
    """Methods a submission's compiled code must show: 'tensor_cores' (mma or wgmma in the PTX
    of a kernel it launched), 'shared_memory' (ld/st.shared, ldmatrix, cp.async). Checked on a
    GPU from the code Triton or NVRTC produced, never from the source; a submission that meets
    the numbers without the method is rejected, and on a CPU the report says it was not checked."""
    requires_tracks: list[Literal["triton", "cuda"]] = Field(
        default_factory=lambda: list[Literal["triton", "cuda"]](["triton", "cuda"])
    )
    """The tracks `requires` holds submissions to. A track whose story is another one leaves it
    out: matmul's CUDA track is about shared-memory and register tiles on the CUDA cores, so a
    CUDA submission there is judged on its numbers, while a Triton one must reach tensor cores."""
    dtypes: list[DType] = Field(default_factory=lambda: list[DType](["float32"]))
    """Dtypes every input is drawn in; every case runs in each."""
    distributions: list[ValueDistribution] = Field(default_factory=list)
    """Value distributions; include the op's classic traps."""
    reference: Reference | None = None
    """The float64 torch reference the harness computes on private copies of the inputs."""
    vendor: str = ""
    """The library op timed beside the ladder, as shown: 'torch.sum'."""
    tolerance: dict[DType, float] = Field(default_factory=dict)
    """Largest relative error allowed per dtype (see `error_scale`)."""
    error_scale: ErrorScale = "output_norm"
    """What the error is relative to: the reference's norm; sum(|x|) for sums (whose forward
    error grows with sum(|x|) whatever the order of additions); or, per position, the running
    sum of |x| for prefix sums (whose output can sit near zero where the error has grown with
    every element before it)."""
    bytes: str = ""
    """Bytes that must move through device memory, a formula over the shape symbols and
    `itemsize`, e.g. '3 * n * itemsize'."""
    flops: str = "0"
    """Floating-point operations, a formula over the shape symbols."""
    output_shape: list[str] = Field(default_factory=list)
    """The output's shape as symbols; [] is a 0-d tensor."""
    cpu_shapes: list[Shape] = Field(default_factory=list)
    """Small shapes checked on a CPU through Triton's interpreter (and first on a GPU)."""
    gpu_shapes: list[Shape] = Field(default_factory=list)
    """Larger, odd correctness shapes checked on a GPU."""
    bench_shapes: list[Shape] = Field(default_factory=list)
    """Shapes timed on a GPU; the first is the headline."""
    bench_dtype: DType = "float32"
    """The dtype timed on a GPU."""
    forbidden_ops: list[str] = Field(default_factory=list)
    """ATen ops a submission may not call, e.g. 'aten::sum' (any overload)."""
    ladder: list[Rung] = Field(default_factory=list)
    """The reference ladder, naive first on each track (see `Rung.language`)."""
    notes: list[str] = Field(default_factory=list)
    """Caveats a user should read beside the ladder's numbers, one per item, shown with the drill
    (the practice screen, `gpuprep bench` and `gpuprep submit`): chiefly per shape, where the top
    rung is below the vendor op on a benchmark shape, by how much (a measured ratio, naming the
    results file it comes from) and why, in the mechanism a strong candidate would name; or
    'not measured' where no number exists. Never a guess dressed as a measurement."""

    @field_validator("bytes", "flops")
    @classmethod
    def _formula_parses(cls, formula: str) -> str:
        if formula:
            try:
                check_formula(formula)
            except FormulaError as error:
                raise ValueError(str(error)) from None
        return formula

    @model_validator(mode="after")
    def _params_and_input_distributions(self) -> Drill:
        names = [param.name for param in self.params]
        clash = set(names) & {item.name for item in self.inputs}
        if len(set(names)) != len(names) or clash:
            raise ValueError(f"param names repeat or reuse an input's name: {', '.join(names)}")
        declared = {param.name: param.values for param in self.params}
        for field_name in ("cpu_shapes", "gpu_shapes", "bench_shapes"):
            for index, shape in enumerate(getattr(self, field_name)):
                for name, value in shape.params.items():
                    if name not in declared:
                        raise ValueError(
                            f"{field_name}[{index}] fixes {name}, which is not a param "
                            f"(params: {', '.join(names) or 'none'})"
                        )
                    if not any(_same_value(value, allowed) for allowed in declared[name]):
                        raise ValueError(
                            f"{field_name}[{index}] fixes {name} to {value!r}, not one of its "
                            f"values {declared[name]}"
                        )
        for index, shape in enumerate(self.bench_shapes):
            loose = [p.name for p in self.params if len(p.values) > 1 and p.name not in shape.params]
            if loose:
                raise ValueError(
                    f"bench_shapes[{index}] must fix {', '.join(loose)} (a timed shape runs once, "
                    "with one value of each param): add params: {"
                    + ", ".join(f"{name}: ..." for name in loose) + "}"
                )
        known = [d.name for d in self.distributions]
        owned = {item.distribution for item in self.inputs if item.distribution}
        for item in self.inputs:
            if item.distribution and item.distribution not in known:
                raise ValueError(
                    f"input {item.name} names distribution {item.distribution!r}, which is not "
                    f"one of the drill's: {', '.join(known) or 'none'}"
                )
        if self.inputs and self.distributions and not set(known) - owned:
            raise ValueError(
                "every distribution is an input's own: add one that cases cycle through"
            )
        for dtype in self.dtypes if self.inputs and self.distributions else []:
            if not any(
                d.name not in owned and (not d.dtypes or dtype in d.dtypes) for d in self.distributions
            ):
                raise ValueError(f"no distribution applies to {dtype} cases: add one, or widen a dtypes list")
        return self

    @model_validator(mode="after")
    def _shapes_bind_every_symbol(self) -> Drill:
        symbols = {s for item in self.inputs for s in item.shape} | set(self.output_shape)
        for field_name in ("cpu_shapes", "gpu_shapes", "bench_shapes"):
            for index, shape in enumerate(getattr(self, field_name)):
                missing = symbols - set(shape.dims)
                if missing:
                    raise ValueError(
                        f"{field_name}[{index}] does not bind {', '.join(sorted(missing))}"
                    )
        for formula in (self.bytes, self.flops):
            if formula:
                unknown = check_formula(formula) - symbols - {"itemsize"} - {p.name for p in self.params}
                if unknown:
                    raise ValueError(
                        f"formula {formula!r} uses unknown symbols {', '.join(sorted(unknown))}"
                    )
        names = [rung.name for rung in self.ladder]
        if len(set(names)) != len(names):
            raise ValueError(f"ladder names repeat: {', '.join(names)}")
        for dtype in self.dtypes:
            if self.inputs and dtype not in self.tolerance:
                raise ValueError(f"no tolerance for dtype {dtype}")
        for distribution in self.distributions:
            outside = sorted(set(distribution.dtypes or []) - set(self.dtypes))
            if outside:
                raise ValueError(
                    f"distribution {distribution.name} names dtypes the drill does not take: {', '.join(outside)}"
                )
        return self

    def track(self, language: str) -> list[Rung]:
        """The rungs of one track, in ladder order."""
        return [rung for rung in self.ladder if rung.language == language]

    def to_worker_spec(self) -> dict[str, Any]:
        """The plain-JSON spec the worker reads: no pydantic on the other side."""
        return self.model_dump(mode="json")


def _same_value(value: ParamValue, allowed: ParamValue) -> bool:
    """Equal and of the same kind: YAML's true is not the integer 1 here."""
    return isinstance(value, bool) == isinstance(allowed, bool) and value == allowed
