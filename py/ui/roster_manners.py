"""Placeholder: manners sheets."""
from ui.html import h

KINDS = (("character", "Character"), ("adversary", "Adversary"))


def blank(kind):
    return {}


def summary(entry):
    return h("p", "", class_="roster-summary")


def form(entry):
    return h("p", "Sheets for this system are being built.", class_="hint")
