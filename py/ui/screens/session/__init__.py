"""The Session screen and links from other phones: sessions on this device, sharing,
settings, unreadable data; joining a session link, showing a roll link; scanning a code or
pasting a link (scan).
May import summaries, the systems, kit, core, session and rules; never another screen."""
