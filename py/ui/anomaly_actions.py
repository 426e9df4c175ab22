"""Placeholder: actions of the anomaly conflict screen."""
