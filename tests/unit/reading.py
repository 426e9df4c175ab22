"""The page as the tests read it: the markup of every region, and its words."""
import re

from ui import router

from samples import seen


def markup(state) -> str:
    return "".join(content for _, content in router.page(state))


def text(state) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", seen(markup(state))))
