"""What comes from another phone."""
