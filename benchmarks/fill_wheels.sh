#!/usr/bin/env bash
# Fill .whl/ (git-ignored) with what the lent H200's image lacks for the GPU tests and benchmarks:
# its Python is 3.12 with torch, triton, cupy, pyyaml, sympy and pytest, but not pydantic, fsrs
# (tests/conftest.py's store fixtures), platformdirs or pytest-xdist. The device reaches no
# network, so the wheels travel with the call: run this here, then pass carry [".whl"];
# run_on_device.sh installs them there. No dependencies are followed (pytest and the rest of
# the image must not be shadowed); versions are the ones this checkout's .venv runs.
set -euo pipefail
cd "$(dirname "$0")/.."
names="pydantic pydantic-core annotated-types typing-extensions typing-inspection platformdirs fsrs pytest-xdist execnet"
frozen=$(.venv/bin/python -m pip list --format=freeze 2>/dev/null)
pins=""
for name in $names; do  # the .venv's version where it has the package, else the newest
  pattern="^$(echo "$name" | sed 's/-/[-_]/g')=="
  pins="$pins $(echo "$frozen" | grep -iE "$pattern" || echo "$name")"
done
rm -rf .whl && mkdir .whl  # one version of each: pip refuses two
# shellcheck disable=SC2086
python3 -m pip download -q --no-deps --dest .whl --only-binary=:all: --python-version 3.12 \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --implementation cp $pins
ls .whl
