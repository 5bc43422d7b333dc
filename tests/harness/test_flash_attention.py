"""The tuned flash-attention rungs keep their promises under every config they may be tuned to.

The harness checks whichever config the autotuner picks (on a CPU, the one short sequences
run), so each config of v3 (pointer loads) and v4 (TMA descriptors) is launched here directly,
through Triton's interpreter, on odd lengths with both causal values; and causal block
skipping is checked for what it promises: a query block never touches keys past its diagonal
block (NaN planted there would reach the output through 0 x NaN). On a GPU, every config is
also checked as compiled, where tl.dot takes bfloat16 straight to the tensor cores instead of
the interpreter's float32 detour.
"""

from __future__ import annotations

import importlib.util
import math
from types import ModuleType

import pytest
import torch

from gpuprep.harness.references import REFERENCES

from .conftest import KERNELS_DIR, needs_gpu

#: bf16 output and P rounded to bf16 before P V; the drill's tolerance.
TOLERANCE = 2e-2


#: The autotuned rungs: v3 reads K and V by pointers, v4 through TMA descriptors.
TUNED_RUNGS = ["v3_tuned", "v4_tma_occupancy"]


def _load(rung: str) -> ModuleType:
    path = KERNELS_DIR / "flash_attention" / f"{rung}.py"
    spec = importlib.util.spec_from_file_location(f"flash_attention_{rung}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=TUNED_RUNGS)
def tuned(request, monkeypatch) -> ModuleType:
    """The rung loaded and run under Triton's interpreter: its INTERPRETED flag is read at
    import, and Triton asks the environment again while launching."""
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    return _load(request.param)


@pytest.fixture(params=TUNED_RUNGS)
def compiled(request, monkeypatch) -> ModuleType:
    """The rung as a GPU runs it: compiled, no interpreter."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    return _load(request.param)


def _launch(module: ModuleType, config, q, k, v, causal: bool) -> torch.Tensor:
    """The rung's kernel with one config forced instead of autotuned."""
    batch, heads, seq_len, head_dim = q.shape
    out = torch.empty_like(q)
    grid = (math.ceil(seq_len / config.kwargs["BLOCK_M"]), batch * heads)
    options = {"num_warps": config.num_warps, "num_stages": config.num_stages, **config.kwargs}
    if config.maxnreg:
        options["maxnreg"] = config.maxnreg
    if hasattr(module, "descriptors"):  # v4: the config's pre-hook sets the descriptors' tiles
        tensors = dict(
            zip(
                ("desc_q", "desc_k", "desc_v", "desc_o"),
                module.descriptors(q, k, v, out),
                strict=True,
            )
        )
        config.pre_hook(tensors | {"HEAD_DIM": head_dim, **config.kwargs})
        pointers = list(tensors.values())
    else:
        pointers = [q, k, v, out]
    module.flash_attention_kernel.fn[grid](
        *pointers, seq_len, module.LOG2_E / math.sqrt(head_dim), HEAD_DIM=head_dim,
        CAUSAL=causal, **options,
    )  # fmt: skip
    return out


def _inputs(shape: tuple[int, ...], seed: int) -> list[torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    return [torch.randn(shape, generator=generator).to(torch.bfloat16) for _ in range(3)]


def _relative_error(out: torch.Tensor, expected: torch.Tensor) -> float:
    return float((out.double() - expected).norm() / expected.norm())


@pytest.mark.parametrize("causal", [False, True])
def test_every_tuned_config_matches_the_reference_on_odd_lengths(tuned, causal):
    # 37 keys: less than one block; 131: two 64-key blocks and a tail, one past a 128-query block.
    for config in tuned.CONFIGS:
        for shape in [(1, 2, 37, 16), (1, 1, 131, 32)]:
            q, k, v = _inputs(shape, seed=shape[2])
            expected = REFERENCES["attention"](q, k, v, causal)
            error = _relative_error(_launch(tuned, config, q, k, v, causal), expected)
            assert error < TOLERANCE, f"{config} on {shape}, causal={causal}: {error:.3g}"


@pytest.mark.filterwarnings("ignore:All-NaN slice")  # rows past 127 do see the NaN keys
def test_causal_query_blocks_never_touch_keys_past_their_diagonal(tuned):
    for config in tuned.CONFIGS:
        q, k, v = _inputs((1, 1, 200, 16), seed=7)
        expected = REFERENCES["attention"](q, k, v, True)
        # Every config's BLOCK_M divides 128: rows 0-127 fill whole query blocks whose diagonal
        # ends at key 127, so keys from 128 on must not even be loaded for them.
        k[..., 128:, :] = float("nan")
        v[..., 128:, :] = float("nan")
        out = _launch(tuned, config, q, k, v, True)
        early = out[..., :128, :]
        assert bool(torch.isfinite(early).all()), f"{config}: a key past the diagonal was used"
        assert _relative_error(early, expected[..., :128, :]) < TOLERANCE


@pytest.mark.gpu
@needs_gpu
@pytest.mark.parametrize("causal", [False, True])
def test_every_tuned_config_is_right_when_compiled_for_the_gpu(compiled, causal):
    for shape in [(2, 3, 1000, 128), (1, 2, 2049, 64)]:
        q, k, v = (t.cuda() for t in _inputs(shape, seed=shape[2]))
        expected = REFERENCES["attention"](q, k, v, causal)
        for config in compiled.fitting_configs(
            compiled.CONFIGS, {"seq_len": compiled.TUNED_FROM_SEQ_LEN, "HEAD_DIM": shape[3]}
        ):
            error = _relative_error(_launch(compiled, config, q, k, v, causal), expected)
            assert error < TOLERANCE, f"{config} on {shape}, causal={causal}: {error:.3g}"
