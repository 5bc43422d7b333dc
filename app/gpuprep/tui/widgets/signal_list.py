"""The strong signals of a rubric as a tick list whose long lines wrap instead of being cut.

Textual's `SelectionList` draws one option per screen line (it takes the line number as the
option index), so it sets `text-wrap: nowrap` and cuts a long signal with an ellipsis; turning
wrapping on there puts tick boxes on continuation lines and ticks the wrong signal (Textual issues
#3220, #5326). `OptionList` underneath already wraps and keeps a line -> (option, line in option)
map; this list draws the tick box from that map, on an option's first line only.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.strip import Strip
from textual.widgets import OptionList, SelectionList
from textual.widgets._toggle_button import ToggleButton


class SignalList(SelectionList[int]):
    """Tick the strong signals you hit; each signal wraps to as many lines as it needs."""

    DEFAULT_CSS = """
    SignalList {
        text-wrap: wrap;
        text-overflow: fold;
    }
    """

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # OptionList measures prompts at the full width, but they are drawn beside the tick box.
        return super().get_content_height(
            container, viewport, width - self._get_left_gutter_width()
        )

    def render_line(self, y: int) -> Strip:
        line = OptionList.render_line(self, y)
        try:
            option_index, line_in_option = self._lines[self.scroll_offset.y + y]
        except IndexError:
            return line
        first_segment = next(iter(line), None)
        underlying_style = (first_segment and first_segment.style) or self.rich_style
        gutter = self._get_left_gutter_width()
        meta = Style(meta={"option": option_index})
        if line_in_option > 0:
            return Strip([Segment(" " * gutter, underlying_style + meta), *line])
        option = self.get_option_at_index(option_index)
        component = "selection-list--button"
        if option.value in self._selected:
            component += "-selected"
        if self.highlighted == option_index:
            component += "-highlighted"
        button_style = self.get_component_rich_style(component)
        if self.app.no_color:
            # Without colour the toggle button looks the same ticked or not: draw the tick.
            box = "[✓]" if option.value in self._selected else "[ ]"
            return Strip([Segment(box, underlying_style + meta), Segment(" ", underlying_style), *line])
        side_style = Style.from_color(button_style.bgcolor, underlying_style.bgcolor) + meta
        return Strip(
            [
                Segment(ToggleButton.BUTTON_LEFT, side_style),
                Segment(ToggleButton.BUTTON_INNER, button_style + meta),
                Segment(ToggleButton.BUTTON_RIGHT, side_style),
                Segment(" ", underlying_style),
                *line,
            ]
        )
