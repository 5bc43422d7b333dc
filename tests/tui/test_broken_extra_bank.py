"""A broken or moved extra bank saved in the settings must not lock the user out of the app
whose Settings screen (F5) can remove it: the app opens on the rest, with a banner."""

from __future__ import annotations

import pytest
import typer

from gpuprep.cli.practice import _load_bank
from gpuprep.settings import Settings, save_settings

SIZE = (80, 24)


@pytest.fixture
def broken_folder(tmp_path):
    folder = tmp_path / "mine"
    (folder / "questions").mkdir(parents=True)
    (folder / "questions" / "broken.yaml").write_text("questions:\n  - id: [not, an, id]\n")
    return folder


def test_saved_extra_banks_that_are_gone_or_broken_are_skipped_and_named(
    tmp_path, monkeypatch, broken_folder
):
    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "home"))
    gone = tmp_path / "gone"
    save_settings(Settings(extra_banks=[gone, broken_folder]))
    bank, notice = _load_bank(None)
    builtin, _ = _load_bank_without_extras(tmp_path, monkeypatch)
    assert len(bank.questions) == len(builtin.questions) > 300
    assert notice.startswith("2 extra banks skipped: ")
    assert str(gone) in notice and "not a folder" in notice
    assert str(broken_folder) in notice and "F5" in notice


def _load_bank_without_extras(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "clean-home"))
    return _load_bank(None)


def test_a_broken_bank_given_with_dash_dash_bank_still_stops_with_its_problems(
    tmp_path, monkeypatch, broken_folder, capsys
):
    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "home"))
    with pytest.raises(typer.Exit) as stopped:
        _load_bank([broken_folder])
    assert stopped.value.exit_code == 1
    assert "broken.yaml" in capsys.readouterr().err


def test_a_good_extra_bank_is_kept_beside_a_skipped_one(
    tmp_path, monkeypatch, broken_folder
):
    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "home"))
    good = tmp_path / "good"
    (good / "questions").mkdir(parents=True)
    (good / "questions" / "extra.yaml").write_text(
        "topic:\n  id: mine\n  title: My questions\n  summary: Questions of my own.\n"
        "questions:\n"
        "  - id: extra-one\n    title: An extra question\n    kind: concept\n"
        "    level: junior\n    minutes: 2\n    prompt: What bounds a kernel?\n"
        "    answer: Its roof.\n"
        "    rubric:\n      strong_signals: [Names both roofs.]\n      red_flags: [Guesses.]\n"
        "      follow_ups: [Which roof for a copy?]\n"
    )
    save_settings(Settings(extra_banks=[broken_folder, good]))
    bank, notice = _load_bank(None)
    assert "extra-one" in bank.questions
    assert notice.startswith("1 extra bank skipped: ") and str(good) not in notice


async def test_the_app_opens_with_the_banner(build_app):
    app = build_app(notice="1 extra bank skipped: /x (not a folder). F5 (Settings) edits the list.")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any("1 extra bank skipped" in str(n.message) for n in app._notifications)
