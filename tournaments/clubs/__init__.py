"""Clubs: members who play their own tournaments for the club's points (docs/clubs.md)."""
