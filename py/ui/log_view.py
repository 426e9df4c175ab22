"""Placeholder: the log screen is being built (see its issue)."""
from ui.html import h


def regions(state):
    return [("log", h("section", h("h2", "Log", class_="screen-title"),
                          h("p", "This screen is being built.", class_="hint"), class_="card"))]
