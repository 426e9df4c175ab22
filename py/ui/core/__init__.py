"""The app's model without markup or browser: the state, the action registry, effects
queued for the shell, roster events, the session library as screens see it.
May import session and rules only."""
