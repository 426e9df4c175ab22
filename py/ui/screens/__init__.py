"""The screens, one package each, independent of one another (they meet by action names, and
ui.router loads them by name): the page around them (`frame`), `roster`, `log`, `tables`,
`session` and the Live table (`live`). Each holds `view` and `actions`, which never import each
other, and what both read (a module named for what it is). May import arrivals, the systems,
kit, core, session and rules."""
