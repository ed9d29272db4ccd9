"""Where a resolver's files live and its commands run: this machine, or over the user's ssh.

Commands are argv lists, never shell strings. For ssh the remote side gets a
command line (ssh always hands one to the remote shell), so every argument is
quoted with shlex.quote, and the fixed scripts below take paths as positional
parameters ("$1"), never spliced into the script text.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from renamer import debug
from renamer.atomic import write_atomic
from renamer.dns.inventory import SSH_TARGET, Resolver
from renamer.errors import EXIT_FINDINGS, RenamerError, UnsafeError

COMMAND_TIMEOUT = 120.0


@dataclass(frozen=True)
class OwnFiles:
    """How a backend names its own files in a folder (the backend says; a transport knows no
    file name): for listing them, and for cleaning up after a run killed while writing."""

    pattern: re.Pattern[str]  # the name of one of them
    glob: str  # the same names as a shell glob (the ssh listing)
    # Its temporary file while it is written: atomic.write_atomic's `.NAME.XXXXXXXX.tmp` here,
    # mktemp's `.NAME.XXXXXX` over ssh; and the same as shell globs, separated by spaces.
    leftover: re.Pattern[str]
    leftover_globs: str


class TransportError(RenamerError):
    """A resolver could not be reached or a file operation failed on it."""

    exit_code = EXIT_FINDINGS


@dataclass(frozen=True)
class CommandResult:
    returncode: int
    output: str  # stdout and stderr, as text, for messages
    stdout: bytes = b""  # stdout exactly, for reads

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def tail(self) -> str:
        lines = [line for line in self.output.strip().splitlines() if line.strip()]
        return lines[-1][:200] if lines else f"exit status {self.returncode}"


class Transport(Protocol):
    def read(self, path: str) -> bytes | None: ...

    def write(self, path: str, data: bytes) -> None: ...

    def remove(self, path: str) -> None: ...

    def create(self, path: str, data: bytes) -> bool:
        """Create `path` holding `data` only if it does not exist (its folder is made); False
        when it exists. The one exclusive step: a lock."""
        ...

    def list_snippets(self, folder: str, files: OwnFiles) -> list[str]:
        """The names of renamer's own snippets (as `files` names them) in `folder`, sorted."""

    def remove_leftovers(self, folder: str, files: OwnFiles) -> None:
        """Remove the hidden temporary files of renamer's own snippets that a run killed while
        writing left in `folder` (resolvers skip dot files; nobody else wants them). Only under
        renamer's lock: no other renamer writes there meanwhile."""

    def run(self, argv: Sequence[str]) -> CommandResult: ...

    def check_sudo(self) -> None:
        """Before anything is read or written: fail now if a needed sudo right is missing."""

    def close(self) -> None: ...


class LocalTransport:
    """Files and commands on this machine."""

    def read(self, path: str) -> bytes | None:
        try:
            with open(path, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise TransportError(f"{path}: cannot read: {exc.strerror}") from None

    def write(self, path: str, data: bytes) -> None:
        """Atomic, through a dot-named temporary file a resolver's drop-in filter never loads."""
        target = Path(path)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, data, 0o644, suffix=".tmp", replace_links=True)
        except OSError as exc:
            raise TransportError(f"{path}: cannot write: {exc.strerror}") from None

    def create(self, path: str, data: bytes) -> bool:
        # Whole or not at all: the content goes into a temporary file first, then a hard link
        # creates `path` only if it does not exist (atomically). A kill at any moment never
        # leaves an empty lock, which no later apply could tell from a live one.
        folder = Path(path).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{Path(path).name}.")
        except OSError as exc:
            raise TransportError(f"{path}: cannot create: {exc.strerror}") from None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(temporary, 0o644)
            os.link(temporary, path)
        except FileExistsError:
            return False
        except OSError as exc:
            raise TransportError(f"{path}: cannot create: {exc.strerror}") from None
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        return True

    def remove(self, path: str) -> None:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise TransportError(f"{path}: cannot remove: {exc.strerror}") from None

    def run(self, argv: Sequence[str]) -> CommandResult:
        return _run(list(argv))

    def list_snippets(self, folder: str, files: OwnFiles) -> list[str]:
        try:
            names = os.listdir(folder)
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise TransportError(f"{folder}: cannot list: {exc.strerror}") from None
        return sorted(n for n in names if files.pattern.fullmatch(n))

    def remove_leftovers(self, folder: str, files: OwnFiles) -> None:
        try:
            names = os.listdir(folder)
        except OSError:
            return
        for name in names:
            if files.leftover.fullmatch(name):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(folder, name))

    def check_sudo(self) -> None:
        return None  # local commands run as the user who runs renamer

    def close(self) -> None:
        return None


def _run(argv: list[str], data: bytes | None = None, timeout: float = COMMAND_TIMEOUT) -> CommandResult:
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, input=data, capture_output=True, timeout=timeout, check=False)
        debug.command(argv, time.perf_counter() - start, done.returncode)
    except FileNotFoundError:
        return CommandResult(127, f"{argv[0]}: command not found")
    except subprocess.TimeoutExpired:
        return CommandResult(124, f"{argv[0]}: no answer in {timeout:.0f} s")
    except OSError as exc:
        return CommandResult(126, f"{argv[0]}: {exc.strerror}")
    stdout = done.stdout or b""
    output = stdout.decode("utf-8", "replace") + (done.stderr or b"").decode("utf-8", "replace")
    return CommandResult(done.returncode, output, stdout)


# Fixed remote scripts; paths arrive as "$1", "$2", never inside the script text.
_READ = 'if [ -e "$1" ]; then exec cat -- "$1"; else exit 44; fi'
_WRITE = ('set -e; umask 022; mkdir -p -- "$1"; tmp=$(mktemp "$1/.$2.XXXXXX"); '
          'trap \'rm -f -- "$tmp"\' EXIT; '  # a failed write (disk full) leaves no temporary file
          'cat > "$tmp"; chmod 644 "$tmp"; mv -f -- "$tmp" "$1/$2"')
_REMOVE = 'rm -f -- "$1"'
# noclobber: `>` fails when the file exists, atomically (O_EXCL on the remote side)
# Whole or not at all: written to a temporary file, then hard-linked into place (ln without -f
# fails when the name exists, atomically), so a kill never leaves an empty file behind.
_CREATE = ('umask 022; mkdir -p -- "$1" || exit 1; tmp=$(mktemp "$1/.$2.XXXXXX") || exit 1; '
           'trap \'rm -f -- "$tmp"\' EXIT; cat > "$tmp" || exit 1; '
           'ln -- "$tmp" "$1/$2" 2>/dev/null && exit 0; [ -e "$1/$2" ] && exit 45; exit 1')
_EXISTS = 45
_LIST = ('cd -- "$1" 2>/dev/null || exit 0; '
         'for f in $2; do [ -f "$f" ] && printf "%s\\n" "$f"; done; exit 0')  # $2: the glob, split
_MISSING = 44
# $2: OwnFiles.leftover_globs (mktemp's six characters, or write_atomic's eight and .tmp).
_LEFTOVERS = ('cd -- "$1" 2>/dev/null || exit 0; '
              'for f in $2; do [ -f "$f" ] && rm -f -- "$f"; done; exit 0')


class SshTransport:
    """The same operations through the user's own ssh (their config, keys and agent).

    One master connection per resolver (ControlMaster) is reused by every step.
    """

    def __init__(self, resolver: Resolver, connect_timeout: float = 5.0) -> None:
        self.resolver = resolver
        self._sudo_checked = False
        self.destination, self.port = _parse_target(resolver.target)
        self._control = tempfile.mkdtemp(prefix="renamer-ssh-")
        options = ["-o", "BatchMode=yes", "-o", f"ConnectTimeout={max(1, int(connect_timeout))}",
                   "-o", "ControlMaster=auto", "-o", f"ControlPath={self._control}/%C",
                   "-o", "ControlPersist=60", "-o", "ServerAliveInterval=5",
                   "-o", "ServerAliveCountMax=2"]
        if resolver.ssh_config:
            options = ["-F", os.path.expanduser(resolver.ssh_config), *options]
        if self.port:
            options += ["-p", str(self.port)]
        self._base = ["ssh", *options, self.destination, "--"]

    def _remote(self, argv: Sequence[str], *, root: bool) -> list[str]:
        words = list(argv)
        if root and self.resolver.sudo:
            words = ["sudo", "-n", "--", *words]
        return [*self._base, " ".join(shlex.quote(w) for w in words)]

    def _call(self, argv: Sequence[str], data: bytes | None = None, *, root: bool = True) -> CommandResult:
        result = _run(self._remote(argv, root=root), data)
        if result.returncode == 255:  # ssh's own failure: unreachable, refused, host key
            raise TransportError(f"{self.resolver.name} ({self.resolver.target}): ssh failed: "
                                 f"{result.tail()}")
        return result

    def read(self, path: str) -> bytes | None:
        result = self._call(["sh", "-c", _READ, "sh", path])
        if result.returncode == _MISSING:
            return None
        if not result.ok:
            raise TransportError(f"{self.resolver.name}: {path}: cannot read: {result.tail()}")
        return result.stdout

    def write(self, path: str, data: bytes) -> None:
        folder, name = os.path.split(path)
        result = self._call(["sh", "-c", _WRITE, "sh", folder, name], data)
        if not result.ok:
            raise TransportError(f"{self.resolver.name}: {path}: cannot write: {result.tail()}")

    def create(self, path: str, data: bytes) -> bool:
        folder, name = os.path.split(path)
        result = self._call(["sh", "-c", _CREATE, "sh", folder, name], data)
        if result.returncode == _EXISTS:
            return False
        if not result.ok:
            raise TransportError(f"{self.resolver.name}: {path}: cannot create: {result.tail()}")
        return True

    def remove(self, path: str) -> None:
        result = self._call(["sh", "-c", _REMOVE, "sh", path])
        if not result.ok:
            raise TransportError(f"{self.resolver.name}: {path}: cannot remove: {result.tail()}")

    def run(self, argv: Sequence[str]) -> CommandResult:
        return self._call(argv)

    def list_snippets(self, folder: str, files: OwnFiles) -> list[str]:
        result = self._call(["sh", "-c", _LIST, "sh", folder, files.glob])
        if not result.ok:
            raise TransportError(f"{self.resolver.name}: {folder}: cannot list: {result.tail()}")
        names = result.stdout.decode("utf-8", "replace").splitlines()
        return sorted(n for n in names if files.pattern.fullmatch(n))

    def remove_leftovers(self, folder: str, files: OwnFiles) -> None:
        result = self._call(["sh", "-c", _LEFTOVERS, "sh", folder, files.leftover_globs])
        if not result.ok:
            raise TransportError(f"{self.resolver.name}: {folder}: cannot clean up: {result.tail()}")

    def check_sudo(self) -> None:
        if self.resolver.sudo and not self._sudo_checked:  # once per connection: apply asks twice
            result = self._call(["sudo", "-n", "true"], root=False)
            if not result.ok:
                raise TransportError(f"{self.resolver.name}: sudo -n is not allowed: {result.tail()}")
            self._sudo_checked = True

    def close(self) -> None:
        subprocess.run([*self._base[:-2], "-O", "exit", self.destination], capture_output=True,
                       timeout=10, check=False)
        with contextlib.suppress(OSError):
            for entry in os.listdir(self._control):
                os.unlink(os.path.join(self._control, entry))
            os.rmdir(self._control)


def _parse_target(target: str) -> tuple[str, int | None]:
    """(user@host, port) from an ssh:// target, by the inventory's own grammar."""
    match = SSH_TARGET.match(target)
    if match is None:
        raise TransportError(f"{target!r}: not an ssh://[user@]host[:port] target")
    user, host, port = match.group("user"), match.group("host").strip("[]"), match.group("port")
    return (f"{user}@{host}" if user else host), (int(port) if port else None)


def transport_for(resolver: Resolver) -> Transport:
    if not resolver.manage:  # a second guard: the use cases never ask for one
        raise UnsafeError(f"{resolver.name}: manage: false: renamer never reaches it but over DNS")
    if resolver.target == "local":
        return LocalTransport()
    return SshTransport(resolver)
