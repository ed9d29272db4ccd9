"""Remote resolvers over SSH, against a real sshd driving real dnsmasq instances."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.testing.resolvers import dns, fails_once_written
from tests.testing.sshd import start_sshd


def _over_ssh(server, **more: object) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {"target": server.target(), "ssh_config": str(server.client_config), **more}


def test_apply_and_reapply_over_ssh_with_one_connection_per_resolver(run, lab, sshd) -> None:
    lab.write_resolvers(ns_ana2=_over_ssh(sshd), ns_fv=_over_ssh(sshd))
    first = dns(run, lab, "apply", "--resolvers", "all")
    assert first.exit_code == 0, first.stdout + first.stderr
    assert first.stdout.count("  applied  ") == 3
    assert len(lab.snippets()) == 6
    assert sshd.connections() == 2  # one master connection per ssh resolver, reused by every step
    pids = lab.pids()
    again = dns(run, lab, "apply", "--resolvers", "all")
    assert again.exit_code == 0 and again.stdout.count("unchanged") == 3
    assert lab.pids() == pids
    assert dns(run, lab, "plan", "--resolvers", "ns-fv").stdout.count("up to date") == 1
    assert dns(run, lab, "verify", "--resolvers", "all").exit_code == 0


def test_rollback_across_local_and_ssh_resolvers(run, lab, sshd) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    before = lab.snippets()
    fv = lab.inventory / "sites" / "fv.yaml"
    fv.write_text(fv.read_text().replace("address: 10.251.0.1", "address: 10.251.0.2"))
    lab.write_resolvers(ns_ana2=_over_ssh(sshd),
                        ns_fv=_over_ssh(sshd, test=fails_once_written(lab, "ns-fv", "echo remote test broke >&2; exit 1")))
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 1
    assert re.search(r"ns-fv: test failed \(sh -c .*exit 1 .*\): remote test broke\n", result.stdout)
    rows = [line.split()[2:4] for line in result.stdout.splitlines()[1:4]]
    assert rows == [["rolled", "back"]] * 3
    assert lab.snippets() == before


def test_unreachable_host_is_named_within_seconds(run, lab, sshd) -> None:
    lab.write_resolvers(ns_fv={"target": "ssh://root@127.0.0.1:1", "ssh_config": str(sshd.client_config)})
    start = time.monotonic()
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert time.monotonic() - start < 15
    assert result.exit_code == 1
    # Unreachable: a preflight fault of that resolver (test_fleet.py: the others may go on).
    line = _error_line(result.stdout, "ns-fv: unreachable: ns-fv (ssh://root@127.0.0.1:1): ssh failed: ")
    assert "Connection refused" in line and line.endswith("; nothing written")  # one line, whatever ssh printed
    assert lab.snippets() == {}


def _error_line(stdout: str, start: str) -> str:
    lines = [line for line in stdout.splitlines() if line.startswith(start)]
    assert len(lines) == 1, stdout
    return lines[0]


def test_a_server_that_hangs_up_at_once_is_one_line(run, lab, sshd) -> None:
    # Something listens but is no sshd (a port forward with nothing behind it): ssh prints two
    # lines (kex_exchange_identification, then "Connection closed by ..."); renamer says one.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]

    def hang_up() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                conn.close()

    threading.Thread(target=hang_up, daemon=True).start()
    try:
        lab.write_resolvers(ns_fv={"target": f"ssh://root@127.0.0.1:{port}",
                                   "ssh_config": str(sshd.client_config)})
        result = dns(run, lab, "plan", "--resolvers", "all")
    finally:
        listener.close()
    assert result.exit_code == 1
    error = _error_line(result.stdout, f"error: ns-fv (ssh://root@127.0.0.1:{port}): ssh failed: ")
    assert result.stdout.count("\n") > 3 and error in result.stdout.splitlines()  # one line; the others planned


def test_authentication_refused(run, lab, sshd) -> None:
    (sshd.folder / "authorized_keys").write_text("")
    lab.write_resolvers(ns_fv=_over_ssh(sshd))
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 1
    assert "Permission denied" in _error_line(result.stdout, "ns-fv: unreachable: ns-fv (ssh://root@127.0.0.1:")
    assert lab.snippets() == {}


def test_host_key_changed(run, lab, sshd, tmp_path: Path) -> None:
    other = start_sshd(tmp_path / "other")  # a different host key...
    try:
        known = (other.folder / "known_hosts").read_text().split(" ", 1)[1]
        (sshd.folder / "known_hosts").write_text(f"[127.0.0.1]:{sshd.port} {known}")  # ...expected here
        lab.write_resolvers(ns_fv=_over_ssh(sshd))
        result = dns(run, lab, "apply", "--resolvers", "all")
        assert result.exit_code == 1
        line = _error_line(result.stdout, "ns-fv: unreachable: ns-fv (ssh://root@127.0.0.1:")
        assert "Host key verification failed" in line
        assert lab.snippets() == {}
    finally:
        other.stop()


def test_permission_denied_on_snippet_dir_rolls_back_the_others(run, lab, sshd) -> None:
    folder = lab.instances["ns-fv"].snippet_dir
    lab.write_resolvers(ns_fv=_over_ssh(sshd))
    subprocess.run(["chattr", "+i", str(folder)], check=True)  # even root may not write there
    try:
        result = dns(run, lab, "apply", "--resolvers", "all")
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    assert result.exit_code == 1
    assert f"ns-fv: {folder}/renamer-ana.conf: cannot write: " in result.stdout
    assert "Operation not permitted" in result.stdout
    rows = [line.split()[2:4] for line in result.stdout.splitlines()[1:4]]
    assert rows[:2] == [["rolled", "back"], ["rolled", "back"]]
    assert lab.snippets() == {}


def test_disk_full_on_the_remote_side(run, lab, sshd) -> None:
    folder = lab.instances["ns-fv"].snippet_dir
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(folder)], check=True)
    try:
        fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        lab.write_resolvers(ns_fv=_over_ssh(sshd))
        result = dns(run, lab, "apply", "--resolvers", "all")
        assert result.exit_code == 1
        assert "No space left on device" in result.stdout
        assert [line.split()[2] for line in result.stdout.splitlines()[1:3]] == ["rolled", "rolled"]
        assert sorted(p.name for p in folder.iterdir()) == ["filler"]
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_sudo_runs_writes_test_and_reload(run, lab, sshd) -> None:
    lab.write_resolvers(ns_fv=_over_ssh(sshd, sudo=True))
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 0, result.stdout + result.stderr


def test_missing_sudo_right_is_refused_before_anything_is_written(run, lab, tmp_path: Path) -> None:
    fake = tmp_path / "fakebin"
    fake.mkdir()
    (fake / "sudo").write_text("#!/bin/sh\necho 'sudo: a password is required' >&2\nexit 1\n")
    (fake / "sudo").chmod(0o755)
    server = start_sshd(tmp_path / "sudoless", f"SetEnv PATH={fake}:/usr/sbin:/usr/bin:/sbin:/bin")
    try:
        lab.write_resolvers(ns_fv=_over_ssh(server, sudo=True))
        result = dns(run, lab, "apply", "--resolvers", "all")
    finally:
        server.stop()
    assert result.exit_code == 1
    assert result.stderr == "renamer: error: ns-fv: sudo -n is not allowed: sudo: a password is required\n"
    assert lab.snippets() == {}


def test_hostile_values_are_never_interpreted_by_a_shell(run, lab, sshd, tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    odd = lab.root / "snip dir $(touch PWNED) `touch PWNED` ;touch PWNED 'q' \"dq\""
    odd.mkdir()
    instance = lab.instances["ns-fv"]
    hostile_test = ["true", f"$(touch {marker})", f"; touch {marker}", "'", '"', "\\", "*", "&&", "|"]
    lab.write_resolvers(ns_fv=_over_ssh(sshd, snippet_dir=str(odd), test=hostile_test,
                                        reload=["true", f"`touch {marker}`"]))
    # No dnsmasq reads that folder: the layout check says so (its commands see the hostile
    # path too, as plain arguments) ...
    refused = dns(run, lab, "apply", "--resolvers", "ns-fv", "--no-verify")
    assert refused.exit_code == 3 and "is not read by dnsmasq" in refused.stderr, refused.stderr
    assert not marker.exists() and not (odd / "renamer-fv.conf").exists()
    # ... and with the check off, every write, test and reload takes the values literally.
    lab.write_resolvers(ns_fv=_over_ssh(sshd, snippet_dir=str(odd), test=hostile_test, check_layout=False,
                                        reload=["true", f"`touch {marker}`"]))
    result = dns(run, lab, "apply", "--resolvers", "ns-fv", "--no-verify")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (odd / "renamer-fv.conf").read_text().startswith("# Managed by renamer: site fv")
    assert not marker.exists()
    assert not (Path.home() / "PWNED").exists() and not (lab.root / "PWNED").exists()
    assert instance.snippet_dir.exists()


def test_the_ssh_commands_are_argv_lists(sshd) -> None:
    import ipaddress

    from renamer.dns.inventory import Resolver
    from renamer.dns.transport import SshTransport

    resolver = Resolver("ns", ipaddress.ip_address("127.0.0.1"), 53, sshd.target(), "/s", "/b",
                        ("true",), ("true",), (), (), str(sshd.client_config))
    transport = SshTransport(resolver)
    try:
        result = transport.run(["printf", "%s|", "a b", "$HOME", "`id`", "'q'"])
    finally:
        transport.close()
    assert result.ok and result.output == "a b|$HOME|`id`|'q'|"
    assert sys.executable  # the same interpreter drives the local steps


def test_a_killed_writes_leftovers_go_with_the_next_apply_locally_and_over_ssh(run, lab, sshd) -> None:
    lab.write_resolvers(ns_fv=_over_ssh(sshd))
    leftovers = [".renamer-fv.conf.Ab3_x9", ".renamer-fv.conf.x__ihlht.tmp"]  # mktemp's, write_atomic's
    others = [".renamer-fv.conf.notes", "renamer-fv.conf.bak", ".hidden"]  # not renamer's temporaries
    for instance in lab.instances.values():
        for name in leftovers + others:
            (instance.snippet_dir / name).write_text("partial")
    done = dns(run, lab, "apply", "--resolvers", "all")
    assert done.exit_code == 0, done.stdout + done.stderr
    for instance in lab.instances.values():  # ns-fv over ssh, the others locally
        names = {p.name for p in instance.snippet_dir.iterdir()}
        assert not names & set(leftovers)
        assert set(others) <= names


def test_who_asks_reads_a_query_log_over_ssh(run, lab, sshd) -> None:
    """`dns who-asks` reads a remote resolver's query log through the same ssh transport."""
    log = lab.root / "remote-queries.log"
    log.write_text(f"{time.strftime('%b %e %H:%M:%S')} dnsmasq[7]: query[A] ana-ml2.ana.lan from 10.250.20.7\n")
    lab.write_resolvers(ns_fv=_over_ssh(sshd, query_log=str(log)))
    found = dns(run, lab, "who-asks", "ana-ml2", "--resolvers", "ns-fv", "--since", "1m")
    assert found.exit_code == 1, found.stdout + found.stderr
    assert re.search(r"^ana-ml2 +10\.250\.20\.7 +1 ", found.stdout, re.MULTILINE), found.stdout
    assert sshd.connections() == 1
