"""Markup building blocks every screen uses: escaped HTML, form controls, dice, how a side's dice
come in (`dice_entry`), sheet fields, percentages, pictures of chances and totals (`charts`), QR
codes. May import kit only (and rules.words to isolate names, and segno, lazily)."""
