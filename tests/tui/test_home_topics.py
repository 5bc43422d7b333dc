"""Home's topic table at 80x24: a title longer than its column ends in '…' (cut bare at the
edge, "Kernel coding drills II" read as a whole "Kernel coding drills"), one that fits is shown
whole, and a wider terminal shows the long one whole too."""

from __future__ import annotations

import shutil

import yaml
from textual.widgets import DataTable

from gpuprep.bank.loader import load_bank

from .conftest import FIXTURE_BANK

LONG_TITLE = "Memory hierarchy: caches, HBM and the numbers to carry from registers to NVLink"


def rows_as_drawn(app) -> list[str]:
    table = app.screen.query_one("#coverage", DataTable)
    return [table.render_line(y).text.rstrip() for y in range(1, 1 + table.row_count)]


def bank_with_a_long_topic_title(tmp_path):
    bank = tmp_path / "bank"
    shutil.copytree(FIXTURE_BANK, bank)
    memory = bank / "questions" / "memory.yaml"
    topic = yaml.safe_load(memory.read_text())
    topic["topic"]["title"] = LONG_TITLE
    memory.write_text(yaml.safe_dump(topic, sort_keys=False))
    loaded, problems = load_bank([bank], builtin=False)
    assert problems == [], problems
    return loaded


async def test_a_topic_title_too_long_for_80_columns_ends_in_an_ellipsis(build_app, tmp_path):
    app = build_app(bank=bank_with_a_long_topic_title(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        narrow = rows_as_drawn(app)
        await pilot.resize_terminal(120, 24)
        await pilot.pause()
        wide = rows_as_drawn(app)
    [memory] = [row for row in narrow if "Memory hierarchy" in row]
    assert memory.endswith("…") and len(memory) <= 80 - 2  # left of the scrollbar's room
    assert LONG_TITLE.startswith(memory.split("   ")[-1].strip().removesuffix("…"))
    [roofline] = [row for row in narrow if "Roofline" in row]
    assert roofline.endswith("Roofline and arithmetic intensity")
    assert any(row.endswith(LONG_TITLE) for row in wide)
