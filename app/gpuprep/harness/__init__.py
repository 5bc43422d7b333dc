"""The drill harness: a judge process that checks and times kernels, and the app side that runs it.

Judge-side modules (`judge`, `drill_run`, `sandbox`, `sandboxes`, `forkserver`, `arena`,
`protocol`, `verdicts`, `landlock`, `manifest`, `checking`, `inputs`, `references`, `guard`,
`timing`, `loading`, and `gpuprep.units.formulas`) import only the standard library, torch,
triton, numpy and cupy: the GPU machine may have no pydantic (an import-linter contract in
pyproject.toml checks it). App-side modules (`api`, `runner`, `report`, `figures`,
`source_scan`, `calibration`) start the judge and turn its events into typed reports.
"""
