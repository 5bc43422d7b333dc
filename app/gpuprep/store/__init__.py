"""The progress store: attempts, spaced-repetition cards and review logs, drill results, in SQLite."""
