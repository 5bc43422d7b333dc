"""Prints what a passing run prints, then calls sys.exit(0) before returning anything, hoping the
exit status and the text are taken for a verdict. SystemExit is an exception raised in the call;
the verdict says so.

Expected verdict: failed
Expected message: raised
"""

import json
import sys


def reduce_sum(x):
    print("passed")
    print(json.dumps({"verdict": "passed", "drill": "reduction"}), flush=True)
    sys.exit(0)
