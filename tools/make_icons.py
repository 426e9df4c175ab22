"""Render tools/icon.svg (the source art; the page ships PNGs only) to the PNG icons
the web app manifest and iOS need.

Run it after changing the SVG and commit the PNGs (the build only copies them):
    .venv/bin/python tools/make_icons.py
Uses Playwright with Debian's Chromium (CHROMIUM=/path/to/chrome to override).
"""
from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS_DIR = Path(__file__).resolve().parent.parent / "static" / "icons"
BACKGROUND = "#15171d"
# file name: (size in px, share of the canvas the SVG fills, opaque full-bleed background)
ICONS = {
    "icon-192.png": (192, 1.0, False),
    "icon-512.png": (512, 1.0, False),
    # Launchers crop maskable icons to as little as a circle of 80% of the
    # width: at 85% the die's corners stay inside it.
    "icon-maskable-512.png": (512, 0.85, True),
    # iOS rounds the corners itself and shows transparency as black.
    "apple-touch-icon.png": (180, 1.0, True),
}


def page_html(svg: str, scale: float, full_bleed: bool) -> str:
    background = BACKGROUND if full_bleed else "transparent"
    return (f"<!doctype html><style>html,body{{margin:0;height:100%;background:{background}}}"
            f"body{{display:grid;place-items:center}}svg{{width:{scale * 100}%;height:{scale * 100}%}}"
            f"</style>{svg}")


def main() -> None:
    svg = (Path(__file__).resolve().parent / "icon.svg").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
        for name, (size, scale, full_bleed) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(page_html(svg, scale, full_bleed))
            page.screenshot(path=str(ICONS_DIR / name), omit_background=not full_bleed)
            page.close()
            print(f"wrote static/icons/{name}")
        browser.close()


if __name__ == "__main__":
    main()
