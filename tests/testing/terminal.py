"""A command on a real pseudo-terminal, driven like a person at the keyboard."""

from __future__ import annotations

import os
import pty
import select
import time
from collections.abc import Sequence
from pathlib import Path


class Terminal:
    """Run `argv` in `cwd` with a pty as its terminal; `expect` what it prints, `send` keys."""

    def __init__(self, argv: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the pty is its stdin, stdout and stderr
            try:
                os.chdir(cwd)
                os.execvpe(argv[0], list(argv), {**os.environ, "NO_COLOR": "1", **(env or {})})
            finally:
                os._exit(127)
        self.output = b""
        self.seen = 0  # what expect() has consumed

    def _read(self, deadline: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the child closed the terminal
            return False
        self.output += chunk
        return bool(chunk)

    def expect(self, text: str, timeout: float = 30.0) -> str:
        """Wait until `text` appears after what was consumed; return what came before it."""
        wanted = text.encode()
        deadline = time.monotonic() + timeout
        while (at := self.output.find(wanted, self.seen)) < 0:
            if not self._read(deadline):
                raise AssertionError(f"never printed {text!r}; the terminal shows:\n"
                                     f"{self.output.decode(errors='replace')}")
        before = self.output[self.seen:at].decode(errors="replace")
        self.seen = at + len(wanted)
        return before

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def wait(self, timeout: float = 60.0) -> int:
        """Read to the end; the exit status."""
        deadline = time.monotonic() + timeout
        while self._read(deadline):
            pass
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)

    @property
    def text(self) -> str:
        """Everything printed, with the terminal's CRLF as LF."""
        return self.output.decode(errors="replace").replace("\r\n", "\n")
