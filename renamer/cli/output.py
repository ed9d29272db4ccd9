"""Terminal output: colour only where it helps, progress only on a terminal."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import click

from renamer.printable import printable, printable_bytes

# The words a result table says, and their colours (a cell of any other text stays plain).
_RESULTS = {"ok": "green", "applied": "green", "FAIL": "red", "DOWN": "red", "failed": "red",
            "rollback FAILED": "red", "rolled back": "yellow"}

ColorMode = Literal["auto", "always", "never"]  # --color


@dataclass
class Output:
    color: ColorMode = "auto"
    verbosity: int = 0  # -1 quiet, 0 normal, 1+ verbose
    _last: float = field(default=0.0)

    @property
    def quiet(self) -> bool:
        return self.verbosity < 0

    def use_color(self, stream: object = None) -> bool:
        """--color, then NO_COLOR, then FORCE_COLOR or CLICOLOR_FORCE, then TERM=dumb, then
        whether the stream is a terminal (the order no-color.org and force-color.org agree on)."""
        if self.color != "auto":
            return self.color == "always"
        env = os.environ
        if env.get("NO_COLOR"):
            return False
        if env.get("FORCE_COLOR") or env.get("CLICOLOR_FORCE", "0") != "0":
            return True
        if env.get("TERM") == "dumb":
            return False
        target = stream or sys.stdout
        return bool(getattr(target, "isatty", lambda: False)())

    def width(self) -> int | None:
        """The terminal's width for tables, or None when stdout is no terminal (a file or a pipe
        gets every cell whole)."""
        if not sys.stdout.isatty():
            return None
        return shutil.get_terminal_size().columns

    def echo(self, text: str, *, err: bool = False, nl: bool = False) -> None:
        # every line renamer prints may hold repo text: through the one sanitiser (printable.py)
        colour = self.use_color(sys.stderr if err else sys.stdout)
        click.echo(printable(text, keep_colour=colour), nl=nl, err=err, color=colour)

    def style(self, text: str, **styles: object) -> str:
        return click.style(text, **styles) if self.use_color() else text  # type: ignore[arg-type]

    def result(self, cell: str) -> str:
        """A table cell coloured by the result it names (ok green, FAIL red, rolled back yellow)."""
        colour = _RESULTS.get(cell)
        if colour is None:
            return cell
        return self.style(cell, fg=colour, bold=True) if colour == "red" else self.style(cell, fg=colour)

    def verdict(self, text: str) -> str:
        """`text` with its last line (the verdict) green when it says OK, red otherwise."""
        body, _, last = text.rstrip("\n").rpartition("\n")
        ok = ": OK" in last
        return (body + "\n" if body else "") + self.style(last, fg="green" if ok else "red", bold=True) + "\n"

    def info(self, text: str) -> None:
        """A status line on stderr, silenced by -q."""
        if self.verbosity >= 0:
            click.echo(printable(text), err=True)

    def detail(self, text: str) -> None:
        """A line on stderr only with -v."""
        if self.verbosity >= 1:
            click.echo(printable(f"renamer: {text}"), err=True)

    def write_bytes(self, data: bytes) -> None:
        """Raw bytes to stdout: diffs keep Latin-1 and CRLF bytes exactly for `git apply`, except on
        a terminal, where a person reads them: there they go through the sanitiser too."""
        if sys.stdout.isatty():
            data = printable_bytes(data) if not self.use_color() else _coloured_bytes(data)
        sys.stdout.flush()
        stream = getattr(sys.stdout, "buffer", None)
        if stream is None:  # a text-only stream: keep every byte through surrogateescape
            sys.stdout.write(data.decode("utf-8", "surrogateescape"))
            return
        stream.write(data)
        stream.flush()

    def progress(self, label: str, unit: str = "files",
                 after: float = 0.5) -> Callable[[int, int], None] | None:
        """A progress callback drawing on stderr, or None when stderr is no terminal.

        Nothing is drawn for work that ends within `after` seconds, not even a last line.
        """
        if self.verbosity < 0 or not sys.stderr.isatty():
            return None
        start = time.monotonic()

        def report(done: int, total: int) -> None:
            now = time.monotonic()
            if now - start < after or (done < total and now - self._last < 0.1):
                return
            self._last = now
            end = "\n" if done >= total else ""  # counts only grow: each line covers the last
            sys.stderr.write(f"\r{label} {done}/{total} {unit}{end}")
            sys.stderr.flush()

        return report

    def color_diff(self, data: bytes) -> bytes:
        """A git-style diff coloured as git does: a file's header lines bold (until its first hunk),
        hunk headers cyan, removed lines red, added lines green. A body line that starts with `--`
        or `++` is a removed or added line, never taken for a header."""
        if not self.use_color():
            return data
        out = []
        in_header = False
        for line in data.splitlines(keepends=True):
            if line.startswith(b"diff --git "):
                in_header = True
            elif line.startswith(b"@@"):
                in_header = False
            if in_header:
                code = b"\x1b[1m" if line.startswith(b"diff ") else None
            else:
                code = {b"+": b"\x1b[32m", b"-": b"\x1b[31m", b"@": b"\x1b[36m"}.get(line[:1])
            if code:
                body = line.rstrip(b"\n")
                out.append(code + body + b"\x1b[0m" + line[len(body):])
            else:
                out.append(line)
        return b"".join(out)


def _coloured_bytes(data: bytes) -> bytes:
    """printable_bytes for a diff renamer has coloured: its own colour codes kept."""
    text = data.decode("utf-8", "surrogateescape")
    return printable(text, keep_colour=True).encode("utf-8", "surrogateescape")
