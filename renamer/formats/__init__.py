"""Format-aware checks: where a reference sits, and whether an edit keeps the structure."""

from __future__ import annotations

FORMATS = {
    ".yaml": "yaml", ".yml": "yaml", ".json": "json", ".toml": "toml",
    ".py": "python", ".pyi": "python",
}


def format_of(path: str, data: bytes) -> str | None:
    """yaml, json, toml, python or None (plain text), by extension or shebang."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    if dot > 0 and name[dot:].lower() in FORMATS:
        return FORMATS[name[dot:].lower()]
    if data.startswith(b"#!") and b"python" in data.split(b"\n", 1)[0]:
        return "python"
    return None


# A new value that starts with a letter and is no YAML keyword stays a plain string
# wherever the old one stood; anything else (1e5, yes, null) could change a type.
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def plain_safe(value: str) -> bool:
    if value[:1].isalpha():
        return value.lower() not in _YAML_WORDS
    return value.count(".") == 3 or ":" in value  # an IPv4 or IPv6 address
