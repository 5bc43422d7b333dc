"""Browse: topic tree, a filtered question list, and each question with its answer behind a key."""

from __future__ import annotations

import textwrap
from collections import Counter
from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.widgets import DataTable, Footer, Header, Input, Static, Tree

from gpuprep.sessions.browse import SORTS, QuestionQuery, browse_rows, no_match_message
from gpuprep.sessions.practice import PracticeFilter
from gpuprep.sessions.question_view import QuestionView
from gpuprep.tui.messages import StartPractice
from gpuprep.tui.screens.base import GpuprepScreen
from gpuprep.tui.screens.question import QuestionScreen

STYLES = Path(__file__).parent.parent / "styles"
#: Below this many columns the topic tree hides (t shows it): the list needs the width.
NARROW = 110
KIND_SHORT = {"concept": "concept", "estimation": "estim.", "debugging": "debug", "design": "design", "coding": "coding"}


class BrowseScreen(GpuprepScreen[None]):
    """Every question of the bank, by topic, with filters."""

    CSS_PATH = STYLES / "browse.tcss"
    BINDINGS = [
        Binding("slash", "search", "Search"),
        Binding("p", "practise", "Practise"),
        Binding("o", "sort", "Sort"),
        Binding("t", "toggle_topics", "Topics"),
    ]

    _seen: Counter[str] = Counter()
    """How often each question was rated (replaced, never mutated, by _load_progress)."""
    _due: dict[str, datetime] = {}  # noqa: RUF012 - replaced whole, never mutated
    """When each rated question's card is due."""

    sort: var[str] = var("bank", init=False)
    """The list's order: one of SORTS; o cycles through them."""

    topic: var[str | None] = var[str | None](None, init=False)
    """The topic picked in the tree; None: every topic."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="browse"):
            tree: Tree[str | None] = Tree("All topics", data=None, id="topics")
            tree.show_root = True
            for topic in self.app.bank.topics.values():
                tree.root.add_leaf(topic.title, data=topic.id)
            tree.root.expand()
            yield tree
            with Vertical(id="right"):
                search = Input(
                    id="search", placeholder="search: words, kind:concept level:mid tag:hbm"
                )
                search.cursor_blink = self.app.cursor_blink
                yield search
                table: DataTable[str] = DataTable(
                    id="questions", cursor_type="row", zebra_stripes=True
                )
                for label, key in (("Kind", "kind"), ("Lvl", "level"), ("Seen", "seen"), ("Due", "due"), ("Question / id", "title")):
                    table.add_column(label, key=key)
                yield Static(id="sorted")
                yield Static(id="no-match", classes="hidden")
                yield table
        yield Footer()

    def on_mount(self) -> None:
        self._load_progress()
        self.refill()
        self.query_one("#questions", DataTable).focus()

    def on_screen_resume(self) -> None:
        # Back from practice: ratings may have changed what is seen and due.
        self._load_progress()
        self.refill()

    def _load_progress(self) -> None:
        """Read seen counts and due dates once, not on every keystroke of the search."""
        store = self.app.store
        self._seen = Counter(question_id for question_id, _ in store.review_logs())
        self._due = {question_id: card.due for question_id, card in store.cards().items()}

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#topics", Tree).display = event.size.width >= NARROW
        self.refill()

    def refill(self) -> None:
        query = QuestionQuery.parse(self.query_one("#search", Input).value, topic=self.topic)
        table = self.query_one("#questions", DataTable)
        table.clear()
        found = browse_rows(self.app.bank, query, self._due, self._seen, self.sort)
        # An empty table alone looks broken; say why nothing matched.
        no_match = self.query_one("#no-match", Static)
        no_match.update(no_match_message(query) if not found else "")
        no_match.set_class(bool(found), "hidden")
        now = self.app.clock()
        width = self._title_width()
        for row in found:
            question = row.question
            # Two lines: the title (the widest column, so the least cut) over the id every
            # CLI command takes.
            lines = textwrap.wrap(question.title, width) or [""]
            cell = Text("\n".join(lines))
            cell.append("\n" + question.id, style="dim")
            table.add_row(
                KIND_SHORT.get(question.kind, question.kind),
                question.level[:3],
                str(row.seen),
                row.due_text(now),
                cell,
                key=question.id,
                height=len(lines) + 1,
            )
        self.query_one("#sorted", Static).update(f"sorted by {self.sort} (o: next order)")

    def _title_width(self) -> int:
        """Columns left for the title: titles wrap there rather than being cut."""
        tree = self.query_one("#topics", Tree)
        used = 34 + (tree.outer_size.width if tree.display else 0)
        return max(24, (self.size.width or 80) - used)

    def watch_sort(self) -> None:
        self.refill()

    def action_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]

    @on(DataTable.HeaderSelected, "#questions")
    def header_chosen(self, event: DataTable.HeaderSelected) -> None:
        key = event.column_key.value
        if key in SORTS:
            self.sort = key

    def action_toggle_topics(self) -> None:
        tree = self.query_one("#topics", Tree)
        tree.display = not tree.display
        self.call_after_refresh(self.refill)

    @on(Tree.NodeSelected, "#topics")
    def topic_chosen(self, event: Tree.NodeSelected[str | None]) -> None:
        self.topic = event.node.data

    def watch_topic(self) -> None:
        self.refill()

    @on(Input.Changed, "#search")
    def search_changed(self) -> None:
        self.refill()

    @on(Input.Submitted, "#search")
    def search_done(self) -> None:
        self.query_one("#questions", DataTable).focus()

    def _highlighted(self) -> str | None:
        table = self.query_one("#questions", DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    @on(DataTable.RowSelected, "#questions")
    def open_question(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.app.push_screen(QuestionScreen(self.question_view(event.row_key.value)))

    def question_view(self, question_id: str) -> QuestionView:
        """The question for the GPU the app assumes (settings or this machine's), by the rule
        `gpuprep show` uses."""
        app = self.app
        return QuestionView.build(app.bank.questions[question_id], app.bank, preferred_gpu=app.gpu)

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_practise(self) -> None:
        question_id = self._highlighted()
        if question_id is not None:
            self.post_message(StartPractice(PracticeFilter(question=question_id)))
