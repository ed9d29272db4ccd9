"""A real OpenSSH server on a loopback port, with throwaway keys and a client ssh config."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from renamer.dns.dnsmasq.sandbox import free_port


@dataclass
class SshServer:
    folder: Path
    port: int
    client_config: Path
    client_key: Path
    process: subprocess.Popen[bytes]

    def target(self, user: str = "root") -> str:
        return f"ssh://{user}@127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.folder / "sshd.log"

    def connections(self) -> int:
        """How many logins the server accepted so far."""
        return self.log.read_text(errors="replace").count("Accepted publickey")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _keygen(path: Path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "renamer-test", "-f", str(path)],
                   check=True)


def config_test(config: Path, host_key: Path, connection: str) -> str:
    """`sshd -T` of `config` for one connection (`user=u,host=h,addr=A`): the settings sshd would apply.
    Its privilege-separation folder first: sshd -T refuses to run without it, and a worker that ran
    no other sshd test has none (a fresh machine's /run is empty)."""
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    return subprocess.run(["/usr/sbin/sshd", "-T", "-f", str(config), "-h", str(host_key), "-C", connection],
                          capture_output=True, text=True, check=True).stdout


def start_sshd(folder: Path, extra: str = "") -> SshServer:
    sshd = shutil.which("sshd") or "/usr/sbin/sshd"
    if not os.path.exists(sshd):
        raise FileNotFoundError("sshd is not installed (Debian: apt-get install openssh-server)")
    folder.mkdir(parents=True, exist_ok=True)
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege-separation folder
    host_key, client_key = folder / "host_ed25519", folder / "client_ed25519"
    _keygen(host_key)
    _keygen(client_key)
    (folder / "authorized_keys").write_text((folder / "client_ed25519.pub").read_text())
    port = free_port()
    config = folder / "sshd_config"
    config.write_text(f"""Port {port}
ListenAddress 127.0.0.1
HostKey {host_key}
PidFile {folder}/sshd.pid
AuthorizedKeysFile {folder}/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
StrictModes no
LogLevel VERBOSE
MaxStartups 100:30:200
MaxSessions 100
{extra}
""")
    public_host = (folder / "host_ed25519.pub").read_text().split()
    (folder / "known_hosts").write_text(f"[127.0.0.1]:{port} {public_host[0]} {public_host[1]}\n")
    client_config = folder / "ssh_config"
    client_config.write_text(f"""Host *
  IdentityFile {client_key}
  IdentitiesOnly yes
  UserKnownHostsFile {folder}/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  LogLevel ERROR
""")
    with open(folder / "sshd.log", "wb") as log:  # the server keeps its own copy of the handle
        process = subprocess.Popen([sshd, "-D", "-e", "-f", str(config)], stdout=log, stderr=log)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return SshServer(folder, port, client_config, client_key, process)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError(f"sshd did not start: {(folder / 'sshd.log').read_text()}")
