"""NVIDIA's compute-sanitizer for `gpuprep submit --sanitize`: find it, build its command line, read its log.

App side, standard library only. The judge runs under compute-sanitizer with
`--target-processes all`, so the sandbox it forks is instrumented too, and the tool writes
what it saw to a log file the app chose; this module turns that log into findings and says
which of them belong to the submission. The log's formats come from NVIDIA's Compute
Sanitizer guide and from logs quoted in public issue threads (the fixtures' README names
them): the current `at softmax_kernel+0x1f0 in my_softmax.py:42`, the older
`at 0x1f0 in my_softmax.py:42:softmax_kernel`, either without line information, and
racecheck's `Race reported between Write access at ... and Read access at ...`.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

TOOLS = ("memcheck", "racecheck")
"""Run in this order: racecheck only watches shared memory, so out-of-bounds accesses first."""
FALLBACK = Path("/usr/local/cuda/bin/compute-sanitizer")
#: With torch's caching allocator a store just past a tensor's end lands in the allocator's own
#: segment and memcheck reports nothing (measured on an H200: 0 errors; 3 with this set). Set by
#: each sandbox for itself (sandbox.hello), not for the judge: the judge's arena goes to the
#: sandbox by CUDA IPC, which needs a caching-allocator block ("invalid device pointer" else,
#: measured on the H200).
SANDBOX_ENV = {"PYTORCH_NO_CUDA_MEMORY_CACHING": "1"}
#: The findings the tool prints (it still counts the rest in its summary).
PRINT_LIMIT = 10
NO_GPU = "--sanitize needs a CUDA GPU"
MISSING = (
    "--sanitize needs NVIDIA's compute-sanitizer (CUDA toolkit): not found on PATH or in "
    "/usr/local/cuda/bin; install the CUDA toolkit or put compute-sanitizer on PATH"
)


class SanitizerUnavailable(RuntimeError):
    """compute-sanitizer cannot run here; the message says why and what to do."""


def cuda_device_present() -> bool:
    """Whether this machine shows a CUDA GPU, without importing torch or opening a context."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None and visible.strip() in ("", "-1"):
        return False
    try:
        return any(re.fullmatch(r"nvidia\d+", name) for name in os.listdir("/dev"))
    except OSError:
        return False


def find_sanitizer() -> str:
    """The compute-sanitizer binary: on PATH, else the CUDA toolkit's default folder."""
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    if FALLBACK.is_file() and os.access(FALLBACK, os.X_OK):
        return str(FALLBACK)
    raise SanitizerUnavailable(MISSING)


def preflight(cpu: bool) -> str:
    """The binary to run, or SanitizerUnavailable: a GPU first, then the tool."""
    if cpu:
        raise SanitizerUnavailable(
            f"{NO_GPU}: it watches GPU kernels, not Triton's interpreter; drop --cpu"
        )
    if not cuda_device_present():
        raise SanitizerUnavailable(f"{NO_GPU}: this machine shows none (no /dev/nvidia*)")
    return find_sanitizer()


def command(binary: str, tool: str, log_file: str) -> list[str]:
    """The prefix of the judge's command line: one tool, every child process, the log to a file
    (so nothing the submission prints can pass for the tool's own lines)."""
    if tool not in TOOLS:
        raise ValueError(f"unknown compute-sanitizer tool {tool!r}: one of {', '.join(TOOLS)}")
    return [
        binary,
        "--tool",
        tool,
        "--target-processes",
        "all",
        "--log-file",
        log_file,
        "--print-limit",
        str(PRINT_LIMIT),
    ]


@dataclass(frozen=True)
class Finding:
    """One error the tool reported, as far as its lines say."""

    tool: str
    kind: str
    """The headline: 'Invalid __global__ write of size 4 bytes', 'Race reported between Write
    access and Read access', 'Program hit cudaErrorIllegalAddress ...'."""
    category: str
    """'memory' (an access out of bounds or misaligned), 'race' (shared memory), 'api' (a CUDA
    call returned an error: a consequence, never a verdict on its own)."""
    severity: str = "error"
    """'error', or 'warning' for racecheck's possible hazards."""
    kernel: str = ""
    """As the tool names it: 'softmax_kernel', 'void f<(bool)0>(float *)'."""
    file: str = ""
    line: int | None = None
    thread: str = ""
    """'31,0,0'."""
    block: str = ""
    address: str = ""
    """What was wrong with the address: '4 bytes after the nearest allocation of 1024 bytes'."""
    other_access: str = ""
    """A race's other side: 'Read access at my_softmax.py:30'."""
    hazards: int | None = None


@dataclass(frozen=True)
class SanitizerLog:
    """Everything one tool's log said."""

    tool: str
    findings: list[Finding] = field(default_factory=list)
    errors: int | None = None
    """From the summary line; None when the log ended before it (the run was cut short)."""
    warnings: int | None = None
    problems: list[str] = field(default_factory=list)
    """The tool's own errors ('Error: Target application terminated before ...')."""


@dataclass(frozen=True)
class SanitizerResult:
    """What `gpuprep submit --sanitize --json` says of the sanitizer (its keys are a contract)."""

    tools: list[str]
    """The tools that ran, in order."""
    tool: str
    """The tool this result is about: the one with the finding, else the last that ran."""
    errors: int | None
    finding: Finding | None = None
    counted: bool = False
    """Whether `finding` counts against the submission (see `attribution`)."""
    why: str = ""
    """Why it counts, or why not."""
    problem: str = ""
    """Why the tools could not give a clean answer ('' when they did)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> SanitizerResult | None:
        if not data:
            return None
        finding = data.get("finding")
        return cls(
            tools=list(data.get("tools") or []),
            tool=data.get("tool") or "",
            errors=data.get("errors"),
            finding=Finding(**finding) if finding else None,
            counted=bool(data.get("counted")),
            why=data.get("why") or "",
            problem=data.get("problem") or "",
        )


# -- reading a log ---------------------------------------------------------------------------

_PREFIX = re.compile(r"^={9}(.*)$")
_MEMORY = re.compile(
    r"^(Invalid __\w+__ \S+ of size \d+(?: bytes?)?|Misaligned Shared or Local Address"
    r"|Out-of-range Shared or Local Address|Hardware Exception.*|Malloc/Free error.*)"
)
_API = re.compile(r"^Program hit (\w+) \(error \d+\) due to .*")
_RACE = re.compile(
    r"^(?P<severity>Error|ERROR|Warning|WARN|Warn)?:?\s*Race reported between (?P<access>Read|Write) access at ?(?P<where>.*)$"
)
_RACE_OTHER = re.compile(
    r"^and (?P<access>Read|Write) access at ?(?P<where>.*?)\s*(?:\[(?P<hazards>[\d,]+) hazards?\])?$"
)
_HAZARDS = re.compile(r"^\[([\d,]+) hazards?\]$")
_THREAD = re.compile(r"^by thread \(([^)]*)\) in block \(([^)]*)\)")
_ADDRESS = re.compile(r"^(?:Address|Access to|Access at) (0x[0-9a-fA-F]+) is (.+?)\.?$")
_ALLOCATION = re.compile(
    r"^and is ([\d,]+) bytes? (after|before) the nearest allocation at 0x[0-9a-fA-F]+ of size ([\d,]+) bytes?"
)
_ERROR_SUMMARY = re.compile(r"^ERROR SUMMARY: ([\d,]+) errors?")
_RACE_SUMMARY = re.compile(
    r"^RACECHECK SUMMARY: [\d,]+ hazards? displayed \(([\d,]+) errors?, ([\d,]+) warnings?\)"
)
_TOOL_ERROR = re.compile(r"^(?:Error|Internal Sanitizer Error)\b")
#: Where the code was: `kernel+0x1f0 in file:42` (2023 on), `0x1f0 in file:42:kernel` (before),
#: or either without line information.
_AT_NEW = re.compile(r"^(?P<kernel>.+?)\+0x[0-9a-fA-F]+(?: in (?P<file>.+):(?P<line>\d+))?$")
_AT_OLD = re.compile(r"^0x[0-9a-fA-F]+ in (?P<file>[^:]+):(?P<line>\d+):(?P<kernel>.+)$")
_AT_BARE = re.compile(r"^0x[0-9a-fA-F]+ in (?P<kernel>.+)$")


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def location(text: str) -> tuple[str, str, int | None]:
    """(kernel, file, line) from the text after 'at' ('' and None where the log has none)."""
    text = text.strip()
    for pattern in (_AT_NEW, _AT_OLD, _AT_BARE):
        found = pattern.match(text)
        if found:
            parts = found.groupdict()
            line = parts.get("line")
            return (
                parts["kernel"].strip(),
                (parts.get("file") or "").strip(),
                int(line) if line else None,
            )
    return "", "", None


def _where(kernel: str, file: str, line: int | None) -> str:
    if file:
        return f"{Path(file).name}:{line}" if line is not None else Path(file).name
    return short_name(kernel)


class _Builder:
    """The finding being read, line by line, until the next headline."""

    def __init__(self, tool: str, kind: str, category: str, severity: str = "error") -> None:
        self.fields: dict[str, Any] = {
            "tool": tool,
            "kind": kind,
            "category": category,
            "severity": severity,
        }
        self.race_access = ""
        self.awaiting: str = ""
        """'first' or 'other': a race's location is on the next line (the log wraps it)."""

    def locate(self, text: str) -> None:
        kernel, file, line = location(text)
        if not self.fields.get("kernel") and not self.fields.get("file"):
            self.fields.update(kernel=kernel, file=file, line=line)

    def detail(self, text: str) -> None:
        if self.awaiting == "first":
            self.awaiting = ""
            self.locate(text)
            return
        if self.awaiting == "other":
            self.awaiting = ""
            kernel, file, line = location(text)
            self.fields["other_access"] += f" at {_where(kernel, file, line)}"
            return
        if self.fields["category"] == "race":
            self._race_detail(text)
            return
        if text.startswith("at "):
            self.locate(text[3:])
        elif found := _THREAD.match(text):
            self.fields.update(thread=found[1].replace(" ", ""), block=found[2].replace(" ", ""))
        elif found := _ALLOCATION.match(text):
            after, size = _number(found[1]), _number(found[3])
            self.fields["address"] = (
                f"{after} bytes {found[2]} the nearest allocation of {size} bytes"
            )
        elif (found := _ADDRESS.match(text)) and not self.fields.get("address"):
            self.fields["address"] = f"address {found[1]} is {found[2]}"

    def _race_detail(self, text: str) -> None:
        if found := _RACE_OTHER.match(text):
            if self.fields.get("other_access"):
                return  # the first pairing is the one shown; the rest are the same write's others
            self.fields["other_access"] = f"{found['access']} access"
            if found["where"]:
                kernel, file, line = location(found["where"])
                self.fields["other_access"] += f" at {_where(kernel, file, line)}"
            else:
                self.awaiting = "other"
            if found["hazards"]:
                self.fields["hazards"] = _number(found["hazards"])
        elif (found := _HAZARDS.match(text)) and self.fields.get("hazards") is None:
            self.fields["hazards"] = _number(found[1])

    def finish(self) -> Finding:
        if self.fields["category"] == "race":
            other = self.fields.get("other_access", "").split(" access")[0]
            self.fields["kind"] = f"Race reported between {self.race_access} access" + (
                f" and {other} access" if other else ""
            )
        return Finding(**self.fields)


def parse_log(text: str, tool: str) -> SanitizerLog:
    """Every finding of one tool's log, its summary and the tool's own errors."""
    findings: list[Finding] = []
    problems: list[str] = []
    errors: int | None = None
    warnings: int | None = None
    current: _Builder | None = None
    for raw in text.splitlines():
        prefixed = _PREFIX.match(raw.rstrip())
        if not prefixed:
            continue  # not the tool's line
        body = prefixed[1]
        if body.startswith("  "):
            if current is not None:
                current.detail(body.strip())
            continue
        if current is not None:
            findings.append(current.finish())
            current = None
        line = body.strip()
        if found := _ERROR_SUMMARY.match(line):
            errors = (errors or 0) + _number(found[1])
        elif found := _RACE_SUMMARY.match(line):
            errors = (errors or 0) + _number(found[1])
            warnings = (warnings or 0) + _number(found[2])
        elif found := _MEMORY.match(line):
            kind = found[1]
            if kind.startswith("Invalid") and not kind.endswith("bytes"):
                kind += " bytes"  # the older tool printed 'of size 8'
            current = _Builder(tool, kind, "memory")
        elif _API.match(line):
            current = _Builder(tool, line, "api")
        elif found := _RACE.match(line):
            severity = (
                "warning" if (found["severity"] or "").lower().startswith("warn") else "error"
            )
            current = _Builder(tool, "", "race", severity)
            current.race_access = found["access"]
            if found["where"]:
                current.locate(found["where"])
            else:
                current.awaiting = "first"
        elif _TOOL_ERROR.match(line):
            problems.append(line)
    if current is not None:
        findings.append(current.finish())
    return SanitizerLog(tool, findings, errors, warnings, problems)


# -- whose finding it is -----------------------------------------------------------------------


def short_name(kernel: str) -> str:
    """'void ns::f<(bool)0>(float *)' -> 'f': the name a user gave the kernel."""
    name = re.sub(r"^(?:void|static|__global__)\s+", "", kernel.strip())
    name = re.split(r"[(<]", name, maxsplit=1)[0]
    return name.split("::")[-1].strip()


def kernel_names(source: str) -> set[str]:
    """Functions the submission defines (Triton kernels among them) and CUDA C `__global__`
    functions in its strings (CuPy)."""
    names = set(re.findall(r"^\s*def\s+(\w+)", source, re.MULTILINE))
    return names | set(re.findall(r"__global__\s+void\s+(\w+)", source))


def _same_file(named: str, submission: Path) -> bool:
    mine = submission.resolve()
    if os.path.isabs(named):
        return os.path.realpath(named) == str(mine)
    tail = Path(named).parts
    return mine.parts[-len(tail) :] == tail


def _defined_here(kernel: str, names: set[str]) -> str:
    short = short_name(kernel)
    for name in names:
        # Older Tritons suffixed the argument specialisation: matmul_kernel_0d1d2d3de.
        if short == name or re.fullmatch(rf"{re.escape(name)}_(?:\d+[a-z]*)+", short):
            return name
    return ""


def attribution(finding: Finding, submission: Path, names: set[str]) -> str:
    """Why the finding counts against the submission; '' when it belongs to someone else's code."""
    if finding.file and _same_file(finding.file, submission):
        return "in your file"
    defined = _defined_here(finding.kernel, names) if finding.kernel else ""
    if defined:
        return f"kernel {defined} is defined in your file"
    if not finding.file:
        return "the log names no source file, so it counts against your submission"
    return ""


def describe(finding: Finding, errors: int | None) -> str:
    """One line: the tool, what, where, who, the address, how many in all."""
    where = _where(finding.kernel, finding.file, finding.line) if finding.file else ""
    race = re.match(r"Race reported between (\w+) access", finding.kind)
    if race:
        text = f"compute-sanitizer {finding.tool}: race in shared memory between {race[1]} access"
        text += f" at {where}" if where else ""
        text += f" and {finding.other_access}" if finding.other_access else ""
        text += f" in {short_name(finding.kernel)}" if finding.kernel else ""
    else:
        text = f"compute-sanitizer {finding.tool}: {finding.kind}"
        text += f" in {short_name(finding.kernel)}" if finding.kernel else ""
        text += f" at {where}" if where else ""
    if finding.thread or finding.block:
        text += f" (thread ({finding.thread}), block ({finding.block}))"
    if finding.hazards is not None:
        text += f" ({finding.hazards} hazards)"
    if finding.address:
        text += f": {finding.address}"
    if errors is None:
        return text + "; the log ended before its summary"
    return text + f"; {errors} error{'s' if errors != 1 else ''} in all"
