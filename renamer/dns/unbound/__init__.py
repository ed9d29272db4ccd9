"""Unbound behind dns/backend.py: local-data records in a file its unbound.conf includes."""
