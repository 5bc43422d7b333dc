"""Rendering a question's prompt and worked answer with its GPU's figures and its params.

Templates are Jinja, run in a sandbox with StrictUndefined: `{{ gpu.name }}`,
`{{ gpu.hbm_bandwidth }}` (value and unit, 3 significant figures), `{{ gpu.memory }}` ('HBM3'),
capabilities as bools (`{% if gpu.fp8 %}`, `gpu.tma`, `gpu.nvls`, `gpu.hbm`; see
`gpuprep.bank.hardware.Features`), `gpu.vendor` ('nvidia' or 'amd'),
`{{ hw.<gpu id>.<field> }}`, `{{ <param> }}`, `{{ <step> }}`, `{{ answer }}` and
`{{ figure.as_unit("GB/s") }}`. Hardware figures come from the tables, so a corrected table
flows into every prompt and answer.

Most templates are nothing but such placeholders; those are filled by a direct lookup with the
same meaning (compiling a Jinja template costs milliseconds, and `bank check` renders every
question). Anything else (a loop, a filter, whitespace control) goes through Jinja.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gpuprep.bank.hardware import DERIVED_FIELDS, FEATURE_NAMES
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import hardware_fields
from gpuprep.estimate.solve import ParamValue, Solution, pick_gpu, solve
from gpuprep.estimate.worked import worked_solution as _worked_solution
from gpuprep.units.display import natural_unit, plain_number, show
from gpuprep.units.quantity import Quantity, UnitError
from gpuprep.wording import did_you_mean

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question


class TemplateError(EstimateError):
    """A prompt or answer template that does not render; `part` is 'prompt' or 'answer'."""

    def __init__(self, message: str, part: str, line: int = 1) -> None:
        super().__init__(message)
        self.part = part
        self.line = line
        """1-based line inside the template."""


class Figure:
    """A quantity as a template shows it: '3.35 TB/s'; `.as_unit('GB/s')` shows it in another unit."""

    def __init__(self, quantity: Quantity, unit: str | None = None, digits: int = 3) -> None:
        self._quantity = quantity
        self._unit = natural_unit(quantity) if unit is None else unit
        self._digits = digits

    @property
    def value(self) -> float:
        """The number, in the figure's unit."""
        return self._quantity.to(self._unit)

    @property
    def unit(self) -> str:
        """The unit it is shown in."""
        return self._unit

    @property
    def quantity(self) -> Quantity:
        return self._quantity

    def as_unit(self, unit: str, digits: int = 3) -> Figure:
        """The same figure in another unit of the same kind ('GB/s' for a bandwidth)."""
        try:
            self._quantity.to(unit)
        except UnitError as error:
            raise TemplateError(f"as_unit({unit!r}): {error}", "template") from None
        return Figure(self._quantity, unit, digits)

    def __str__(self) -> str:
        return show(self._quantity, self._unit, self._digits)

    def __repr__(self) -> str:
        return f"Figure({self})"


class ParamFigure(Figure):
    """A param shows every digit it was given: M = 8192, not 8190."""

    def __str__(self) -> str:
        value = self.value
        number = (
            str(int(value)) if value == int(value) and abs(value) < 1e15 else plain_number(value, 6)
        )
        return f"{number} {self.unit}" if self.unit not in ("", "1") else number


@lru_cache(maxsize=1)
def gpu_template_names() -> frozenset[str]:
    """Every name a template may read of a GPU (`gpu.<name>`, `hw.<id>.<name>`): its figures,
    its capabilities and the attributes `GpuView` sets."""
    return frozenset(
        (
            *hardware_fields(),
            *FEATURE_NAMES,
            "name",
            "id",
            "architecture",
            "vendor",
            "memory",
            "hbm",
        )
    )


class GpuView:
    """One GPU as templates see it: `.name`, `.id`, `.architecture`, `.vendor`, every figure by
    field name, `.memory` ('HBM3', 'GDDR6X') and each capability as a bool (`.fp8`, `.tma`,
    `.nvls`, `.hbm` ...), so that `{% if gpu.fp8 %}` offers fp8 only where the GPU has it."""

    def __init__(self, gpu: Hardware) -> None:
        self.name = gpu.name
        self.id = gpu.id
        self.architecture = gpu.architecture
        self.vendor = gpu.vendor
        self._gpu = gpu

    def __getitem__(self, field_name: str) -> Figure | bool | str:
        if field_name == "memory" and self._gpu.memory is not None:
            return self._gpu.memory
        if isinstance(field_name, str) and (field_name in FEATURE_NAMES or field_name == "hbm"):
            answer = self._gpu.feature(field_name)
            if answer is None:
                raise KeyError(field_name)
            return answer
        # Only known field names reach the table: `Hardware.get` would getattr anything.
        known = isinstance(field_name, str) and field_name in hardware_fields()
        figure = self._gpu.get(field_name) if known else None
        if figure is None:
            raise KeyError(field_name)
        if field_name in DERIVED_FIELDS:
            return Figure(figure, DERIVED_FIELDS[field_name][1])
        spec = getattr(self._gpu.specs, field_name)
        return Figure(figure, spec.unit)

    def missing(self, field_name: str) -> str:
        if field_name in hardware_fields():
            return f"{self.id} has no {field_name} figure (hardware/{self.id}.yaml)"
        if field_name in FEATURE_NAMES:
            return (
                f"{self.id} does not say whether it has {field_name}: "
                f"add features.{field_name} to hardware/{self.id}.yaml"
            )
        if field_name in ("memory", "hbm"):
            return (
                f"{self.id} does not name its memory kind: add `memory:` to hardware/{self.id}.yaml"
            )
        hint = did_you_mean(field_name, gpu_template_names(), most=1)
        return f"unknown hardware field {field_name!r} of {self.id}{hint}"

    def __str__(self) -> str:
        return self.name


class HardwareView:
    """`hw.<gpu id>`: every GPU of the bank, built when first named."""

    def __init__(self, hardware: Mapping[str, Hardware]) -> None:
        self._hardware = hardware
        self._views: dict[str, GpuView] = {}

    def __getitem__(self, gpu_id: str) -> GpuView:
        if gpu_id not in self._views:
            self._views[gpu_id] = GpuView(self._hardware[gpu_id])
        return self._views[gpu_id]

    def missing(self, gpu_id: str) -> str:
        return (
            f"unknown GPU {gpu_id!r} in hw.{gpu_id}{did_you_mean(gpu_id, self._hardware)}; "
            f"the GPUs are {', '.join(sorted(self._hardware))}"
        )


@dataclass(frozen=True)
class RenderedQuestion:
    """A question with its placeholders filled for one GPU and one set of params."""

    question_id: str
    kind: str
    title: str
    prompt: str
    answer: str
    gpu: str | None
    """GPU id the question was rendered for (None for a question with no GPU of its own)."""
    params: dict[str, Quantity] = field(default_factory=dict)
    steps: dict[str, Quantity] = field(default_factory=dict)
    expected: Quantity | None = None
    """The expected answer (estimation questions)."""
    unit: str | None = None
    """The unit the question asks for (estimation questions)."""
    solution: Solution | None = None

    @property
    def expected_value(self) -> float | None:
        """The expected answer in the question's unit."""
        if self.expected is None or self.unit is None:
            return None
        return self.expected.to(self.unit)


# --- Jinja, sandboxed -----------------------------------------------------------------------


@lru_cache(maxsize=1)
def _environment() -> Any:
    from jinja2 import StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    class _Undefined(StrictUndefined):
        @property
        def _undefined_message(self) -> str:
            owner = self._undefined_obj
            if isinstance(owner, GpuView | HardwareView):
                return owner.missing(str(self._undefined_name))
            return super()._undefined_message

    class _Sandbox(SandboxedEnvironment):
        # The sandbox stops attribute tricks; these stop a template from eating memory or time.
        intercepted_binops = frozenset({"*", "**"})

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            from jinja2.exceptions import SecurityError

            if operator == "**" and isinstance(right, int | float) and abs(right) > 1024:
                raise SecurityError(f"the power {right} is too large for a template")
            if operator == "*" and any(
                isinstance(side, str | list | tuple) for side in (left, right)
            ):
                count = right if isinstance(right, int) else left
                if isinstance(count, int) and count > 10_000:
                    raise SecurityError("repeating text more than 10000 times in a template")
            return super().call_binop(context, operator, left, right)

    return _Sandbox(undefined=_Undefined, autoescape=False, keep_trailing_newline=True)


@lru_cache(maxsize=512)
def _compiled(source: str) -> Any:
    return _environment().from_string(source)


def _jinja_render(source: str, context: Mapping[str, Any], part: str) -> str:
    from jinja2 import TemplateError as JinjaError
    from jinja2 import TemplateSyntaxError

    try:
        return str(_compiled(source).render(**context))
    except TemplateSyntaxError as error:
        raise TemplateError(
            f"{part}: template syntax: {error.message}", part, error.lineno or 1
        ) from None
    except JinjaError as error:
        raise TemplateError(
            f"{part}: {error.message or error}", part, _template_line(error)
        ) from None
    except TemplateError as error:
        raise TemplateError(f"{part}: {error.message}", part, _template_line(error)) from None
    except EstimateError as error:
        raise TemplateError(f"{part}: {error.message}", part, _template_line(error)) from None
    except Exception as error:  # noqa: BLE001 - a template may raise anything ({{ 1/0 }}); report it
        message = f"{part}: {type(error).__name__}: {error}"
        raise TemplateError(message, part, _template_line(error)) from None


def _template_line(error: BaseException) -> int:
    # Jinja rewrites tracebacks so that a template's frame carries its own line numbers.
    line = 1
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == "<template>":
            line = trace.tb_lineno
        trace = trace.tb_next
    return line


_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_SIMPLE = re.compile(
    r"\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
    r"(?:\.as_unit\(\s*(?:\"([^\"\\]*)\"|'([^'\\]*)')\s*\))?\s*"
)


class _NotSimple(Exception):
    """The template needs Jinja itself."""


def _lookup(context: Mapping[str, Any], dotted: str) -> Any:
    parts = dotted.split(".")
    if parts[0] not in context:
        raise _NotSimple
    value = context[parts[0]]
    for part in parts[1:]:
        if isinstance(value, GpuView | HardwareView):
            if part in ("name", "id", "architecture", "vendor") and isinstance(value, GpuView):
                value = getattr(value, part)
                continue
            try:
                value = value[part]
            except KeyError:
                raise _NotSimple from None
        else:
            raise _NotSimple
    return value


def _fast_render(source: str, context: Mapping[str, Any]) -> str:
    if "{%" in source or "{#" in source:
        raise _NotSimple

    def fill(match: re.Match[str]) -> str:
        simple = _SIMPLE.fullmatch(match.group(1))
        if simple is None:
            raise _NotSimple
        value = _lookup(context, simple.group(1))
        unit = simple.group(2) if simple.group(2) is not None else simple.group(3)
        if unit is not None:
            if not isinstance(value, Figure):
                raise _NotSimple
            try:
                value.quantity.to(unit)
            except UnitError:
                raise _NotSimple from None
            value = value.as_unit(unit)
        return str(value)

    return _PLACEHOLDER.sub(fill, source)


def render_template(source: str, context: Mapping[str, Any], part: str = "template") -> str:
    """Fill a prompt or answer template; raises :class:`TemplateError` naming the fault."""
    if "{" not in source:
        return source
    try:
        return _fast_render(source, context)
    except _NotSimple:
        return _jinja_render(source, context, part)


# --- Questions ------------------------------------------------------------------------------


def template_context(
    bank: Bank,
    gpu: Hardware | None = None,
    solution: Solution | None = None,
    question: Question | None = None,
) -> dict[str, Any]:
    """The names a template may use: hw, gpu, params, steps and answer."""
    context: dict[str, Any] = {"hw": HardwareView(bank.hardware)}
    if gpu is not None:
        context["gpu"] = GpuView(gpu)
    if solution is not None and question is not None and question.estimate is not None:
        estimate = question.estimate
        for name, value in solution.params.items():
            context[name] = ParamFigure(value, estimate.params[name].unit or "")
        for step in estimate.steps:
            context[step.name] = Figure(solution.steps[step.name], step.unit or None)
        context["answer"] = Figure(solution.answer, estimate.unit)
    return context


def render_question(
    question: Question,
    bank: Bank,
    gpu: str | None = None,
    params: Mapping[str, ParamValue] | None = None,
) -> RenderedQuestion:
    """The question's prompt and worked answer, filled for its GPU (or `gpu`) and params.

    Works for every kind: concept questions use `{{ hw.<id>.<field> }}`, and get `gpu` too
    when one is passed. Raises :class:`EstimateError` (a :class:`TemplateError` for a template
    fault) when the GPU, a param or a template is not valid.
    """
    solution = None
    hardware = None
    if question.estimate is not None:
        solution = solve(question, bank, gpu, params)
        hardware = solution.gpu
    else:
        if params:
            raise EstimateError(
                f"{question.id} is a {question.kind} question and has no parameters"
            )
        if gpu is not None:
            hardware = pick_gpu(question, bank, gpu)
    return render_solved(question, bank, hardware, solution)


def render_solved(
    question: Question, bank: Bank, hardware: Hardware | None, solution: Solution | None
) -> RenderedQuestion:
    """Render with a solution already worked out (bank check solves each GPU once)."""
    context = template_context(bank, hardware, solution, question)
    prompt = render_template(question.prompt, context, "prompt")
    answer = render_template(question.answer, context, "answer")
    return RenderedQuestion(
        question_id=question.id,
        kind=question.kind,
        title=question.title,
        prompt=prompt,
        answer=answer,
        gpu=hardware.id if hardware is not None else None,
        params=dict(solution.params) if solution else {},
        steps=dict(solution.steps) if solution else {},
        expected=solution.answer if solution else None,
        unit=solution.unit if solution else None,
        solution=solution,
    )


def worked_solution(
    question: Question,
    bank: Bank,
    gpu: str | None = None,
    params: Mapping[str, ParamValue] | None = None,
) -> Any:
    """Each step and the solution with the numbers substituted (see :mod:`.worked`)."""
    return _worked_solution(question, bank, gpu, params)
