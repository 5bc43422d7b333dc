"""The base of gpuprep's screens: `self.app` is the gpuprep app, typed, with its bank and store."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from textual.binding import Binding
from textual.screen import Screen

if TYPE_CHECKING:
    from textual import getters

    from gpuprep.tui.app import GpuprepApp

ResultType = TypeVar("ResultType")

#: Practice and the mock have the most keys of their own (a drill adds its edit and run keys),
#: so their footers leave out the two keys that work on every screen, which F1 lists: they yield
#: `Footer(show_command_palette=False)` and bind this, which keeps ctrl+q quitting but unshown
#: (the app's own Quit binding would be).
QUIT_NOT_SHOWN = Binding("ctrl+q", "app.quit", "Quit", show=False, priority=True)


class GpuprepScreen(Screen[ResultType]):
    """A screen of the gpuprep app; `self.app.bank`, `.store`, `.clock` and `.gpu` are typed."""

    if TYPE_CHECKING:
        # Textual's own idiom (MessagePump does the same): at run time Screen's `app` property
        # returns the running app; the type checker is told it is a GpuprepApp. Naming the
        # class for real here would import the app, which imports the screens.
        app = getters.app(GpuprepApp)
