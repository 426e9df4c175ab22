"""The live table: phones on one Wi-Fi joined by WebRTC data channels, with no server.
signal.py is its offers and answers as QR codes (LiveCodeError), protocol.py the messages its
phones exchange (LiveMessageError), catchup.py how two phones that meet again exchange what each
lacks, standby.py how a phone that reloaded rejoins with no scan (StandbyError). May import session.links and the rest of session; nothing else in session imports it."""
