"""QR codes for links: segno's own SVG, drawn large enough to scan from across a table.

segno is imported on first use, keeping it out of the app's start-up.
"""
from __future__ import annotations

from functools import lru_cache

from ui.kit.html import Markup, h

QR_ERROR = "l"  # screens don't get scratched; the smallest code has the largest modules
QR_BORDER = 4  # the quiet zone the QR standard asks for, in modules


def segments(url: str) -> list[str] | str:
    """The address in byte mode and the fragment on its own: a version-2 fragment is upper-case
    base32, which QR's alphanumeric mode packs in 5.5 bits a character instead of 8 (a roll:
    version 12 as one segment, 10 as two)."""
    address, mark, fragment = url.partition("#")
    return [address + mark, fragment] if fragment else url


@lru_cache(maxsize=8)
def qr(url: str) -> tuple[str, str, int]:
    """(inline SVG, designator like "14-L", modules across without the quiet zone) of the QR code for `url`.
    The SVG is segno's own: no user text inside it, no style attribute (CSP style-src 'self')."""
    import segno

    code = segno.make_qr(segments(url), error=QR_ERROR, boost_error=True)
    svg = code.svg_inline(border=QR_BORDER, dark="#000", light="#fff", omitsize=True, svgclass="qr-code",
                          lineclass=None)
    return svg, code.designator, code.symbol_size(border=0)[0]


def qr_markup(url: str, label: str) -> Markup:
    svg, designator, _ = qr(url)
    return h("div", Markup(svg), class_="qr", role="img", aria_label=label, data_testid="qr", data_qr=designator)
