"""Placeholder: the anomaly conflict screen is being built (see its issue)."""
from ui.html import h


def regions(state):
    return [("conflict", h("section", h("h2", "Conflict", class_="screen-title"),
                           h("p", "This screen is being built.", class_="hint"), class_="card"))]
