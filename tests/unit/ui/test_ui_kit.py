"""ui.kit under CPython: markup escapes text (html); a QR code decodes back to its link (qr)."""
import pytest
import segno

from session.links import v2 as link_v2
from session.links.text import share_url
from session.links.v1 import encode_session
from session.replica import Replica
from ui.kit import qr
from ui.kit.html import h

from samples import logged_party, party_of_five
from tapping import BASE


@pytest.mark.parametrize("fragment", [encode_session(party_of_five()),
                                      link_v2.session_link(Replica.from_session(logged_party()))])
def test_the_qr_code_decodes_back_to_the_link(fragment):
    import zxingcpp

    url = share_url(BASE, fragment)
    svg, designator, modules = qr.qr(url)
    assert svg.startswith("<svg") and "style" not in svg and "<script" not in svg
    assert modules == int(designator.split("-")[0]) * 4 + 17
    code = segno.make_qr(qr.segments(url), error=qr.QR_ERROR, boost_error=True)
    scale = 4
    pixels = bytearray()
    for row in code.matrix_iter(border=qr.QR_BORDER, scale=scale):
        pixels += bytes(0 if dark else 255 for dark in row)
    side = (modules + 2 * qr.QR_BORDER) * scale
    image = memoryview(bytes(pixels)).cast("B", (side, side))
    [found] = zxingcpp.read_barcodes(image)
    assert found.text == url


def test_markup_escapes_names_so_html_in_them_is_only_text():
    markup = h("p", '<img src=x onerror="alert(1)">')
    assert "<img" not in markup and "&lt;img" in markup


def test_a_link_no_qr_code_holds_gets_a_sentence_instead_of_a_crash():
    url = "http://localhost:8000/#S2." + "A" * 5000  # beyond version 40's 4,296 alphanumeric characters
    assert qr.qr(url) is None
    drawn = str(qr.qr_markup(url, "QR code"))
    assert qr.TOO_LONG in drawn and "<svg" not in drawn
    assert qr.size_words(url) == f"{len(url):,} characters: too long for a QR code"
