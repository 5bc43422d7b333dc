"""The theme chosen from the command palette is kept for the next start (issue 17); a saved
theme this Textual does not have opens on the default, without a crash."""

from __future__ import annotations

from textual.constants import DEFAULT_THEME

from gpuprep.settings import Settings, load_settings, save_settings

SIZE = (100, 30)


async def test_a_theme_chosen_in_the_command_palette_is_there_on_the_next_start(build_app):
    save_settings(Settings(gpu="h100_sxm"))
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"theme", "enter")
        await pilot.pause()
        await pilot.press(*"nord", "enter")
        await pilot.pause()
        assert app.theme == "nord"
    saved = load_settings()
    assert (saved.theme, saved.gpu) == ("nord", "h100_sxm"), "the rest of the settings stay"

    again = build_app()
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_an_unknown_saved_theme_opens_on_the_default(build_app):
    save_settings(Settings(theme="a-theme-from-another-textual"))
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == DEFAULT_THEME
    assert load_settings().theme == "a-theme-from-another-textual", "left as it was"


async def test_saving_the_settings_form_keeps_the_theme_chosen_in_the_palette(build_app, gpuprep_home):
    from gpuprep.settings import load_settings

    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.theme = "nord"
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        from textual.widgets import Switch

        app.screen.query_one("#open-book", Switch).value = True  # a change the form does save
        app.screen.save()
        await pilot.pause()
    saved = load_settings()
    assert saved.open_book and saved.theme == "nord"
