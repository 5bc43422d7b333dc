"""The hardware fields a template reads (`{{ gpu.hbm_bandwidth }}`, `{{ hw.h100_sxm.sms }}`),
and the faults among them, found without rendering it.

`bank check` renders every template, but an estimation question whose formulas fail has no
solution to render with; its templates' hardware fields are still checked here, so that a
misspelt field does not wait until the formulas are fixed. Read from Jinja's syntax tree, as
:mod:`.template_gpus` does: a name inside a comment or a string is not read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from gpuprep.estimate.render import GpuView, HardwareView, TemplateError, gpu_template_names

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware


@dataclass(frozen=True)
class FieldRead:
    """One `<owner>.<field>` a template reads."""

    owner: str
    """'gpu' (the GPU the question is asked for) or a GPU id read as `hw.<id>`."""
    field: str
    line: int
    """1-based line inside the template."""


@lru_cache(maxsize=1024)
def field_reads(source: str) -> tuple[FieldRead, ...]:
    """Every `gpu.<field>` and `hw.<id>.<field>` of `source`, in the order the text reads."""
    if "{" not in source:
        return ()
    from jinja2 import Environment, TemplateSyntaxError, nodes

    try:
        tree = Environment(autoescape=False).parse(source)
    except TemplateSyntaxError:
        return ()  # rendering reports a syntax fault with its line
    reads = []
    for node in tree.find_all(nodes.Getattr):
        inner = node.node
        if isinstance(inner, nodes.Name) and inner.name == "gpu":
            reads.append(FieldRead("gpu", str(node.attr), node.lineno))
        elif (
            isinstance(inner, nodes.Getattr)
            and isinstance(inner.node, nodes.Name)
            and inner.node.name == "hw"
        ):
            reads.append(FieldRead(str(inner.attr), str(node.attr), node.lineno))
    return tuple(reads)


def field_faults(
    source: str, part: str, hardware: dict[str, Hardware], gpu: Hardware | None
) -> list[tuple[FieldRead, TemplateError]]:
    """Each read of `source` that names no hardware field, or a GPU id not in `hardware`, with
    the :class:`TemplateError` to show. A known field that one GPU lacks is left to rendering:
    the template may read it only where the GPU has it (`{% if gpu.fp8 %}`)."""
    faults = []
    for read in field_reads(source):
        if read.owner == "gpu":
            if gpu is None:
                continue  # a question without a GPU of its own: rendering says so
            owner = gpu
        elif read.owner not in hardware:
            message = HardwareView(hardware).missing(read.owner)
            faults.append((read, TemplateError(f"{part}: {message}", part, read.line)))
            continue
        else:
            owner = hardware[read.owner]
        if read.field not in gpu_template_names():
            message = GpuView(owner).missing(read.field)
            faults.append((read, TemplateError(f"{part}: {message}", part, read.line)))
    return faults
