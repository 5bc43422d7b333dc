"""Which GPUs a question's text reads: the one it is asked for (`{{ gpu.* }}`) and those it names
(`{{ hw.h100_sxm.* }}`).

A concept question written around the H100 reads `hw.h100_sxm`; asking for it "on a T4" changes
nothing in its text, so a front end must not claim the T4. Read from Jinja's syntax tree, not
from the text: `hw.h100_sxm` inside a comment or a string is not a figure the reader sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class TemplateGpus:
    """The GPUs one or more templates read."""

    reads_chosen: bool
    """Some placeholder reads `gpu`: the text changes with the GPU the question is asked for."""
    named: tuple[str, ...]
    """GPU ids read as `hw.<id>`, in the order they first appear, without repeats."""


def template_gpus(*sources: str) -> TemplateGpus:
    """What `sources` (a prompt, an answer) read of the hardware, in order."""
    reads_chosen = False
    named: dict[str, None] = {}
    for source in sources:
        chosen, ids = _read(source)
        reads_chosen = reads_chosen or chosen
        named.update(dict.fromkeys(ids))
    return TemplateGpus(reads_chosen, tuple(named))


@lru_cache(maxsize=1024)
def _read(source: str) -> tuple[bool, tuple[str, ...]]:
    if "{" not in source:
        return False, ()
    from jinja2 import Environment, TemplateSyntaxError, meta, nodes

    environment = Environment(autoescape=False)
    try:
        tree = environment.parse(source)
    except TemplateSyntaxError:
        # Rendering reports the fault with its line; a text that does not parse reads nothing.
        return False, ()
    # find_all walks the tree in the order the text reads.
    ids = [
        gpu_id
        for node in tree.find_all((nodes.Getattr, nodes.Getitem))
        if (gpu_id := _hw_id(node, nodes)) is not None
    ]
    return "gpu" in meta.find_undeclared_variables(tree), tuple(dict.fromkeys(ids))


def _hw_id(node: Any, nodes: Any) -> str | None:
    """'h100_sxm' for `hw.h100_sxm` or `hw["h100_sxm"]`; None for anything else."""
    inner = node.node
    if not (isinstance(inner, nodes.Name) and inner.name == "hw"):
        return None
    if isinstance(node, nodes.Getattr):
        return str(node.attr)
    if isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
        return node.arg.value
    return None
