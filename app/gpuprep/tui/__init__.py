"""The Textual app: home, browse, practice, stats and settings screens over the sessions and store."""
