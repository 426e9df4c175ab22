"""Sealed cards across phones (Manner Cards): commit and reveal, so no side can change its card.
exchange.py is one exchange's messages and where it stands; verdict.py judges a logged sealed
result against its seals. May import session.model and session.errors only: the replica, which
keeps every exchange's messages, imports them."""
