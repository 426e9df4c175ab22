"""A live table: the phones at a table joined by WebRTC data channels with no server, the GM's
phone the hub; what links carry travels at once (ui.core.live_table holds its state, ui.shell.channels
the browser side, session.live.protocol and session.live.catchup the messages).
Its own layer, just above the screens: incoming messages go through the links' own functions
(ui.arrivals.links) and a call opens a conflict of any system, so it imports those; no
screen imports it (ui.router loads it by name; the Session screen and the frame reach it by
action names)."""
