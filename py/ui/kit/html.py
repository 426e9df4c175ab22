"""Markup built from Python values, escaped by default.

`h("button", "Roll", type="button", data_action="roll")` returns Markup; any
plain string inside is escaped, so a name like `<img onerror=…>` is shown as
text, never parsed. Only Markup (built here) passes through unescaped.
Pure Python: views are tested under CPython.
"""
from __future__ import annotations

from html import escape

VOID = {"area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Markup(str):
    """A string that is already safe HTML."""


def text(value) -> Markup:
    return value if isinstance(value, Markup) else Markup(escape(str(value), quote=False))


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


def attributes(attrs: dict) -> str:
    out = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        name = attribute_name(name)
        if value is True:
            out.append(f" {name}")
        else:
            out.append(f' {name}="{escape(str(value), quote=True)}"')
    return "".join(out)


def h(tag: str, *children, **attrs) -> Markup:
    """One element; children are strings, numbers, Markup or lists of them."""
    opening = f"<{tag}{attributes(attrs)}>"
    if tag in VOID:
        return Markup(opening)
    return Markup(f"{opening}{join(children)}</{tag}>")


def classes(*names, **conditional) -> str:
    """`classes("die", kept=True)` -> "die kept"; falsy names are dropped."""
    chosen = [name for name in names if name]
    chosen += [name.replace("_", "-") for name, on in conditional.items() if on]
    return " ".join(chosen)
