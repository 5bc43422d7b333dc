#!/usr/bin/env bash
# Run the drill benchmarks and GPU tests on a machine where gpuprep is not installed and
# pydantic is missing (the lent H200): wheels carried in .whl/ (benchmarks/fill_wheels.sh fills it) go to /tmp/site-packages (named so:
# a habit from the old audit watch, harmless now), and app/ goes on the import path so that
# `import gpuprep` (app/gpuprep) works from this checkout.
set -euo pipefail
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site-packages .whl/*.whl
fi
export PYTHONPATH=$PWD/app:/tmp/site-packages${PYTHONPATH:+:$PYTHONPATH}
export GPUPREP_HOME=/tmp/gpuprep-home PYTHONUNBUFFERED=1
"$@"
