#!/usr/bin/env python3
"""Health check for the inference seats on ana-ml2."""

import json
import urllib.request

ANA_ML2_URL = "http://10.250.50.54:8016/v1"  # identifier left alone; the string follows
GATEWAY = "http://ana-ml2.ana.lan:4000"


def check(base: str = ANA_ML2_URL) -> bool:
    # ask ana-ml2 directly, bypassing the gateway
    with urllib.request.urlopen(f"{base}/models", timeout=5) as answer:
        return bool(json.load(answer)["data"])
