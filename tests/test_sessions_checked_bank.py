"""The app's bank load remembers a clean check and repeats it only when a file changed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gpuprep.bank.problems import BankError
from gpuprep.sessions import checked_bank

FIXTURE_BANK = Path(__file__).parent / "tui" / "fixtures" / "bank"


@pytest.fixture
def bank_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "home"))
    copy = tmp_path / "bank"
    shutil.copytree(FIXTURE_BANK, copy)
    return copy


@pytest.fixture
def check_calls(monkeypatch):
    calls = []
    real = checked_bank.check_bank

    def counting(bank):
        calls.append(bank)
        return real(bank)

    monkeypatch.setattr(checked_bank, "check_bank", counting)
    return calls


def test_a_clean_bank_is_checked_once_then_remembered(bank_dir, check_calls):
    first = checked_bank.load_checked_bank([bank_dir], builtin=False)
    again = checked_bank.load_checked_bank([bank_dir], builtin=False)
    assert len(check_calls) == 1
    assert (
        set(first.questions)
        == set(again.questions)
        == {"fx-copy-time", "fx-ridge-meaning", "fx-coalescing"}
    )


def test_editing_a_question_file_runs_the_check_again(bank_dir, check_calls):
    checked_bank.load_checked_bank([bank_dir], builtin=False)
    path = bank_dir / "questions" / "memory.yaml"
    path.write_text(
        path.read_text().replace("Why coalescing matters", "Why coalescing matters so much")
    )
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10_000_000))
    checked_bank.load_checked_bank([bank_dir], builtin=False)
    assert len(check_calls) == 2


def test_a_cross_file_fault_is_never_remembered_as_clean(bank_dir, check_calls):
    path = bank_dir / "questions" / "roofline.yaml"
    path.write_text(path.read_text().replace("gpu: h100_sxm", "gpu: h100_nope"))
    for _ in range(2):
        with pytest.raises(BankError, match="h100_nope"):
            checked_bank.load_checked_bank([bank_dir], builtin=False)
    assert len(check_calls) == 2
    assert not checked_bank.stamp_path().exists()
