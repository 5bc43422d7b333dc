"""Counted nouns in messages: "1 plan", "3 plans", never "plan(s)"."""


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """`number` and the noun agreeing with it: counted(1, "card") == "1 card"."""
    noun = singular if number == 1 else (plural or singular + "s")
    return f"{number} {noun}"
