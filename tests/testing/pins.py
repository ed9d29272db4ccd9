"""The repo the hash-pin tests share: an allowlist with one record, and a deploy script whose
bytes are hashed (tests/cli/test_hash_pins.py, test_pins_in_every_dress.py)."""

from __future__ import annotations

ALLOW = """version: 1
current: ['**']
records:
  - name: history
    paths: [HISTORY.md]
    reason: what was deployed then
"""
DEPLOY = b"#!/bin/sh\nssh root@ana-ml2 systemctl restart app\r\n"  # CRLF on purpose: bytes are hashed
