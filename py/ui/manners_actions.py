"""Placeholder: actions of the manners conflict screen."""
