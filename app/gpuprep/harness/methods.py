"""Does a kernel use the method a drill asks for? Read from its compiled PTX, never its source.

Both sides, standard library only. The sandbox reads the PTX of every kernel it launches
(Triton's compiled kernel, or the NVRTC compilation of a CuPy kernel's code) and counts its
instruction families (`instruction_counts`); the judge decides (`judge_methods`). A source
can name `tl.dot` and still compile to FMA loops (fp32 inputs with `allow_tf32=False`, a cast
that reroutes the product), and a leaderboard's FP8 GEMM was once passed by kernels that
silently cast to bf16: what the GPU runs is the evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Literal, TypedDict

#: Instruction families, each a test on a PTX opcode (the mnemonic with its dot suffixes).
FAMILIES: dict[str, Callable[[str], bool]] = {
    "mma": lambda op: op.startswith("mma."),
    "wmma": lambda op: op.startswith("wmma.mma"),
    "wgmma": lambda op: op.startswith("wgmma.mma_async"),
    "tcgen05.mma": lambda op: op.startswith("tcgen05.mma"),
    "ld.shared": lambda op: op.startswith(("ld.", "wmma.load")) and ".shared" in op,
    "st.shared": lambda op: op.startswith(("st.", "wmma.store")) and ".shared" in op,
    "atom.shared": lambda op: op.startswith(("atom.", "red.")) and ".shared" in op,
    "ldmatrix": lambda op: op.startswith("ldmatrix"),
    "stmatrix": lambda op: op.startswith("stmatrix"),
    "cp.async": lambda op: op.startswith("cp.async"),
}

#: Method -> the families that show it. wgmma reads its operands from shared memory, and
#: cp.async (TMA's cp.async.bulk included) fills it, so either shows shared-memory staging.
METHODS: dict[str, tuple[str, ...]] = {
    "tensor_cores": ("mma", "wmma", "wgmma", "tcgen05.mma"),
    "shared_memory": (
        "ld.shared",
        "st.shared",
        "atom.shared",
        "ldmatrix",
        "stmatrix",
        "cp.async",
        "wgmma",
    ),
}

#: How a method is named to the user, and how it is usually written.
METHOD_WORDS: dict[str, tuple[str, str]] = {
    "tensor_cores": (
        "tensor cores",
        "no mma or wgmma instruction; use tl.dot in Triton, or mma/wmma in CUDA C",
    ),
    "shared_memory": (
        "shared memory",
        "no ld.shared, st.shared, ldmatrix or cp.async instruction; stage tiles through __shared__ "
        "memory in CUDA C, or tl.dot/tiled loads that Triton stages in Triton",
    ),
}

NOT_ON_A_CPU = "method not checked without a GPU: Triton's interpreter compiles no PTX"

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_STATEMENTS = re.compile(r"[;{}\n]")
_LABEL = re.compile(r"^[$\w.]+:\s*")
_PREDICATE = re.compile(r"^@!?%?\w+\s+")


class KernelCode(TypedDict):
    """What the sandbox read of one launched kernel's compiled code."""

    name: str
    code: str
    """'ptx' (the family counts are from its PTX), or 'unread' (no code could be read)."""
    counts: dict[str, int]
    """Family -> instructions of that family in the code (absent when none)."""


class MethodCheck(TypedDict):
    """The judge's finding on one required method."""

    method: str
    status: Literal["shown", "missing", "unchecked"]
    detail: str


def instruction_counts(ptx: str) -> dict[str, int]:
    """Family -> number of instructions in `ptx` (comments, directives and labels skipped)."""
    counts: dict[str, int] = {}
    for statement in _STATEMENTS.split(_COMMENTS.sub("", ptx)):
        text = _PREDICATE.sub("", _LABEL.sub("", statement.strip()))
        if not text or not text[0].isalpha():
            continue  # empty, a directive (.reg, .shared .align 16 ...) or punctuation
        opcode = text.split(None, 1)[0]
        for family, matches in FAMILIES.items():
            if matches(opcode):
                counts[family] = counts.get(family, 0) + 1
    return counts


def judge_methods(
    required: Iterable[str], kernels: list[KernelCode] | None, gpu: bool
) -> list[MethodCheck]:
    """Each required method: shown by some launched kernel's code, missing from all of them,
    or unchecked (a CPU, no kernels seen, or a kernel whose code could not be read)."""
    checks: list[MethodCheck] = []
    for method in required:
        words, hint = METHOD_WORDS[method]
        families = METHODS[method]
        if not gpu:
            checks.append(
                {"method": method, "status": "unchecked", "detail": f"{words}: {NOT_ON_A_CPU}"}
            )
            continue
        if not kernels:
            checks.append(
                {
                    "method": method,
                    "status": "unchecked",
                    "detail": f"{words}: not checked, no launched kernel's compiled code could be read",
                }
            )
            continue
        shown = [
            (kernel["name"], family, kernel["counts"][family])
            for kernel in kernels
            for family in families
            if kernel["counts"].get(family)
        ]
        unread = [kernel["name"] for kernel in kernels if kernel["code"] != "ptx"]
        if shown:
            name, family, count = shown[0]
            checks.append(
                {
                    "method": method,
                    "status": "shown",
                    "detail": f"{words}: {count} {family} in {name}",
                }
            )
        elif unread:
            checks.append(
                {
                    "method": method,
                    "status": "unchecked",
                    "detail": f"{words}: not checked, the compiled code of {', '.join(unread)} could not be read",
                }
            )
        else:
            names = ", ".join(kernel["name"] for kernel in kernels)
            checks.append(
                {
                    "method": method,
                    "status": "missing",
                    "detail": f"{words} not used: the compiled PTX of {names} has {hint}",
                }
            )
    return checks


def method_outcome(
    role: str, required: list[str], kernels: list[KernelCode], gpu: bool
) -> dict[str, object]:
    """What a kernel's result gains from its method checks: the checks, and for a submission
    without a required method the verdict 'rejected'; for a rung, flags.

    Rejected, not flagged: the PTX of kernels the call launched is run-time evidence, and a
    drill that requires a method is there to practise it (a GEMM that meets the time on FMA
    units has skipped the lesson). A rung missing its method is our ladder's bug, shown as a
    flag beside its time. Unchecked methods (a CPU, unreadable code) never refuse anything."""
    if not required or role == "vendor":
        return {}
    checks = judge_methods(required, kernels, gpu)
    outcome: dict[str, object] = {"methods": checks}
    missing = [check["detail"] for check in checks if check["status"] == "missing"]
    if missing and role == "submission":
        outcome["status"] = "rejected"
        outcome["message"] = (
            f"right values, but {'; '.join(missing)}: this drill asks for that method"
        )
    elif missing:
        outcome["flags"] = missing
    return outcome


def merge_code(known: dict[str, KernelCode], more: Iterable[object]) -> None:
    """Add the sandbox's (untrusted, JSON) kernel reports to `known`, keyed by kernel name."""
    for item in more:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        counts = item.get("counts") if isinstance(item.get("counts"), dict) else {}
        clean = {str(k): int(v) for k, v in (counts or {}).items() if isinstance(v, int) and v > 0}
        code = "ptx" if item.get("code") == "ptx" else "unread"
        name = item["name"][:200]
        if name in known and known[name]["code"] == "ptx" and code != "ptx":
            continue
        known[name] = {"name": name, "code": code, "counts": clean}
