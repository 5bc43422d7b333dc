"""Browse at 80 columns: ids visible, titles whole (wrapped, not cut), progress columns, sorting."""

from __future__ import annotations

from textual.widgets import DataTable, Tree

from gpuprep.sessions.checked_bank import load_clean_bank


async def test_at_80_columns_every_title_is_whole_and_every_id_is_shown(clock, store_path):
    from gpuprep.store.database import Store
    from gpuprep.tui.app import make_app

    bank = load_clean_bank()
    app = make_app(
        bank=bank, store=Store(store_path), clock=clock, gpu=None, cursor_blink=False, detect_gpu=False
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        assert not app.screen.query_one("#topics", Tree).display
        table = app.screen.query_one("#questions", DataTable)
        assert table.row_count == len(bank.questions)
        longest = max(bank.questions.values(), key=lambda q: len(q.title))
        cell = str(table.get_cell(longest.id, "title"))
        assert " ".join(cell.split("\n")[:-1]) == longest.title
        assert cell.split("\n")[-1] == longest.id
        assert all(len(line) <= 80 - 30 for line in cell.split("\n"))


async def test_o_cycles_the_order_and_t_shows_the_topics(build_app):
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3", "o")
        await pilot.pause()
        assert app.screen.sort == "due"
        await pilot.press("t")
        await pilot.pause()
        assert app.screen.query_one("#topics", Tree).display


async def test_wide_terminals_keep_the_topic_tree(build_app):
    app = build_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        assert app.screen.query_one("#topics", Tree).display
