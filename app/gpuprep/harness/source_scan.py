"""A static look at a submission before it runs: coaching warnings, never a refusal.

App side, standard library only. A text pattern proves nothing (a name can be hidden, and an
honest file can mention anything), so what this finds is a warning printed beside the
verdict; the judge's checks of every output decide. Comments, docstrings and a self-test
under `if __name__ == "__main__":` are not looked at. Waiting (`synchronize`), numpy for
constants, `getattr` and CUDA events are ordinary code and draw no warning.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

#: (pattern over the code with strings and comments removed, why it is refused).
CODE_RULES: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"\bgc\s*\.\s*get_(objects|referrers|referents)\b|\b(import|from)\s+gc\b"),
        "reads the harness's objects through gc",
    ),
    (
        re.compile(
            r"\b(import|from)\s+(_thread|threading|multiprocessing|subprocess|ctypes|signal|concurrent|asyncio)\b"
        ),
        "threads, processes and ctypes escape the timer and the forbidden-op guard",
    ),
    (
        re.compile(r"\b(TorchFunctionMode|TorchDispatchMode|_python_dispatch|overrides)\b"),
        "installs a torch mode that would rewrite the checker's arithmetic",
    ),
    (
        re.compile(
            r"\btorch\s*\.\s*_C\b|\.\s*_C\b|\bfrom\s+torch\s*\.\s*_C\b|\bfrom\s+torch\s+import\s+[\w\s,]*\b_C\b|"
            r"\b(_mode_utils|no_dispatch|_DisableTorchDispatch|_ExcludeDispatchKeyGuard|DispatchKeySet|DispatchKey|_disable_current_modes)\b"
        ),
        "switches off torch's dispatcher hooks (torch._C), which hides library calls from the guard",
    ),
    (
        re.compile(
            r"\btorch\s*\.\s*(compile|_dynamo|_inductor|jit|library|_prims|_refs|_decomp)\b|"
            r"\bfrom\s+torch\s+import\s+[\w\s,]*\b(compile|_dynamo|_inductor|jit|library)\b|\bfrom\s+torch\s*\.\s*(_dynamo|_inductor|jit|library)\b"
        ),
        "hands the work to torch.compile, TorchScript or a custom op, where the guard does not see it",
    ),
    (
        re.compile(
            r"\b(persisting_l2|access_policy_window|streamSetAttribute|deviceSetLimit|cudaDeviceSetLimit)\b"
        ),
        "pins data in a persisting L2 window that survives the timer's flush",
    ),
    (
        re.compile(r"\bsys\s*\.\s*(settrace|setprofile|addaudithook|path)\b"),
        "changes the interpreter's hooks or import path",
    ),
    (
        re.compile(r"\bos\s*\.\s*(write|dup|dup2|fdopen|fork|kill|killpg|_exit|system|popen)\b"),
        "touches file descriptors or processes",
    ),
    (
        re.compile(
            r"\btorch\s*\.\s*cuda\s*\.\s*(Stream|stream|set_stream|graph|CUDAGraph)\b|\bcupy\s*\.\s*cuda\s*\.\s*Stream\b|"
            r"(?<!External)\bStream\s*\(|\bstreams?\s*\.\s*Stream\b|\b(set_stream|_set_stream|getStreamFromExternal|get_stream_from_external|cudaStreamCreate\w*|cuStreamCreate\w*|Graph|CUDAGraph)\b|"
            r"\bcurrent_stream\s*=|\bExternalStream\s*\((?!\s*torch\s*\.\s*cuda\s*\.\s*current_stream\s*\(\s*\)\s*\.\s*cuda_stream\s*\))"
        ),
        "runs work on a side stream or in a graph the timer does not see",
    ),
    (re.compile(r"\bgpuprep\b"), "imports the harness"),
    (
        re.compile(
            r"\b_getframe\b|\b_current_frames\b|\binspect\s*\.\s*(stack|currentframe|getouterframes|trace)\b|"
            r"\b(f_back|f_locals|f_globals|tb_frame|gi_frame|cr_frame|ag_frame)\b"
        ),
        "inspects the caller's frames",
    ),
    (re.compile(r"\b(eval|exec|__import__)\s*\("), "runs code built from strings"),
]
#: Patterns looked for inside string literals.
STRING_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"/proc/|/dev/fd"), "reads the process's internals through /proc or /dev/fd"),
    (re.compile(r"kernels_ref"), "reads the reference ladder's files"),
    (
        # pygpubench #49: a persisting L2 window survives the timer's flush.
        re.compile(
            r"PersistingL2|accessPolicyWindow|AccessPolicyWindow|cudaAccessProperty|cudaLimitPersisting"
        ),
        "pins data in a persisting L2 window that survives the timer's flush",
    ),
    (
        re.compile(r"\bcudaStreamCreate|\bcuStreamCreate|\bcudaGraph"),
        "runs work on a side stream or in a graph the timer does not see",
    ),
]


def _split(source: str) -> tuple[str, list[str]]:
    """The code with strings and comments blanked, and the string literals."""
    code: list[str] = []
    strings: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                continue
            if token.type == tokenize.STRING or token.type in (
                getattr(tokenize, "FSTRING_MIDDLE", -1),
            ):
                strings.append(token.string)
                code.append('""')
            else:
                code.append(token.string)
            code.append(" ")
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return source, []
    return "".join(code), strings


def _prose_and_self_tests(tree: ast.Module) -> set[int]:
    """Line numbers of docstrings and of a module-level `if __name__ == "__main__":` block."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    lines.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    for node in tree.body:
        test = getattr(node, "test", None)
        if isinstance(node, ast.If) and isinstance(test, ast.Compare):
            names = [test.left, *test.comparators]
            if any(isinstance(n, ast.Name) and n.id == "__name__" for n in names):
                lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def scan(source: str) -> list[str]:
    """Warnings for patterns that often mean work done outside the kernel (empty: none).

    A file that does not parse gets none: loading it reports the syntax error with its line,
    which is what its author needs.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    skipped = _prose_and_self_tests(tree)
    kept = "".join(
        "\n" if number in skipped else line
        for number, line in enumerate(source.splitlines(keepends=True), start=1)
    )
    code, strings = _split(kept)
    reasons = [
        f"{why} ({match.group(0).strip()})"
        for rule, why in CODE_RULES
        if (match := rule.search(code))
    ]
    for rule, why in STRING_RULES:
        for text in strings:
            if match := rule.search(text):
                reasons.append(f"{why} ({match.group(0)})")
                break
    return reasons


def read_source(path: Path) -> tuple[str | None, str]:
    """The file's text in the encoding Python would use, or None and why it is not Python."""
    try:
        data = path.read_bytes()
    except OSError as error:
        return None, f"cannot read {path}: {error.strerror}"
    if b"\0" in data:
        return None, f"{path.name} is not a Python source file (it holds NUL bytes)"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), ""
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        return None, f"{path.name} is not a Python source file in a readable encoding ({error})"


def language_of(source: str) -> str:
    """'cuda' when the file compiles CUDA C through CuPy, else 'triton'."""
    return "cuda" if re.search(r"^\s*(import|from)\s+cupy\b", source, re.MULTILINE) else "triton"
