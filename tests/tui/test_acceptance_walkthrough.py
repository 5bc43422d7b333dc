"""TUI defects found by walking through the README as a new user, each pinned by its fix."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import SelectionList

from gpuprep.sessions.practice import PracticeFilter


async def test_page_down_scrolls_to_the_rubric_after_a_reveal(build_app):
    # After a reveal the signals list has focus; it used to take PageDown for itself, so at a
    # small terminal the rubric under a long worked answer could not be reached.
    app = build_app(practice=PracticeFilter(question="fx-coalescing"))
    async with app.run_test(size=(80, 16)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        body = app.screen.query_one("#body", VerticalScroll)
        assert isinstance(app.focused, SelectionList)
        assert body.max_scroll_y > 0 and body.scroll_y == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert body.scroll_y > 0


async def test_settings_can_be_saved_with_the_keyboard_alone(build_app, gpuprep_home):
    import yaml
    from textual.widgets import Select

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.focused, Select)  # Enter used to do nothing: nothing had focus
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        chosen = app.screen.query_one("#gpu", Select).value
        assert chosen is not Select.NULL
        # Tab past the other fields (bank folders, open book ...) to Save, then press it.
        for _field in range(12):
            if getattr(app.focused, "id", None) == "save":
                break
            await pilot.press("tab")
        await pilot.press("enter")
        await pilot.pause()
    assert yaml.safe_load((gpuprep_home / "settings.yaml").read_text())["gpu"] == chosen


async def test_settings_in_an_unwritable_home_say_so_instead_of_crashing(
    build_app, tmp_path, monkeypatch
):
    from textual.widgets import Static

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        home = tmp_path / "a-file"
        home.write_text("")
        monkeypatch.setenv("GPUPREP_HOME", str(home))
        await pilot.press("f5")
        await pilot.pause()
        app.screen.query_one("#save").press()
        await pilot.pause()
        message = str(app.screen.query_one("#saved", Static).render())
        assert message.startswith("Not saved: cannot write") and "GPUPREP_HOME" in message


async def test_a_refused_file_does_not_read_as_zero_of_zero_cases_passed(clock):
    from textual.widgets import Static

    from gpuprep.bank.loader import load_bank
    from gpuprep.harness.report import Status, SubmitReport
    from gpuprep.sessions.drill import DrillSession
    from gpuprep.store.database import Store
    from gpuprep.tui.app import make_app

    class RefusingHarness:
        def submit(self, drill, kernels_dir, file, **options):
            return SubmitReport(
                drill="vector_add",
                file=str(file),
                status=Status.REJECTED,
                message="refused before running: touches file descriptors or processes (os . _exit)",
            )

    bank, _ = load_bank()
    question = next(q for q in bank.questions.values() if q.drill == "vector_add")
    store = Store.open()
    drills = DrillSession(bank, store, clock, harness=RefusingHarness())
    workspace = drills.workspace("vector_add")
    workspace.mkdir(parents=True)
    (workspace / "starter_triton.py").write_text("import os\nos._exit(0)\n")
    app = make_app(
        bank=bank,
        store=store,
        clock=clock,
        practice=PracticeFilter(question=question.id),
        cursor_blink=False,
        detect_gpu=False,
        drill_session=drills,
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("x")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.screen.query_one("#coding-status", Static).render())
    store.close()
    assert "os . _exit" in status
    assert "0/0" not in status


async def test_a_search_that_matches_nothing_says_so_and_names_a_kind_that_does_not_exist(
    build_app,
):
    from textual.widgets import DataTable, Input, Static

    from gpuprep.tui.screens.browse import BrowseScreen

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, BrowseScreen)
        no_match = app.screen.query_one("#no-match", Static)
        assert no_match.has_class("hidden")
        app.screen.query_one("#search", Input).value = "kind:wizard"
        await pilot.pause()
        assert app.screen.query_one("#questions", DataTable).row_count == 0
        assert not no_match.has_class("hidden")
        text = str(no_match.render())
        assert "No question matches" in text and "no kind wizard" in text and "estimation" in text


async def test_a_rating_key_before_the_reveal_says_to_reveal_first(build_app):
    app = build_app(practice=PracticeFilter(question="fx-coalescing"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        assert [n.message for n in app._notifications] == [
            "Reveal the answer first (space), then rate it 1-4."
        ]
        assert app.store.attempts() == []
        await pilot.press("space", "3")
        await pilot.pause()
        assert [a.rating for a in app.store.attempts()] == [3]
