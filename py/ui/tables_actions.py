"""Placeholder: actions of the tables screen."""
