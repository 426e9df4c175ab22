"""QR codes for links: segno's own SVG, drawn large enough to scan from across a table.

segno is imported on first use, keeping it out of the app's start-up. A link too long for any
QR code (version 40) gets a sentence instead of a code: the screen keeps its Share and copy.
"""
from __future__ import annotations

from functools import lru_cache

from ui.kit.html import Markup, h

QR_ERROR = "l"  # screens don't get scratched; the smallest code has the largest modules
QR_BORDER = 4  # the quiet zone the QR standard asks for, in modules
DENSE = 100  # modules across past which a camera must come close (a 161-module code fills a phone's screen)


def segments(url: str) -> list[str] | str:
    """The address in byte mode and the fragment on its own: a version-2 fragment is upper-case
    base32, which QR's alphanumeric mode packs in 5.5 bits a character instead of 8 (a roll:
    version 12 as one segment, 10 as two)."""
    address, mark, fragment = url.partition("#")
    return [address + mark, fragment] if fragment else url


TOO_LONG = "This link is too long for a QR code: share it or copy it instead."


@lru_cache(maxsize=8)
def qr(url: str) -> tuple[str, str, int] | None:
    """(inline SVG, designator like "14-L", modules across without the quiet zone) of the QR code for `url`,
    or None when no QR code holds it. The SVG is segno's own: no user text inside it, no style attribute
    (CSP style-src 'self')."""
    import segno

    try:
        code = segno.make_qr(segments(url), error=QR_ERROR, boost_error=True)
    except segno.DataOverflowError:
        return None
    svg = code.svg_inline(border=QR_BORDER, dark="#000", light="#fff", omitsize=True, svgclass="qr-code",
                          lineclass=None)
    return svg, code.designator, code.symbol_size(border=0)[0]


def qr_markup(url: str, label: str, too_long: str = TOO_LONG) -> Markup:
    """The QR code of `url`, or the sentence `too_long` when no QR code holds it."""
    drawn = qr(url)
    if drawn is None:
        return h("p", too_long, class_="hint qr-too-long", data_testid="qr-too-long")
    svg, designator, _ = drawn
    return h("div", Markup(svg), class_="qr", role="img", aria_label=label, data_testid="qr", data_qr=designator)


def size_words(url: str) -> str:
    """A link's length and its QR code's size, or that no QR code holds it."""
    drawn = qr(url)
    if drawn is None:
        return f"{len(url):,} characters: too long for a QR code"
    _, _, modules = drawn
    dense = ": a dense code, best scanned close up and steady" if modules > DENSE else ""
    return f"{len(url):,} characters{dense}"
