"""The page as the tests read it: the markup of every region, and its words."""
import html
import re

from ui import router

from samples import seen


def markup(state) -> str:
    return "".join(content for _, content in router.page(state))


def text(state) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", seen(markup(state))))


def pictures(state) -> list[str]:
    """What each picture (an SVG with role="img") says to a screen reader: its aria-label."""
    return [html.unescape(seen(label)) for label in re.findall(r'<svg [^>]*?aria-label="([^"]*)"', markup(state))]
