"""The house's import rules hold, and a machine checks them (CI runs only pytest, so pytest runs it).

pyproject.toml's import-linter contracts: the layers cli > tui > sessions > store | harness |
estimate > settings > bank > units | paths; the core never imports a front end; the judge and the
sandbox import no app library. Beside them, two rules import-linter cannot say: `units` stands on
the standard library and sympy alone, and an import of gpuprep code made inside a function says
why in a comment (a heavy library, an order the judge needs), since one made to dodge a cycle
would hide a layer pointing up.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "app" / "gpuprep"
CONTRACTS = (
    "Layers, top to bottom",
    "The core never imports a front end",
    "The judge and the sandbox import no app library",
)
#: Packages whose function-level imports of gpuprep code must say why. The front ends import
#: their engines inside each command so that `gpuprep --help` starts fast (cli/main.py says so).
CORE = ("bank", "units", "estimate", "store", "sessions", "harness")
CORE_MODULES = ("paths.py", "settings.py")


def _lint_imports(**env: str) -> subprocess.CompletedProcess[str]:
    lint_imports = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    return subprocess.run(
        [lint_imports, "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )


def _judge_side() -> set[str]:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "importlinter"
    ]["contracts"]
    (judge,) = [c for c in contracts if c["name"] == CONTRACTS[2]]
    return set(judge["source_modules"])


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement with whether it sits inside a function (TYPE_CHECKING blocks left out)."""
    found: list[tuple[ast.Import | ast.ImportFrom, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append((child, in_function))
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            visit(child, inner)

    visit(tree, False)
    return found


def _imported_names(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return ["." if node.level else (node.module or "")]
    return [alias.name for alias in node.names]


def test_import_linter_contracts_are_kept():
    result = _lint_imports()

    assert result.returncode == 0, result.stdout + result.stderr
    for name in CONTRACTS:
        assert f"{name} KEPT" in result.stdout, f"contract {name!r} is gone from pyproject.toml"


def test_an_engine_imported_by_the_bank_inside_a_function_breaks_the_layers(tmp_path):
    copy = tmp_path / "app" / "gpuprep"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    # The two ways layers used to be bent: a cycle hidden in a function, the judge reaching yaml.
    (copy / "bank" / "planted.py").write_text(
        "def solve_later():\n    from gpuprep.estimate.solve import solve\n\n    return solve\n"
    )
    (copy / "harness" / "checking.py").write_text(
        (copy / "harness" / "checking.py").read_text() + "\n\ndef planted():\n    import yaml\n"
    )

    result = _lint_imports(PYTHONPATH=str(copy.parent))

    assert result.returncode != 0
    assert "gpuprep.bank.planted -> gpuprep.estimate.solve" in result.stdout
    assert "gpuprep.harness.checking -> yaml" in result.stdout


def test_units_import_only_the_standard_library_and_sympy():
    allowed = set(sys.stdlib_module_names) | {"sympy"}
    strays = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} imports {name}"
        for path in sorted((PACKAGE / "units").glob("*.py"))
        for node, _ in _imports(ast.parse(path.read_text(encoding="utf-8")))
        for name in _imported_names(node)
        if name != "."
        and name.split(".")[0] not in allowed
        and not name.startswith("gpuprep.units")
    ]
    assert strays == []


def test_an_import_of_gpuprep_code_inside_a_function_says_why():
    judge_side = _judge_side()
    paths = [path for name in CORE for path in sorted((PACKAGE / name).rglob("*.py"))]
    paths += [PACKAGE / name for name in CORE_MODULES]
    silent = []
    for path in paths:
        # The judge's modules import in an order its security needs (after the manifest check,
        # after the device opens); judge.py says so where it happens.
        if _module_name(path) in judge_side:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for node, in_function in _imports(ast.parse("\n".join(lines))):
            ours = any(name.split(".")[0] in ("gpuprep", ".") for name in _imported_names(node))
            if not (in_function and ours):
                continue
            line, above = lines[node.lineno - 1], lines[node.lineno - 2].strip()
            if "#" not in line and not above.startswith("#"):
                silent.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {line.strip()}")
    assert silent == [], "import at the top, or say why not in a comment:\n" + "\n".join(silent)
