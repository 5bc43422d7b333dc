"""One screen per module, named for what it shows."""
