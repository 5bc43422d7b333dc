"""The built-in drills load, bind every symbol, and ship a complete ladder with teaching docstrings."""

import ast

import pytest

from gpuprep.bank.drill import Drill
from gpuprep.units.formulas import evaluate

from .conftest import DRILL_IDS, DRILLS_DIR, KERNELS_DIR, drills


def test_the_four_first_drills_exist():
    assert {"vector_add", "reduction", "softmax", "transpose"} <= set(DRILL_IDS)


@pytest.mark.parametrize("drill_id", DRILL_IDS)
def test_a_drill_has_starters_wrong_submissions_and_ladder_files(drill_id):
    drill = drills()[drill_id]
    folder = DRILLS_DIR / drill_id
    assert (folder / "starter_triton.py").is_file() and (folder / "starter_cuda.py").is_file()
    assert list((folder / "wrong").glob("*.py")), (
        "known-wrong submissions prove the checker fails them"
    )
    assert len(drill.ladder) >= 2
    for rung in drill.ladder:
        path = KERNELS_DIR / drill_id / f"{rung.name}.py"
        assert path.is_file(), f"missing rung {path}"
        tree = ast.parse(path.read_text())
        docstring = ast.get_docstring(tree) or ""
        assert docstring.startswith(rung.name), f"{path}: the docstring opens with the rung's name"
        assert "interviewer" in docstring, f"{path}: say what an interviewer wants to hear"
        assert any(
            isinstance(node, ast.FunctionDef) and node.name == drill.entry for node in tree.body
        )


@pytest.mark.parametrize("drill_id", DRILL_IDS)
def test_bytes_and_flops_evaluate_on_every_benchmark_shape(drill_id):
    drill = drills()[drill_id]
    assert drill.bench_shapes and drill.cpu_shapes
    for shape in drill.bench_shapes:
        assert evaluate(drill.bytes, {**shape.dims, "itemsize": 4}) > 0


def test_the_ladders_are_as_long_as_the_issue_asks():
    lengths = {drill_id: len(drill.ladder) for drill_id, drill in drills().items()}
    assert lengths["vector_add"] >= 2 and lengths["reduction"] >= 5
    assert lengths["softmax"] >= 4 and lengths["transpose"] >= 4


def test_every_dtype_has_a_tolerance():
    base = drills()["softmax"].model_dump()
    base["tolerance"] = {"float32": 1e-5}
    with pytest.raises(ValueError, match="no tolerance for dtype bfloat16"):
        Drill.model_validate(base)


def test_a_shape_that_misses_a_symbol_is_an_error():
    base = drills()["transpose"].model_dump()
    base["cpu_shapes"] = [{"label": "half", "dims": {"rows": 3}}]
    with pytest.raises(ValueError, match="does not bind cols"):
        Drill.model_validate(base)


def test_a_formula_that_is_not_arithmetic_is_an_error():
    base = drills()["vector_add"].model_dump()
    base["bytes"] = "open('/etc/passwd')"
    with pytest.raises(ValueError, match="only numbers"):
        Drill.model_validate(base)


def test_the_worker_spec_is_plain_json():
    import json

    spec = drills()["softmax"].to_worker_spec()
    assert json.loads(json.dumps(spec)) == spec
    assert spec["tolerance"]["bfloat16"] == pytest.approx(1e-2)
