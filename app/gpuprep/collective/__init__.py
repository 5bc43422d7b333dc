"""Collective drills: a submission that runs on N ranks of torch.distributed at once.

The single-GPU harness judges one process's kernel; a collective needs N processes that talk
to each other. Here a judge process (`judge.py`, torch and the stdlib only) forks N rank
processes (`rank.py`), hands each a fresh seed per case, and checks every rank's result,
copied into shared memory, against its own float64 sum. `spec.py` is the drill's YAML model;
`run.py` is the app's side (spec to request, judge in a subprocess, typed report).
"""
