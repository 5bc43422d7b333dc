"""gpuprep: prepare for GPU-performance interviews, and help interviewers run them."""

__version__ = "0.1.0"
