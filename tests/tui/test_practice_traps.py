"""A wrong estimate names the slip and explains it; Stats counts the slips; closed book by default."""

from __future__ import annotations

import yaml
from textual.widgets import Static

from gpuprep.sessions.practice import PracticeFilter

from .conftest import answer_estimate

SIZE = (120, 36)


def text_of(screen, selector) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_a_trap_is_named_and_explained_and_stats_count_it(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        bits = screen.session.solution().answer_value * 8
        await answer_estimate(pilot, f"{bits:g} us")
        assert text_of(screen, "#verdict").startswith("Wrong (bits for bytes)")
        assert screen.query_one("#trap").display
        assert "A byte is 8 bits" in text_of(screen, "#trap")
        # The explanation is said once, on its own line, not again in the verdict.
        assert "A byte is 8 bits" not in text_of(screen, "#verdict")
        await pilot.press("1", "escape", "f4")
        await pilot.pause()
        weakest = text_of(app.screen, "#weakest")
        assert "You fell for 'bits for bytes' in 1 of 1 graded estimates." in weakest
    [attempt] = app.store.attempts()
    assert attempt.trap == "bits for bytes"


async def test_a_right_answer_has_no_trap_line(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await answer_estimate(pilot, f"{screen.session.solution().answer_value:g} us")
        assert text_of(screen, "#verdict").startswith("Correct")
        assert not screen.query_one("#trap").display


async def test_closed_book_grades_a_table_answer_from_the_table_and_suggests_hard(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await answer_estimate(pilot, "2 * size / gpu.hbm_bandwidth")
        verdict = text_of(screen, "#verdict")
        assert verdict.startswith("Correct, from the table")
        assert "hbm bandwidth: 3.35 TB/s" in verdict
        assert screen.query_one("#rate-2").variant == "primary"
        await pilot.press("2", "escape", "f4")
        await pilot.pause()
        assert "1 of 1 graded estimates read a figure" in text_of(app.screen, "#weakest")
    [attempt] = app.store.attempts()
    assert attempt.from_table and attempt.verdict == "correct"


async def test_the_open_book_setting_counts_a_table_answer_as_recalled(build_app, gpuprep_home):
    gpuprep_home.mkdir(parents=True, exist_ok=True)
    (gpuprep_home / "settings.yaml").write_text(yaml.safe_dump({"open_book": True}))
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await answer_estimate(pilot, "2 * size / gpu.hbm_bandwidth")
        assert text_of(screen, "#verdict").startswith("Correct: ")
        assert screen.query_one("#rate-3").variant == "primary"


async def test_the_open_book_switch_is_saved_and_applies_to_the_next_session(
    build_app, gpuprep_home
):
    from textual.widgets import Switch

    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        await pilot.pause()
        app.screen.query_one("#open-book", Switch).value = True
        await pilot.click("#save")
        await pilot.pause()
        assert app.open_book is True
    assert yaml.safe_load((gpuprep_home / "settings.yaml").read_text())["open_book"] is True
