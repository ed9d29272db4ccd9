"""BIND 9 behind dns/backend.py: whole zone files renamer owns, and one zones file named.conf includes."""
