"""PowerDNS Authoritative through its HTTP API (an API backend: no file on the server)."""
