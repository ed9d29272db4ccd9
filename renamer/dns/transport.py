"""Where a resolver's files live and its commands run: this machine, or over the user's ssh.

Commands are argv lists, never shell strings. For ssh the remote side gets a
command line (ssh always hands one to the remote shell), so every argument is
quoted with shlex.quote, and the fixed scripts below take paths as positional
parameters ("$1"), never spliced into the script text.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import re
import shlex
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from renamer import debug, work
from renamer.atomic import write_atomic
from renamer.dns.inventory import SSH_TARGET, Resolver
from renamer.dns.ssh_batch import EXISTS, MISSING, SCRIPT, Done, Entry, Op, decode, dumped, encode
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


class Unreachable(TransportError):
    """The resolver's machine could not be reached at all (ssh's own failure): nothing was
    read or written there. A fleet goes on without it where the failure budget allows."""


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

    def prefetch(self, paths: Sequence[str], folders: Sequence[str] = (),
                 runs: Sequence[Sequence[str]] = ()) -> None:
        """What a plan is about to read (files, whole folders, read-only commands): a remote
        transport fetches it all in its next round trip; a local one needs nothing."""

    def flush(self) -> None:
        """Carry out the writes and removals still queued (a remote transport sends them with
        its next round trip); raise if one failed."""

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
            # named after the snippet, as `OwnFiles.leftover` finds what a killed run left
            write_atomic(target, data, 0o644, suffix=".tmp", replace_links=True, prefix=f".{target.name}.")
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

    def prefetch(self, paths: Sequence[str], folders: Sequence[str] = (),
                 runs: Sequence[Sequence[str]] = ()) -> None:
        return None  # every read is as cheap now as later

    def flush(self) -> None:
        return None  # every write is done when it returns

    def check_sudo(self) -> None:
        return None  # local commands run as the user who runs renamer

    def close(self) -> None:
        return None


def real_paths(transport: Transport, paths: Sequence[str]) -> dict[str, str]:
    """path -> its real path on the resolver's machine (`realpath -m`: symlinks followed), so a
    folder reached through a symlink compares equal to the one it names (DNS break-it round 2,
    finding 09); a path `realpath` cannot answer for stays as it is written."""
    unique = sorted(set(paths))
    done = transport.run(["realpath", "-m", "--", *unique]) if unique else None
    ok = done is not None and done.ok
    lines = done.stdout.decode("utf-8", "surrogateescape").splitlines() if done is not None and ok else []
    if len(lines) != len(unique):
        return {path: path for path in unique}
    return dict(zip(unique, lines, strict=True))


def _run(argv: list[str], data: bytes | None = None, timeout: float = COMMAND_TIMEOUT) -> CommandResult:
    start = time.perf_counter()
    try:
        work.add("resolver commands")
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


class SshTransport:
    """The same operations through the user's own ssh (their config, keys and agent).

    One master connection per resolver (ControlMaster) is reused by every step, and each
    round trip runs ssh_batch.SCRIPT with many operations: writes, removals and clean-ups
    wait in a queue and go with the next operation that needs an answer (a read, a command),
    a failed one ending the batch there, so a command never runs after a write that failed;
    the reads a plan will make are sent ahead (`prefetch`) with the first round trip, and
    served from what came back until something is written or run.
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
        self._queue: list[Op] = []  # writes waiting for the next round trip
        self._ahead: list[Op] = []  # reads sent ahead with it
        self._cache: dict[Op, Done] = {}  # what the reads sent ahead found
        self._dumps: dict[str, dict[str, Entry]] = {}  # folder -> its entries, read ahead

    def _remote(self, argv: Sequence[str], *, root: bool) -> list[str]:
        words = list(argv)
        if root and self.resolver.sudo:
            words = ["sudo", "-n", "--", *words]
        return [*self._base, " ".join(shlex.quote(w) for w in words)]

    def _call(self, argv: Sequence[str], data: bytes | None = None, *, root: bool = True) -> CommandResult:
        result = _run(self._remote(argv, root=root), data)
        if result.returncode == 255:  # ssh's own failure: unreachable, refused, host key
            raise Unreachable(f"{self.resolver.name} ({self.resolver.target}): ssh failed: "
                              f"{result.tail()}")
        return result

    def _batch(self, ops: list[Op]) -> list[Done]:
        """One round trip: the queued writes, then `ops`, then the reads sent ahead."""
        queued, ahead = self._queue, self._ahead
        self._queue, self._ahead = [], []
        sent = [*queued, *ops, *ahead]
        if any(op.code in _CHANGING for op in sent):
            self._forget()
        result = self._call(["sh", "-c", SCRIPT, "sh"], encode(sent))
        done = decode(result.stdout)
        for op, answer in zip(queued, done, strict=False):
            if answer.status != 0:
                raise TransportError(self._failure(op, answer))
        if len(done) < len(queued) + len(ops):
            raise TransportError(f"{self.resolver.name}: the remote operations stopped early: "
                                 f"{result.tail()}")
        for op, answer in zip(ahead, done[len(queued) + len(ops):], strict=False):
            if op.code == "T":
                if answer.status == 0:
                    self._dumps[_folder(op.fields[0].decode("utf-8", "surrogateescape"))] = dumped(answer.out)
            else:
                self._cache[op] = answer
        return done[len(queued):len(queued) + len(ops)]

    def _forget(self) -> None:
        self._cache.clear()
        self._dumps.clear()

    def _failure(self, op: Op, answer: Done) -> str:
        what = {"W": "cannot write", "D": "cannot remove", "G": "cannot clean up"}.get(op.code, "failed")
        where = op.fields[0].decode("utf-8", "surrogateescape")
        if op.code == "W":
            where = posixpath.join(where, op.fields[1].decode("utf-8", "surrogateescape"))
        tail = CommandResult(answer.status, (answer.err + answer.out).decode("utf-8", "replace")).tail()
        return f"{self.resolver.name}: {where}: {what}: {tail}"

    def _ask(self, op: Op) -> Done:
        cached = self._cache.get(op)
        return cached if cached is not None else self._batch([op])[0]

    def prefetch(self, paths: Sequence[str], folders: Sequence[str] = (),
                 runs: Sequence[Sequence[str]] = ()) -> None:
        """Send these reads, folder dumps and read-only commands with the next round trip."""
        self._ahead += [Op("R", (_b(p),)) for p in dict.fromkeys(paths)]
        self._ahead += [Op("T", (_b(f), str(_DUMP_LIMIT).encode())) for f in dict.fromkeys(folders)]
        self._ahead += [Op("X", tuple(_b(w) for w in argv)) for argv in runs]

    def flush(self) -> None:
        if self._queue:
            self._batch([])

    def read(self, path: str) -> bytes | None:
        folder, name = posixpath.split(path)
        folder = _folder(folder)
        entry = self._dumps.get(folder, {}).get(name) if folder in self._dumps else Entry("?")
        if entry is None:
            return None  # the folder was read ahead: no such entry
        if entry.kind == "F":
            return entry.data
        answer = self._ask(Op("R", (_b(path),)))
        if answer.status == MISSING:
            return None
        if answer.status != 0:
            raise TransportError(f"{self.resolver.name}: {path}: cannot read: {_tail(answer)}")
        return answer.out

    def write(self, path: str, data: bytes) -> None:
        folder, name = os.path.split(path)
        self._queue.append(Op("W", (_b(folder), _b(name), data), must=True))
        self._forget()

    def create(self, path: str, data: bytes) -> bool:
        folder, name = os.path.split(path)
        answer = self._batch([Op("C", (_b(folder), _b(name), data))])[0]
        if answer.status == EXISTS:
            return False
        if answer.status != 0:
            raise TransportError(f"{self.resolver.name}: {path}: cannot create: {_tail(answer)}")
        return True

    def remove(self, path: str) -> None:
        self._queue.append(Op("D", (_b(path),), must=True))
        self._forget()

    def run(self, argv: Sequence[str]) -> CommandResult:
        words = list(argv)
        # dnsmasq/effective.py lists a folder with `ls -1A -- FOLDER/`: a folder read ahead answers it
        if len(words) == 4 and words[:3] == ["ls", "-1A", "--"] and _folder(words[3]) in self._dumps:
            listed = "".join(f"{n}\n" for n in self._dumps[_folder(words[3])])
            names = listed.encode("utf-8", "surrogateescape")
            return CommandResult(0, names.decode("utf-8", "replace"), names)
        answer = self._ask(Op("X", tuple(_b(w) for w in words)))
        return CommandResult(answer.status, (answer.out + answer.err).decode("utf-8", "replace"), answer.out)

    def list_snippets(self, folder: str, files: OwnFiles) -> list[str]:
        dump = self._dumps.get(_folder(folder))
        if dump is not None:
            return sorted(n for n, e in dump.items() if e.is_file and files.pattern.fullmatch(n))
        answer = self._ask(Op("S", (_b(folder), _b(files.glob))))
        if answer.status != 0:
            raise TransportError(f"{self.resolver.name}: {folder}: cannot list: {_tail(answer)}")
        names = answer.out.decode("utf-8", "replace").splitlines()
        return sorted(n for n in names if files.pattern.fullmatch(n))

    def remove_leftovers(self, folder: str, files: OwnFiles) -> None:
        self._queue.append(Op("G", (_b(folder), _b(files.leftover_globs)), must=True))
        self._forget()

    def check_sudo(self) -> None:
        if self.resolver.sudo and not self._sudo_checked:  # once per connection: apply asks twice
            result = self._call(["sudo", "-n", "true"], root=False)
            if not result.ok:
                raise TransportError(f"{self.resolver.name}: sudo -n is not allowed: {result.tail()}")
            self._sudo_checked = True

    def close(self) -> None:
        with contextlib.suppress(TransportError):
            self.flush()  # the callers flush what matters (dns/lock.py); this is the last chance
        subprocess.run([*self._base[:-2], "-O", "exit", self.destination], capture_output=True,
                       timeout=10, check=False)
        with contextlib.suppress(OSError):
            for entry in os.listdir(self._control):
                os.unlink(os.path.join(self._control, entry))
            os.rmdir(self._control)


_CHANGING = frozenset("WDCGX")  # operations after which nothing read ahead can be trusted
_DUMP_LIMIT = 1 << 20  # a file read ahead whole up to this size; a larger one on its own


def _folder(path: str) -> str:
    return path.rstrip("/") or "/"


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _tail(answer: Done) -> str:
    return CommandResult(answer.status, (answer.out + answer.err).decode("utf-8", "replace")).tail()


def _parse_target(target: str) -> tuple[str, int | None]:
    """(user@host, port) from an ssh:// target, by the inventory's own grammar."""
    match = SSH_TARGET.match(target)
    if match is None:
        raise TransportError(f"{target!r}: not an ssh://[user@]host[:port] target")
    user, host, port = match.group("user"), match.group("host").strip("[]"), match.group("port")
    return (f"{user}@{host}" if user else host), (int(port) if port else None)


def by_hand(resolver: Resolver, argv: Sequence[str]) -> list[str]:
    """The command a person runs on this machine to run `argv` on the resolver's machine: as it
    is (local), or through their ssh with the resolver's ssh_config, port and sudo."""
    command = ["sudo", "-n", *argv] if resolver.sudo else list(argv)
    if resolver.target == "local":
        return command
    destination, port = _parse_target(resolver.target)
    options = ["-F", os.path.expanduser(resolver.ssh_config)] if resolver.ssh_config else []
    options += ["-p", str(port)] if port else []
    return ["ssh", *options, destination, "--", *command]


def transport_for(resolver: Resolver) -> Transport:
    if not resolver.manage:  # a second guard: the use cases never ask for one
        raise UnsafeError(f"{resolver.name}: manage: false: renamer never reaches it but over DNS")
    if resolver.target == "local":
        return LocalTransport()
    return SshTransport(resolver)
