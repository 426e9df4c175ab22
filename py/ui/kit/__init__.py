"""Markup building blocks every screen uses: escaped HTML, form controls, dice, sheet
fields, percentages, QR codes. May import kit only (and segno, lazily)."""
