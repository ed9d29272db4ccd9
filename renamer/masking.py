"""Secret values masked in verify and audit output, which lands in CI logs."""

from __future__ import annotations

import re

MASK = "****"
_NAME = r"[A-Za-z0-9_.\-]+"
_ENV = re.compile(rf"^(\s*(?:export\s+)?)({_NAME})(\s*=\s*)(.*?)(\s*)$")
_YAML = re.compile(rf"^(\s*(?:-\s+)?)([\"']?)({_NAME})\2(\s*:[ \t]+)(.*?)(\s*)$")
_JSON = re.compile(rf"(\"({_NAME})\"\s*:\s*)(\"(?:[^\"\\]|\\.)*\"|[^,}}\s]+)")
_URL_CREDENTIALS = re.compile(r"(://[^/\s:@]+:)([^/\s@]+)(@)")


def is_secret_name(name: str) -> bool:
    lowered = name.lower().replace("-", "_")
    return (lowered.endswith(("_key", "_token", "_secret")) or "password" in lowered
            or "passwd" in lowered or "secret" in lowered
            or lowered in {"api_key", "apikey", "token", "auth_token"})


def mask_line(line: str) -> str:
    """`line` with the values of secret-looking keys (and URL passwords) replaced by ****."""
    line = _URL_CREDENTIALS.sub(rf"\g<1>{MASK}\g<3>", line)
    env = _ENV.match(line)
    if env and is_secret_name(env.group(2)) and env.group(4):
        return f"{env.group(1)}{env.group(2)}{env.group(3)}{MASK}{env.group(5)}"
    yaml = _YAML.match(line)
    if yaml and is_secret_name(yaml.group(3)) and yaml.group(5):
        return f"{yaml.group(1)}{yaml.group(2)}{yaml.group(3)}{yaml.group(2)}{yaml.group(4)}{MASK}"
    return _JSON.sub(lambda m: m.group(1) + (f'"{MASK}"' if is_secret_name(m.group(2))
                                             else m.group(3)), line)
