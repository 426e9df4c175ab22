"""Keeping the table on this phone."""
