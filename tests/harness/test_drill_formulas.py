"""Every drill's bytes and FLOPs formulas, evaluated on the CPU on every benchmark shape: the
roofline figures of a drill (bandwidth achieved, share of a copy, faster-than-light) are only as
right as these formulas, and before this test nothing evaluated them without a GPU."""

from __future__ import annotations

import math

import pytest

from gpuprep.units.formulas import evaluate

from .conftest import DRILL_IDS, drills

ITEMSIZE = {"float32": 4, "bfloat16": 2, "float16": 2}


def cases():
    for drill_id in DRILL_IDS:
        drill = drills()[drill_id]
        for shape in drill.bench_shapes:
            yield pytest.param(drill, shape, id=f"{drill_id}:{shape.label or shape.dims}")


@pytest.mark.parametrize("drill, shape", list(cases()))
def test_bytes_cover_the_compulsory_traffic_and_flops_evaluate(drill, shape):
    itemsize = ITEMSIZE[drill.bench_dtype]
    # Formulas may use the scalar params (true is 1): the shape's own, else each one's first value.
    params = {param.name: param.values[0] for param in drill.params} | shape.params
    values = {**shape.dims, "itemsize": itemsize, **{k: float(v) for k, v in params.items()}}
    size = lambda symbols: math.prod(shape.dims[s] for s in symbols)  # noqa: E731
    # Each input read once and the output written once: no kernel moves less.
    compulsory = itemsize * (sum(size(i.shape) for i in drill.inputs) + size(drill.output_shape))
    moved = evaluate(drill.bytes, values)
    assert compulsory <= moved <= 2 * compulsory, (drill.bytes, moved, compulsory)
    flops = evaluate(drill.flops, values)
    assert flops >= 0 and math.isfinite(flops)
    if drill.id != "transpose":  # a transpose moves data and computes nothing
        assert flops >= size(drill.output_shape), (drill.flops, flops)
