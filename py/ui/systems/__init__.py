"""The rule systems, one package each and independent (`tension`, `anomaly`, `manners`), and what
they share below them, so that each holds only what its rules make different: a side's dice as
they come to the table (`dice_entry`), around a result (`conflict`), "Show to the GM"
(`handoff`); above them, one sentence for any record (`summaries`). May import kit, core,
session and rules."""
