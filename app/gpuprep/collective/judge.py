"""The collective judge: forks N ranks, feeds each its own seed, checks every rank's result.

Trusted, and importing torch and the stdlib only (it runs where the GPUs are). It never imports
the submission: the ranks do. Per case it draws fresh seeds from os.urandom, sends each rank
only its own, waits for every rank within the case's timeout, and reads each rank's result
from shared memory to compare with its own float64 sum of the inputs it drew again. A rank
that raises, dies or hangs ends the run at once with a message naming it; every rank is then
killed with its whole process group, so no process outlives the run.

    python -m gpuprep.collective.judge < request.json > report.json
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection, wait
from typing import Any

from gpuprep.collective import rank as rank_module
from gpuprep.collective.inputs import DTYPE_BYTES, draw
from gpuprep.collective.protocol import CaseResult, Report, Request, bus_bandwidth_gbps


class RankFailure(Exception):
    """A rank raised, died or hung; `status` is crashed or timeout."""

    def __init__(
        self, status: str, message: str, traceback: str = "", secondary: bool = False
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.traceback = status, message, traceback
        #: The rank failed because a peer went away: a consequence, not the cause.
        self.secondary = secondary


#: Seconds to keep listening after the first failure, for the rank that caused it.
FAILURE_GRACE_S = 1.0
#: What a backend says on a rank whose peer died (gloo, NCCL).
PEER_GONE = (
    "Connection closed by peer",
    "Connection reset by peer",
    "Broken pipe",
    "remote worker",
    "communicator was aborted",
    "NCCL error",
)


def _first_cause(failures: dict[int, RankFailure]) -> RankFailure:
    """The failure to report: a rank's own error or death before one that lost its peer."""
    causes = [f for _, f in sorted(failures.items()) if not f.secondary] or [
        f for _, f in sorted(failures.items())
    ]
    first = causes[0]
    others = sorted(set(failures) - {int(first.message.split()[1])})
    if others:
        first.message += (
            f" (then rank{'s' if len(others) > 1 else ''} "
            + ", ".join(map(str, others))
            + " failed too)"
        )
    return first


class Ranks:
    """N forked rank processes, their pipes, and the shared slots they write results into."""

    def __init__(self, request: Request, results: Any, folder: str) -> None:
        context = multiprocessing.get_context("fork")
        self.conns: list[Connection] = []
        self.processes = []
        self.folder = folder
        self._first_failure = 0.0
        for index in range(request["ranks"]):
            mine, theirs = context.Pipe()
            process = context.Process(
                target=rank_module.main,
                args=(index, dict(request), theirs, results, folder),
                name=f"gpuprep-rank-{index}",
            )
            process.start()
            theirs.close()
            self.conns.append(mine)
            self.processes.append(process)

    def send(self, index: int, **message: Any) -> None:
        try:
            self.conns[index].send_bytes(json.dumps(message).encode())
        except OSError:
            pass  # a dead rank is reported by its sentinel

    def gather(self, expected: str, timeout_s: float, what: str) -> list[dict[str, Any]]:
        """Each rank's next message, which must be `expected`.

        A failure ends the wait after a short grace, long enough to hear the other ranks: when
        one rank dies its peers fail too ("connection closed by peer"), and the message must
        name the rank that started it."""
        replies: dict[int, dict[str, Any]] = {}
        failures: dict[int, RankFailure] = {}
        deadline = time.monotonic() + timeout_s
        waiting = set(range(len(self.conns)))
        while waiting:
            left = deadline - time.monotonic()
            if failures:
                left = min(left, FAILURE_GRACE_S - (time.monotonic() - self._first_failure))
            if left <= 0:
                break
            ready = wait(
                [self.conns[r] for r in waiting] + [self.processes[r].sentinel for r in waiting],
                timeout=left,
            )
            for index in sorted(waiting):
                if self.conns[index] in ready:
                    try:
                        message = json.loads(self.conns[index].recv_bytes())
                    except (EOFError, OSError, ValueError):
                        message = {"event": "died"}
                elif self.processes[index].sentinel in ready:
                    message = {"event": "died"}
                else:
                    continue
                waiting.discard(index)
                if message["event"] == expected:
                    replies[index] = message
                    continue
                if not failures:
                    self._first_failure = time.monotonic()
                failures[index] = self._failure(index, message, what)
        if failures:
            raise _first_cause(failures)
        if waiting:
            names = ", ".join(str(r) for r in sorted(waiting))
            raise RankFailure(
                "timeout",
                f"timed out after {timeout_s:g} s {what}: rank{'s' if len(waiting) > 1 else ''} "
                f"{names} did not finish (a deadlock: every rank waiting on a recv?)",
            )
        return [replies[r] for r in range(len(self.conns))]

    def _failure(self, index: int, message: dict[str, Any], what: str) -> RankFailure:
        if message["event"] == "error":
            return RankFailure(
                "crashed",
                f"rank {index} raised {what}: {message['error']}",
                message.get("traceback", ""),
                secondary=any(sign in message["error"] for sign in PEER_GONE),
            )
        if message["event"] == "died":
            self.processes[index].join(0.5)
            return RankFailure(
                "crashed",
                f"rank {index} {_exit_words(self.processes[index].exitcode)} {what}"
                + _last_words(self.folder, index),
            )
        return RankFailure("crashed", f"rank {index} sent {message['event']!r} {what}")

    def end(self, polite: bool) -> None:
        """Ask politely (after a run that went well), then kill every rank's process group:
        nothing they started survives."""
        for index in range(len(self.conns)):
            self.send(index, event="stop")
        deadline = time.monotonic() + (5 if polite else 0)
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in self.processes:
            if process.pid is not None:
                for kill in (os.killpg, os.kill):
                    try:
                        kill(process.pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
            process.join(5)
        for conn in self.conns:
            conn.close()


def _exit_words(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _last_words(folder: str, index: int) -> str:
    """The tail of what a dead rank wrote to stderr (gloo's and NCCL's aborts say why there)."""
    try:
        with open(os.path.join(folder, f"rank{index}.stderr"), errors="replace") as stream:
            lines = [line.strip() for line in stream.read()[-2000:].splitlines() if line.strip()]
    except OSError:
        return ""
    return (": " + " / ".join(lines[-2:])) if lines else ""


def check_case(
    case: dict[str, Any], seeds: list[int], results: Any, tolerance: float
) -> CaseResult:
    """Compare every rank's result with the float64 sum of the inputs drawn from `seeds`."""
    import torch

    numel, ranks = case["numel"], len(seeds)
    inputs = torch.stack([draw(numel, case["dtype"], seed).to(torch.float64) for seed in seeds])
    truth = inputs.sum(dim=0)
    # The sum of |x| scales the error a correct rung may make: one rounding per rank's addition.
    scale = inputs.abs().sum(dim=0).clamp_min(torch.finfo(torch.float32).tiny)
    allowed = tolerance * ranks
    outcome: CaseResult = {"checked": True, "bad_ranks": [], "max_rel_err": 0.0}
    first: str = ""
    for index in range(ranks):
        got = results[index, :numel]
        error = ((got - truth).abs() / scale).nan_to_num(nan=float("inf"))
        worst = float(error.max()) if numel else 0.0
        outcome["max_rel_err"] = max(outcome["max_rel_err"] or 0.0, worst)
        if worst > allowed:
            outcome["bad_ranks"].append(index)
            if not first:
                wrong = (error > allowed).nonzero().flatten()
                at = int(wrong[0])
                first = (
                    f"rank {index}: {wrong.numel()} of {numel} elements wrong, the first at "
                    f"{at}: {float(got[at]):.6g} where the sum is {float(truth[at]):.6g}"
                )
    bad = outcome["bad_ranks"]
    outcome["ok"] = not bad
    if bad:
        outcome["message"] = (
            f"wrong on rank{'s' if len(bad) > 1 else ''} {', '.join(map(str, bad))}; {first}"
        )
    return outcome


def judge(request: Request) -> Report:
    """Run the request's file on its ranks over every case; the verdict is the judge's alone."""
    import torch

    began = time.monotonic()
    ranks = request["ranks"]
    backend = "nccl" if request["device"] == "cuda" else "gloo"
    report: Report = {
        "status": "passed",
        "message": "",
        "file": request["file"],
        "ranks": ranks,
        "device": "cpu (gloo)" if backend == "gloo" else "GPU (NCCL)",
        "backend": backend,
        "cases": [],
        "forbidden_calls": {},
        "traceback": "",
        "elapsed_s": 0.0,
    }
    checked = [c["numel"] for c in request["cases"] if c["check"]]
    results = torch.full((ranks, max(checked, default=1)), float("nan"), dtype=torch.float64)
    results.share_memory_()  # type: ignore[no-untyped-call]
    with tempfile.TemporaryDirectory(prefix="gpuprep-collective-") as folder:
        group = Ranks(request, results, folder)
        try:
            ready = group.gather("ready", request["startup_timeout_s"], "while starting")
            report["device"] = ready[0].get("device", report["device"])
            for index, case in enumerate(request["cases"]):
                outcome = _run_case(group, index, case, request, results, report)
                report["cases"].append(outcome)
                if report["forbidden_calls"]:
                    break
        except RankFailure as failure:
            report["status"] = failure.status  # type: ignore[typeddict-item]
            report["message"] = failure.message
            report["traceback"] = failure.traceback
        finally:
            group.end(polite=report["status"] == "passed")
    _verdict(report)
    report["elapsed_s"] = round(time.monotonic() - began, 3)
    return report


def _run_case(
    group: Ranks,
    index: int,
    case: Any,
    request: Request,
    results: Any,
    report: Report,
) -> CaseResult:
    ranks = request["ranks"]
    seeds = [int.from_bytes(os.urandom(7), "little") for _ in range(ranks)]
    results.fill_(float("nan"))
    for rank in range(ranks):
        group.send(
            rank,
            event="case",
            case=index,
            numel=case["numel"],
            dtype=case["dtype"],
            seed=seeds[rank] if case["check"] else None,
            check=case["check"],
            timed=case["timed"],
        )
    what = f"on case {index + 1} ({case['label']}, {case['numel']} x {case['dtype']})"
    replies = group.gather("done", request["case_timeout_s"], what)
    outcome: CaseResult = {
        "label": case["label"],
        "numel": case["numel"],
        "dtype": case["dtype"],
        "bytes": case["numel"] * DTYPE_BYTES[case["dtype"]],
    }
    for rank, reply in enumerate(replies):
        if reply["calls"]:
            report["forbidden_calls"][str(rank)] = list(reply["calls"])
    if case["check"]:
        outcome.update(check_case(case, seeds, results, request["tolerance"][case["dtype"]]))
    else:
        outcome.update({"checked": False, "ok": True, "bad_ranks": [], "max_rel_err": None})
    notes = sorted({note for reply in replies for note in reply["notes"]})
    if notes and not outcome["ok"]:
        outcome["message"] = outcome.get("message", "") + "; " + "; ".join(notes)
    _figures(outcome, replies, ranks)
    return outcome


def _slowest_median(per_rank: list[list[float]]) -> float | None:
    """An all-reduce ends when its last rank ends: the slowest rank per call, then the median."""
    if not per_rank or not all(per_rank):
        return None
    return float(statistics.median(max(call) for call in zip(*per_rank, strict=True)))


def _figures(outcome: CaseResult, replies: list[dict[str, Any]], ranks: int) -> None:
    mine = _slowest_median([reply["times_ms"] for reply in replies])
    vendor = _slowest_median([reply["vendor_ms"] for reply in replies])
    outcome["median_ms"] = mine
    outcome["vendor_ms"] = vendor
    outcome["algbw_gbps"] = outcome["busbw_gbps"] = outcome["vendor_busbw_gbps"] = None
    outcome["share_of_vendor"] = None
    if mine:
        outcome["algbw_gbps"], outcome["busbw_gbps"] = bus_bandwidth_gbps(
            outcome["bytes"], ranks, mine
        )
    if vendor:
        outcome["vendor_busbw_gbps"] = bus_bandwidth_gbps(outcome["bytes"], ranks, vendor)[1]
    if mine and vendor:
        outcome["share_of_vendor"] = vendor / mine


def _verdict(report: Report) -> None:
    """The report's status and first line from its cases, unless a rank already failed."""
    if report["status"] != "passed":
        return
    if report["forbidden_calls"]:
        rank, calls = next(iter(report["forbidden_calls"].items()))
        report["status"] = "rejected"
        report["message"] = (
            f"rank {rank} called {', '.join(calls)}: forbidden here, build the all-reduce from "
            "send/recv (isend/irecv, batch_isend_irecv)"
        )
        return
    wrong = [case for case in report["cases"] if not case.get("ok")]
    if wrong:
        report["status"] = "failed"
        report["message"] = f"{len(wrong)} of {len(report['cases'])} cases wrong; first: " + (
            f"{wrong[0]['label']} ({wrong[0]['numel']} x {wrong[0]['dtype']}): "
            + wrong[0].get("message", "")
        )
    else:
        report["message"] = f"all {len(report['cases'])} cases right on {report['ranks']} ranks"


def main() -> None:
    """Read a Request as JSON on stdin, print the Report as JSON on stdout."""
    request: Request = json.loads(sys.stdin.read())
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    print(json.dumps(judge(request)))


if __name__ == "__main__":
    main()
