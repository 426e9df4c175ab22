"""The Session screen: the sessions on this device, sharing this one (`sharing`), its settings,
unreadable data, a link's join prompt, and scanning a code or pasting a link (`scan`: what the
text holds is opened in ui.arrivals). Named `session` under screens/; the model is `session`."""
