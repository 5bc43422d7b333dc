"""Browse: topic tree, a filtered question list, and each question with its answer behind a key."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.widgets import DataTable, Footer, Header, Input, Static, Tree

from gpuprep.sessions.browse import QuestionQuery, find_questions, no_match_message
from gpuprep.sessions.practice import PracticeFilter
from gpuprep.sessions.question_view import QuestionView
from gpuprep.tui.messages import StartPractice
from gpuprep.tui.screens.base import GpuprepScreen
from gpuprep.tui.screens.question import QuestionScreen

STYLES = Path(__file__).parent.parent / "styles"


class BrowseScreen(GpuprepScreen[None]):
    """Every question of the bank, by topic, with filters."""

    CSS_PATH = STYLES / "browse.tcss"
    BINDINGS = [
        Binding("slash", "search", "Search"),
        Binding("p", "practise", "Practise this"),
    ]

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
                table.add_columns("Kind", "Level", "Min", "Question")
                yield Static(id="no-match", classes="hidden")
                yield table
        yield Footer()

    def on_mount(self) -> None:
        self.refill()
        self.query_one("#questions", DataTable).focus()

    def refill(self) -> None:
        query = QuestionQuery.parse(self.query_one("#search", Input).value, topic=self.topic)
        table = self.query_one("#questions", DataTable)
        table.clear()
        found = find_questions(self.app.bank, query)
        # An empty table alone looks broken; say why nothing matched.
        no_match = self.query_one("#no-match", Static)
        no_match.update(no_match_message(query) if not found else "")
        no_match.set_class(bool(found), "hidden")
        for question in found:
            # The title goes last: at 80 columns it is the one that gets cut.
            table.add_row(
                question.kind,
                question.level,
                str(question.minutes),
                question.title,
                key=question.id,
            )

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
