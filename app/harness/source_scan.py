"""A static look at a submission before it runs: the escapes other leaderboards saw, refused up front.

App side, standard library only. This is a first fence, not a sandbox (a determined author can
hide a name from a scan); the worker's checks of every output are what make a cheat fail.
Comments and docstrings are ignored, so explaining an idea in prose is never refused.
"""

from __future__ import annotations

import io
import re
import tokenize

#: (pattern over the code with strings and comments removed, why it is refused).
CODE_RULES: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"\bgc\s*\.\s*get_(objects|referrers|referents)\b"),
        "reads the harness's objects through gc",
    ),
    (
        re.compile(
            r"\b(import|from)\s+(threading|multiprocessing|subprocess|ctypes|signal|concurrent)\b"
        ),
        "threads, processes and ctypes escape the timer and the forbidden-op guard",
    ),
    (
        re.compile(r"\bos\s*\.\s*(write|dup|dup2|fdopen|fork|kill|killpg|_exit|system|popen)\b"),
        "touches file descriptors or processes",
    ),
    (
        re.compile(r"\b(elapsed_time|Event|synchronize)\b"),
        "touches the harness's timer (events or synchronisation)",
    ),
    (
        re.compile(
            r"\btorch\s*\.\s*cuda\s*\.\s*(Stream|stream|set_stream|graph|CUDAGraph)\b|\bcupy\s*\.\s*cuda\s*\.\s*Stream\b"
        ),
        "runs work on a side stream or in a graph the timer does not see",
    ),
    (re.compile(r"\bgpuprep\b"), "imports the harness"),
    (
        re.compile(
            r"\bsys\s*\.\s*_getframe\b|\binspect\s*\.\s*(stack|currentframe|getouterframes)\b|\bf_back\b|\bf_locals\b"
        ),
        "inspects the caller's frames",
    ),
    (re.compile(r"\b(eval|exec|__import__)\s*\("), "runs code built from strings"),
]
#: Patterns looked for inside string literals.
STRING_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"/proc/|/dev/fd"), "reads the process's internals through /proc or /dev/fd"),
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


def scan(source: str) -> list[str]:
    """Why a submission is refused before it runs: one reason per rule it breaks (empty: none)."""
    code, strings = _split(source)
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


def language_of(source: str) -> str:
    """'cuda' when the file compiles CUDA C through CuPy, else 'triton'."""
    return "cuda" if re.search(r"^\s*(import|from)\s+cupy\b", source, re.MULTILINE) else "triton"
