"""Wording for messages players read: plurals, possessives, how a bad value is shown, and
how a name someone wrote is set apart from the words around it.

Every RuleError message is built with these, so the tone stays the same everywhere.
"""
import re

# Unicode's first-strong isolate: text between FSI and PDI takes its own direction and
# cannot change the order of what surrounds it (a right-to-left name, or an override
# control typed into one, would otherwise reverse the app's own words).
FSI, PDI = "\u2068", "\u2069"
ISOLATE_CONTROLS = re.compile("[\u2066-\u2069]")


def isolate(text) -> str:
    """Text someone wrote, set apart for a sentence (ui.kit.html draws it as <bdi>). Isolate
    controls inside it are dropped so that it cannot end its isolation early."""
    return f"{FSI}{ISOLATE_CONTROLS.sub('', str(text))}{PDI}"


def plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many


# The names the app gives a side nobody named, as records hold them (a record keeps "The GM").
ROLE_NAMES = {"the gm": "the GM", "gm": "the GM", "the player": "the player", "player": "the player",
              "the opponent": "the opponent", "the adversary": "the adversary", "adversary": "the adversary"}


def in_text(name) -> str:
    """A side's name inside a sentence: a role's name in sentence case ("Waiting for the GM", not
    "The GM"; "Capitalize" a sentence that starts with one), any other name isolated as written."""
    return ROLE_NAMES.get(" ".join(str(name).split()).lower()) or isolate(name)


def possessive(name: str) -> str:
    """"Ash" -> "Ash's", "You" -> "your", "The GM" -> "The GM's"."""
    if name.lower() == "you":
        return name[0] + "our"
    return f"{isolate(name)}'s"


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
        return f"'{isolate(shown)}'"
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
