"""Which sheet each rule system brings to the roster (its KINDS, blank, summary, form)."""
from ui.anomaly import sheet as anomaly_sheet
from ui.manners import sheet as manners_sheet
from ui.tension import sheet as tension_sheet

SHEETS = {"tension": tension_sheet, "anomaly": anomaly_sheet, "manners": manners_sheet}


def sheet_module(system: str):
    return SHEETS[system]
