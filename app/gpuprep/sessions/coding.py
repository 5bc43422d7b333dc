"""What a coding question asks to be written in: shared by the mock's plan (which questions a
machine can run) and the coding pane (which starter to edit and submit). Light on purpose: no
harness import, so composing a mock stays quick."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpuprep.bank.question import Question


def needs_cuda_gpu(question: Question) -> bool:
    """Whether a coding question asks for a CUDA kernel (tagged `cuda`, not `triton`): CUDA C
    through CuPy, which only an NVIDIA GPU runs. One tagged both lets the candidate pick Triton."""
    return question.kind == "coding" and "cuda" in question.tags and "triton" not in question.tags


def question_language(question: Question) -> str:
    """The starter a coding question is worked in: 'cuda' for a CUDA-only one, else 'triton'."""
    return "cuda" if needs_cuda_gpu(question) else "triton"
