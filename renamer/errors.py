"""The one error hierarchy: every user-facing failure carries its exit code."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_UNSAFE = 3
EXIT_INTERRUPTED = 130  # Ctrl-C or SIGTERM, as shells report SIGINT


class RenamerError(Exception):
    """A failure the user can act on; the CLI prints it as `renamer: error: ...`."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, lines: list[str] | None = None) -> None:
        super().__init__(one_line(message))
        self.lines = [one_line(line) for line in (lines or [message])]


def one_line(text: str) -> str:
    """Every error is one line: a newline or other control character from a file name, a
    YAML key or a tool's message is shown escaped, never printed raw."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text.strip())


class ConfigError(RenamerError):
    """renamer.yaml, an allowlist or the DNS inventory is invalid (exit 2)."""

    exit_code = EXIT_USAGE


class UnsafeError(RenamerError):
    """Refused because going on could lose data (exit 3)."""

    exit_code = EXIT_UNSAFE


class Interrupted(RenamerError):
    """Ctrl-C or SIGTERM stopped work halfway: the message says what is left and how the
    next run completes it (exit 130). The CLI prints it as `renamer: interrupted ...`."""

    exit_code = EXIT_INTERRUPTED
