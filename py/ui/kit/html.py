"""Markup built from Python values, escaped by default.

`h("button", "Roll", type="button", data_action="roll")` returns Markup; any
plain string inside is escaped, so a name like `<img onerror=…>` is shown as
text, never parsed. Only Markup (built here) passes through unescaped.

Text people wrote (names, kinds, descriptors) goes into markup and sentences as
`isolate(name)` (rules.words: Unicode isolates), drawn here as <bdi>: its
direction, a right-to-left script or an override typed into it, stays inside.
Where no element can go (labels in attributes, <option> text) direction
controls are dropped instead. Pure Python: views are tested under CPython.
"""
from __future__ import annotations

import re
from html import escape

from rules.words import FSI, PDI, isolate

__all__ = ["Markup", "h", "text", "join", "classes", "isolate", "isolated", "flat", "FSI", "PDI"]

VOID = {"area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"}
PLAIN_TEXT_TAGS = {"option", "textarea", "title"}  # elements whose content is text only
LABELS = {"aria-label", "title", "alt", "placeholder"}  # attributes people read (or hear)
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
ISOLATE_MARKS = re.compile(f"([{FSI}{PDI}])")


class Markup(str):
    """A string that is already safe HTML."""


def text(value) -> Markup:
    return value if isinstance(value, Markup) else Markup(isolated(escape(str(value), quote=False)))


def isolated(escaped: str, opening: str = "<bdi>", closing: str = "</bdi>") -> str:
    """Escaped text with every isolate (FSI … PDI) as a <bdi> element (or another isolating
    element: SVG text has no <bdi>); unmatched marks go."""
    if FSI not in escaped and PDI not in escaped:
        return escaped
    parts, depth = [], 0
    for part in ISOLATE_MARKS.split(escaped):
        if part == FSI:
            parts.append(opening)
            depth += 1
        elif part == PDI:
            if depth:
                parts.append(closing)
                depth -= 1
        else:
            parts.append(part)
    parts.append(closing * depth)
    return "".join(parts)


def flat(value) -> str:
    """Text for a place that holds no elements (a label, an option, the announcer): without
    direction controls, so what someone wrote cannot reorder the words around it there."""
    return BIDI_CONTROLS.sub("", str(value))


def join(parts) -> Markup:
    return Markup("".join(render(part) for part in parts))


def render(child) -> Markup:
    if child is None or child is False:
        return Markup("")
    if isinstance(child, (list, tuple)):
        return join(child)
    return text(child)


def attribute_name(name: str) -> str:
    # Python keywords and dashes: class_ -> class, data_action -> data-action, for_ -> for
    return name.rstrip("_").replace("_", "-")


def attribute(keyword: str, value) -> str:
    """One attribute as markup: ` name="value"`, ` name` for True, "" for None and False."""
    if value is None or value is False:
        return ""
    name = attribute_name(keyword)
    if value is True:
        return f" {name}"
    value = flat(value) if name in LABELS else str(value)
    return f' {name}="{escape(value, quote=True)}"'


# (keyword, type, value) -> its markup: a tap draws the page's few hundred attributes again, nearly
# all as they were (escaping them was a third of drawing a screen). The type is in the key, as
# True == 1 == 1.0 would share one. Emptied when full: what people typed also passes through here.
DRAWN_ATTRIBUTES: dict[tuple, str] = {}
MOST_ATTRIBUTES = 4096


def attributes(attrs: dict) -> str:
    out = []
    for keyword, value in attrs.items():
        key = (keyword, value.__class__, value)
        try:
            drawn = DRAWN_ATTRIBUTES.get(key)
        except TypeError:  # a value that cannot be a key (none is, so far)
            out.append(attribute(keyword, value))
            continue
        if drawn is None:
            if len(DRAWN_ATTRIBUTES) >= MOST_ATTRIBUTES:
                DRAWN_ATTRIBUTES.clear()
            drawn = DRAWN_ATTRIBUTES[key] = attribute(keyword, value)
        out.append(drawn)
    return "".join(out)


def h(tag: str, *children, **attrs) -> Markup:
    """One element; children are strings, numbers, Markup or lists of them."""
    opening = f"<{tag}{attributes(attrs)}>"
    if tag in VOID:
        return Markup(opening)
    if tag in PLAIN_TEXT_TAGS:
        children = [child if isinstance(child, Markup) else flat(child) for child in children]
    return Markup(f"{opening}{join(children)}</{tag}>")


def classes(*names, **conditional) -> str:
    """`classes("die", kept=True)` -> "die kept"; falsy names are dropped."""
    chosen = [name for name in names if name]
    chosen += [name.replace("_", "-") for name, on in conditional.items() if on]
    return " ".join(chosen)
