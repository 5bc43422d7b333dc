"""The drill harness: a worker process that checks and times kernels, and the app side that runs it.

Worker-side modules (`worker`, `inputs`, `references`, `checking`, `guard`, `timing`,
`loading`, `formulas`) import only the standard library, torch, triton, numpy and cupy: the GPU
machine may have no pydantic. App-side modules (`runner`, `report`, `source_scan`,
`calibration`) start the worker and turn its events into a verdict.
"""
