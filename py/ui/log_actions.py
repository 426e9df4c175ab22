"""Placeholder: actions of the log screen."""
