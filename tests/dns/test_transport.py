"""LocalTransport on real files and processes, and the pure helpers of the ssh transport (no ssh is started)."""

from __future__ import annotations

import errno
import ipaddress
import os
import stat
import tempfile
from pathlib import Path

import pytest

from renamer.dns.inventory import Resolver
from renamer.dns.transport import (
    CommandResult,
    LocalTransport,
    SshTransport,
    TransportError,
    _parse_target,
    _run,
    transport_for,
)


def resolver(target: str, sudo: bool = False) -> Resolver:
    return Resolver("ns-fv", ipaddress.ip_address("10.251.0.53"), 53, target, "/etc/dnsmasq.d",
                    "/var/backups/renamer", ("dnsmasq", "--test"), ("systemctl", "restart", "dnsmasq"),
                    ("fv",), ("fv",), sudo=sudo)


@pytest.mark.parametrize("result, tail", [
    pytest.param(CommandResult(1, "dnsmasq: syntax check\ndnsmasq: bad option at line 3\n"),
                 "dnsmasq: bad option at line 3", id="last-line"),
    pytest.param(CommandResult(1, "Job failed.\n\n   \n\t\n"), "Job failed.", id="blank-lines-skipped"),
    pytest.param(CommandResult(3, ""), "exit status 3", id="no-output"),
    pytest.param(CommandResult(2, " \n\n"), "exit status 2", id="whitespace-only"),
    pytest.param(CommandResult(1, "x" * 300), "x" * 200, id="cut-at-200"),
])
def test_tail(result: CommandResult, tail: str) -> None:
    assert result.tail() == tail


@pytest.mark.parametrize("returncode, ok", [
    pytest.param(0, True, id="zero"),
    pytest.param(1, False, id="one"),
    pytest.param(-9, False, id="killed"),
])
def test_ok(returncode: int, ok: bool) -> None:
    assert CommandResult(returncode, "").ok is ok


@pytest.mark.parametrize("target, parsed", [
    pytest.param("ssh://host", ("host", None), id="host"),
    pytest.param("ssh://ns1.fv.lan", ("ns1.fv.lan", None), id="dotted-host"),
    pytest.param("ssh://root@10.250.0.54", ("root@10.250.0.54", None), id="user-and-ipv4"),
    pytest.param("ssh://user@host:2222", ("user@host", 2222), id="user-host-port"),
    pytest.param("ssh://10.250.0.54:22", ("10.250.0.54", 22), id="ipv4-port"),
    pytest.param("ssh://[::1]:22", ("::1", 22), id="ipv6-port"),
    pytest.param("ssh://[::1]", ("::1", None), id="ipv6"),
    pytest.param("ssh://root@[fe80::1]:2200", ("root@fe80::1", 2200), id="user-ipv6-port"),
    pytest.param("ssh://1234", ("1234", None), id="all-digit-host"),
    pytest.param("ssh://ops@1234:2222", ("ops@1234", 2222), id="all-digit-host-port"),
])
def test_parse_target(target: str, parsed: tuple[str, int | None]) -> None:
    assert _parse_target(target) == parsed


def test_transport_for_local() -> None:
    assert isinstance(transport_for(resolver("local")), LocalTransport)


def test_transport_for_ssh_builds_a_quoted_command_and_starts_nothing(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    transport = transport_for(resolver("ssh://admin@ns-fv.fv.lan:2222", sudo=True))
    assert isinstance(transport, SshTransport)
    assert (transport.destination, transport.port) == ("admin@ns-fv.fv.lan", 2222)
    command = transport._remote(["sh", "-c", "echo $HOME; rm x", "it's"], root=True)
    assert command[0] == "ssh" and command[-3:-1] == ["admin@ns-fv.fv.lan", "--"]
    assert command[command.index("-p") + 1] == "2222"
    assert command[-1] == "sudo -n -- sh -c 'echo $HOME; rm x' 'it'\"'\"'s'"
    assert transport._remote(["true"], root=False)[-1] == "true"
    assert [p.name for p in tmp_path.iterdir()] == [os.path.basename(transport._control)]


def test_read_returns_the_bytes_or_none_when_missing(tmp_path: Path) -> None:
    (tmp_path / "renamer-fv.conf").write_bytes(b"host-record=fv-gw,10.251.0.1\r\n\xe9")
    transport = LocalTransport()
    assert transport.read(str(tmp_path / "renamer-fv.conf")) == b"host-record=fv-gw,10.251.0.1\r\n\xe9"
    assert transport.read(str(tmp_path / "missing.conf")) is None
    assert transport.read(str(tmp_path / "no-folder" / "missing.conf")) is None


def test_reading_a_folder_raises(tmp_path: Path) -> None:
    with pytest.raises(TransportError, match=rf"\A{tmp_path}: cannot read: Is a directory\Z"):
        LocalTransport().read(str(tmp_path))


def test_a_path_that_cannot_be_read_raises(tmp_path: Path) -> None:
    path = tmp_path / "renamer-fv.conf"
    path.mkdir()  # unreadable as a file for root too (a chmod 0 file is not)
    with pytest.raises(TransportError, match=rf"\A{path}: cannot read: Is a directory\Z"):
        LocalTransport().read(str(path))


def test_write_makes_the_folder_and_a_0644_file_whatever_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "backups" / "ns-fv-20240501T120000.000000Z" / "ABSENT"
    previous = os.umask(0o077)
    try:
        LocalTransport().write(str(path), b"renamer-ana.conf\n")
    finally:
        os.umask(previous)
    assert path.read_bytes() == b"renamer-ana.conf\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_write_replaces_a_0600_file_with_a_0644_one(tmp_path: Path) -> None:
    path = tmp_path / "renamer-fv.conf"
    path.write_bytes(b"old\n")
    path.chmod(0o600)
    LocalTransport().write(str(path), b"new\n")
    assert path.read_bytes() == b"new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_write_goes_through_a_hidden_temporary_file_and_leaves_none(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    renames: list[tuple[str, str]] = []
    real_replace = os.replace

    def replace(source: str, target: str | Path) -> None:
        renames.append((str(source), str(target)))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    path = tmp_path / "renamer-fv.conf"
    LocalTransport().write(str(path), b"local=/fv.lan/\n")
    monkeypatch.undo()
    ((source, target),) = renames
    assert target == str(path)
    assert os.path.dirname(source) == str(tmp_path)
    # hidden and named after the snippet, so that what a killed run left is found and removed
    assert os.path.basename(source).startswith(".renamer-fv.conf.") and source.endswith(".tmp")
    assert [p.name for p in tmp_path.iterdir()] == ["renamer-fv.conf"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "renamer-fv.conf"
    path.write_bytes(b"old\n")

    def replace(source: str, target: str | Path) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(TransportError, match=rf"\A{path}: cannot write: No space left on device\Z"):
        LocalTransport().write(str(path), b"new\n")
    monkeypatch.undo()
    assert path.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["renamer-fv.conf"]


def test_write_replaces_a_symlink_instead_of_writing_through_it(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.conf"
    elsewhere.write_bytes(b"not ours\n")
    snippets = tmp_path / "dnsmasq.d"
    snippets.mkdir()
    link = snippets / "renamer-fv.conf"
    link.symlink_to(elsewhere)
    LocalTransport().write(str(link), b"local=/fv.lan/\n")
    assert not link.is_symlink()
    assert link.read_bytes() == b"local=/fv.lan/\n"
    assert elsewhere.read_bytes() == b"not ours\n"
    assert [p.name for p in snippets.iterdir()] == ["renamer-fv.conf"]


def test_write_under_a_file_raises(tmp_path: Path) -> None:
    (tmp_path / "dnsmasq.d").write_bytes(b"a file, not a folder")
    path = tmp_path / "dnsmasq.d" / "renamer-fv.conf"
    with pytest.raises(TransportError, match=rf"\A{path}: cannot write: File exists\Z"):
        LocalTransport().write(str(path), b"x")


def test_remove(tmp_path: Path) -> None:
    path = tmp_path / "renamer-ana.conf"
    path.write_bytes(b"x")
    transport = LocalTransport()
    transport.remove(str(path))
    assert not path.exists()
    transport.remove(str(path))
    transport.remove(str(tmp_path / "no-folder" / "renamer-ana.conf"))
    assert list(tmp_path.iterdir()) == []


def test_removing_a_folder_raises(tmp_path: Path) -> None:
    folder = tmp_path / "renamer-ana.conf"
    folder.mkdir()
    with pytest.raises(TransportError, match=rf"\A{folder}: cannot remove: Is a directory\Z"):
        LocalTransport().remove(str(folder))
    assert folder.is_dir()


def test_run_returns_the_status_and_both_outputs() -> None:
    result = LocalTransport().run(["sh", "-c", "echo out; echo err >&2; exit 3"])
    assert (result.returncode, result.output, result.stdout) == (3, "out\nerr\n", b"out\n")
    assert result.tail() == "err"


def test_run_keeps_stdout_bytes_exactly() -> None:
    result = LocalTransport().run(["printf", "\\377ok"])
    assert (result.returncode, result.stdout, result.output) == (0, b"\xffok", "\ufffdok")


def test_run_never_uses_a_shell(tmp_path: Path) -> None:
    trap = f"$(touch {tmp_path}/pwned)"
    result = LocalTransport().run(["echo", trap, ";", "`id`"])
    assert result.output == f"{trap} ; `id`\n"
    assert not (tmp_path / "pwned").exists()


def test_a_missing_command_is_127(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    result = LocalTransport().run(["renamer-no-such-command", "--test"])
    assert result == CommandResult(127, "renamer-no-such-command: command not found")


def test_a_file_that_is_not_executable_is_126(tmp_path: Path) -> None:
    script = tmp_path / "reload"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o644)
    assert LocalTransport().run([str(script)]) == CommandResult(126, f"{script}: Permission denied")


def test_a_command_past_its_timeout_is_124() -> None:
    assert _run(["sleep", "30"], timeout=1.0) == CommandResult(124, "sleep: no answer in 1 s")


def test_run_feeds_stdin() -> None:
    assert _run(["cat"], b"line\n\x00\xff").stdout == b"line\n\x00\xff"



def test_create_is_whole_or_nothing_and_exclusive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lock = tmp_path / "backups" / "renamer-apply.lock"
    transport = LocalTransport()
    assert transport.create(str(lock), b'{"pid": 1}\n')
    assert lock.read_bytes() == b'{"pid": 1}\n'
    assert not transport.create(str(lock), b'{"pid": 2}\n')  # held: left as it is
    assert lock.read_bytes() == b'{"pid": 1}\n'
    assert sorted(p.name for p in lock.parent.iterdir()) == ["renamer-apply.lock"]  # no temporary left
    # Killed between writing and linking: the lock does not exist at all, never empty.
    lock.unlink()

    def killed(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "link", killed)
    with pytest.raises(KeyboardInterrupt):
        transport.create(str(lock), b'{"pid": 3}\n')
    assert not lock.exists()
