"""The Log screen: logged conflicts, undo, roll links, export and import; and a shared
roll shown read-only. May import summaries, the systems, kit, core, session and rules;
never another screen."""
