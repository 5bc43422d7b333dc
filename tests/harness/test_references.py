"""The float64 truths of drills II agree with the vendor ops, and the scan's error measure is fair."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from gpuprep.harness import references
from gpuprep.harness.checking import check_output
from gpuprep.harness.references import REFERENCES, VENDOR_OPS, error_scale

CPU = torch.device("cpu")


def close(got: torch.Tensor, want: torch.Tensor, tolerance: float) -> bool:
    return float((got.double() - want).norm() / want.norm()) < tolerance


def test_matmul_reference_is_the_float64_product_and_torch_matmul_is_its_vendor_op():
    a, b = torch.randn(33, 65, dtype=torch.float64), torch.randn(65, 17, dtype=torch.float64)
    want = REFERENCES["matmul"](a.bfloat16(), b.bfloat16())
    assert want.dtype == torch.float64 and want.shape == (33, 17)
    assert torch.allclose(want, a.bfloat16().double() @ b.bfloat16().double())
    vendor = VENDOR_OPS["matmul"](a.bfloat16(), b.bfloat16())
    assert vendor.dtype == torch.bfloat16 and close(vendor, want, 1e-2)


def test_attention_reference_matches_sdpa_with_and_without_the_causal_mask():
    q, k, v = (torch.randn(2, 3, 37, 16, dtype=torch.float64) for _ in range(3))
    for causal in (False, True):
        want = REFERENCES["attention"](q, k, v, causal)
        sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        assert torch.allclose(want, sdpa, atol=1e-12), causal
    # The first query of a causal row sees only the first key.
    assert torch.allclose(REFERENCES["attention"](q, k, v, True)[:, :, 0], v[:, :, 0])


def test_attention_reference_in_chunks_of_heads_equals_one_chunk(monkeypatch):
    q, k, v = (torch.randn(2, 5, 24, 8, dtype=torch.bfloat16) for _ in range(3))
    whole = REFERENCES["attention"](q, k, v, True)
    monkeypatch.setattr(
        references, "ATTENTION_CHUNK_ELEMENTS", 24 * 24 * 3
    )  # 3 of 10 heads a chunk
    chunked = REFERENCES["attention"](q, k, v, True)
    assert torch.equal(whole, chunked)


def test_attention_vendor_op_takes_causal_as_the_fourth_argument():
    q, k, v = (torch.randn(1, 2, 9, 8) for _ in range(3))
    for causal in (False, True):
        got = VENDOR_OPS["attention"](q, k, v, causal)
        assert close(got, REFERENCES["attention"](q, k, v, causal), 1e-5)


def test_layernorm_reference_matches_f_layer_norm_in_float64():
    x = torch.randn(7, 300, dtype=torch.float64) * 3 + 5
    weight = 1 + 0.1 * torch.randn(300, dtype=torch.float64)
    bias = 0.1 * torch.randn(300, dtype=torch.float64)
    want = REFERENCES["layernorm"](x, weight, bias, 1e-5)
    assert torch.allclose(want, F.layer_norm(x, (300,), weight, bias, 1e-5), atol=1e-12)
    vendor = VENDOR_OPS["layernorm"](x.float(), weight.float(), bias.float(), 1e-5)
    assert vendor.dtype == torch.float32 and close(vendor, want, 1e-6)


def test_cumsum_reference_is_the_inclusive_prefix_sum():
    x = torch.tensor([1.0, -2.0, 3.0, 0.5])
    assert REFERENCES["cumsum"](x).tolist() == [1.0, -1.0, 2.0, 2.5]
    assert torch.equal(VENDOR_OPS["cumsum"](x), torch.cumsum(x, 0))


def _blocked_fp32_scan(x: torch.Tensor, block: int = 1024) -> torch.Tensor:
    """A scan as a GPU computes it: exact-ish within blocks, carries added one by one in fp32."""
    inner = x.view(-1, block).cumsum(1)
    carries = torch.empty(inner.shape[0])
    running = torch.zeros((), dtype=torch.float32)
    for index, total in enumerate(inner[:, -1]):
        carries[index] = running
        running = running + total
    return (inner + carries[:, None]).reshape(-1)


def scan_check(got: torch.Tensor, x: torch.Tensor, kind: str, tolerance: float) -> dict:
    want = REFERENCES["cumsum"](x)
    return check_output(got, want, torch.float32, CPU, tolerance, error_scale(kind, [x]))


def test_an_fp32_scan_is_measured_against_the_running_sum_of_magnitudes_not_the_output():
    torch.manual_seed(3)
    x = torch.randn(1 << 20)
    got = _blocked_fp32_scan(x)
    # Prefix sums of zero-mean values wander near zero, so fp32 rounding carried from a
    # million earlier elements looks large beside the output; beside sum(|x[:i+1]|) it is tiny.
    assert not scan_check(got, x, "output_norm", 1e-7)["ok"]
    fair = scan_check(got, x, "running_abs_sum", 1e-7)
    assert fair["ok"], fair["problem"]


def test_the_running_scale_still_fails_an_exclusive_scan_and_a_dropped_block_carry():
    torch.manual_seed(4)
    x = torch.randn(4096)
    exclusive = torch.cat([torch.zeros(1), torch.cumsum(x, 0)[:-1]])
    result = scan_check(exclusive, x, "running_abs_sum", 1e-5)
    assert not result["ok"] and result["first_mismatch"]["index"] == [0]
    dropped = _blocked_fp32_scan(x).clone()
    dropped[2048:3072] -= float(x[:2048].sum())  # block 2 forgot its carry
    result = scan_check(dropped, x, "running_abs_sum", 1e-5)
    assert not result["ok"] and result["first_mismatch"]["index"][0] >= 2048
