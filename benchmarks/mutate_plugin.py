"""A pytest plugin for `./dev mutate`: forget gpuprep's memoised results before each test.

mutmut 3 forks each mutant's test run from a process that has already run the tests once, so a
result memoised then by `functools.lru_cache` (a parsed expression, a solved question) is served
from the cache and the mutated code never runs: such a mutant would survive every test.
benchmarks/mutate.py copies this file beside the package and loads it with `-p`.
"""

from __future__ import annotations

import sys
from typing import Any


def pytest_runtest_setup(item: Any) -> None:
    for name, module in list(sys.modules.items()):
        if name != "gpuprep" and not name.startswith("gpuprep."):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and str(getattr(value, "__module__", "")).startswith("gpuprep"):
                clear()
