"""Placeholder: actions of the session screen."""
