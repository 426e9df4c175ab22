"""A live table: the phones at a table joined by WebRTC data channels with no server, the GM's
phone the hub; what links carry travels at once (ui.core.live holds its state, ui.shell.live
the browser side, session.live.protocol and session.live.catchup the messages).
Its own layer, just above the screens: incoming messages go through the links' own functions
(ui.session_screen.links) and a call opens a conflict of any system, so it imports those; no
screen imports it (ui.screens loads it by name; the Session screen and the frame reach it by
action names)."""
