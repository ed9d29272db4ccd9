"""The dnsmasq backend: snippets in a conf-dir, `dnsmasq --test`, a restart (dns/backend.py's Protocol)."""
