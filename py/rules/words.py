"""Wording for messages players read: plurals, possessives, and how a bad value is shown.

Every RuleError message is built with these, so the tone stays the same everywhere.
"""


def plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many


def possessive(name: str) -> str:
    """"Ash" -> "Ash's", "You" -> "your", "The GM" -> "The GM's"."""
    if name.lower() == "you":
        return name[0] + "our"
    return f"{name}'s"


def capitalize(sentence: str) -> str:
    """Upper-case the first letter only (str.capitalize would lower-case the rest)."""
    return sentence[:1].upper() + sentence[1:]


def show(value) -> str:
    """A short, player-readable rendering of a bad value for error messages."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:17] + "..."
        return f"'{shown}'"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**9 else "a huge number"
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) < 1e9 else "that number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a group of fields"
    return "that value"


def either(choices) -> str:
    choices = list(choices)
    if len(choices) == 1:
        return choices[0]
    return ", ".join(choices[:-1]) + " or " + choices[-1]
