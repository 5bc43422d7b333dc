"""One memcheck run of submit --sanitize with the logs kept and the judge's own output shown
(benchmarks/sanitizer_probe.sh sets VARIANT; 'no-tool' runs the judge without the tool)."""

import os
import sys
import tempfile
import types
from pathlib import Path

from gpuprep.bank.loader import load_bank
from gpuprep.harness import api, sanitized, sanitizer
from gpuprep.paths import builtin_folder

kept = Path(tempfile.mkdtemp(prefix="sanitizer-probe-"))
sanitized._log_folder = lambda: kept
sanitized.shutil = types.SimpleNamespace(rmtree=lambda *a, **k: None)
sanitizer.TOOLS = ("memcheck",)
if os.environ.get("VARIANT") == "no-tool":
    sanitizer.command = lambda *a: ["env"]
real_run_judge = sanitized.run_judge


def run_judge(*args, **kwargs):
    print("wrapper", kwargs.get("wrapper"))
    run = real_run_judge(*args, **kwargs)
    print("returncode", run.returncode, "finished", run.finished, "fatal", run.fatal[:300])
    print("---- judge output (tail)\n" + run.log_tail[-2500:])
    return run


sanitized.run_judge = run_judge
bank, _ = load_bank()
fixture = sys.argv[1] if len(sys.argv) > 1 else "softmax_stores_one_past_the_end.py"
report = api.submit(
    bank.drills["softmax"],
    builtin_folder("kernels_ref") / "softmax",
    Path("tests/harness/fixtures") / fixture,
    sanitize=True,
    timeout_s=150,
)
print("verdict", report.status, report.message[:400])
for log in sorted(kept.glob("*.log")):
    text = log.read_text(errors="replace")
    print(f"---- {log.name}: {len(text)} chars, head and tail\n{text[:1500]}\n...\n{text[-1200:]}")
