"""What the Log screen keeps between taps: how many entries it shows."""

PAGE = 20  # entries shown at first, and added by "Show older entries"
