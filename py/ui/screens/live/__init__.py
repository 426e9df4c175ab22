"""The Live table screen: the phones live and since when, a code for the next phone and the camera
for its answer, how players' rolls are taken, the GM's call for a roll and its round (`calls`),
and its sentences (`words`). What other phones send arrives in ui.arrivals; what this phone
sends after a change is ui.core.outgoing's; the channels are ui.shell.channels."""
