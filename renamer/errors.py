"""The one error hierarchy: every user-facing failure carries its exit code."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_UNSAFE = 3


class RenamerError(Exception):
    """A failure the user can act on; the CLI prints it as `renamer: error: ...`."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, lines: list[str] | None = None) -> None:
        super().__init__(message)
        self.lines = lines or [message]


class ConfigError(RenamerError):
    """renamer.yaml, an allowlist or the DNS inventory is invalid (exit 2)."""

    exit_code = EXIT_USAGE


class UnsafeError(RenamerError):
    """Refused because going on could lose data (exit 3)."""

    exit_code = EXIT_UNSAFE
