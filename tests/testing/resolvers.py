"""Three real dnsmasq resolvers on loopback ports, and an inventory that points at them."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dns import exception as dns_exception
from dns import message as dns_message
from dns import name as dns_name
from dns import query as dns_query
from dns import rdatatype as dns_rdatatype
from dns import reversename as dns_reversename
from renamer.dns.dnsmasq import sandbox
from renamer.shipped import shipped
from tests.testing import bind, powerdns, unbound

NAMES = ("ns-ana", "ns-ana2", "ns-fv")
DHCP = {"ns-ana": ["ana"], "ns-ana2": [], "ns-fv": ["fv"]}


@dataclass
class Lab:
    root: Path  # holds dns/ (the inventory) and the instances' folders
    instances: dict[str, sandbox.Instance]

    @property
    def inventory(self) -> Path:
        return self.root / "dns"

    def write_resolvers(self, asked: tuple[dict[str, object], ...] = (), **extra: dict[str, object]) -> None:
        """resolvers.yaml for the lab's instances (`extra`: more keys per resolver, by name with
        `_` for `-`), then the `asked` entries as they are (resolvers with `manage: false`)."""
        merged = {name: {**({"dhcp": DHCP.get(name, [])} if i.backend == "dnsmasq" else {}),
                         **extra.get(name.replace("-", "_"), {})}
                  for name, i in self.instances.items()}
        text = sandbox.resolvers_yaml(self.instances, self.root / "backups", merged, timeout=0.5)
        text += "".join(f"  - {json.dumps(entry)}\n" for entry in asked)
        (self.inventory / "resolvers.yaml").write_text(text)

    def snippets(self) -> dict[str, bytes]:
        out = {}
        for name, i in self.instances.items():
            for p in sorted(i.snippet_dir.iterdir()):
                with contextlib.suppress(FileNotFoundError):  # removed by an apply running meanwhile
                    out[f"{name}/{p.name}"] = p.read_bytes()
        return out

    def pids(self) -> dict[str, str]:
        return {name: i.pid_file.read_text().strip() if i.pid_file.exists() else ""
                for name, i in self.instances.items()}

    def stop(self) -> None:
        for instance in self.instances.values():
            instance.stop()

    # The conformance suite's fault hooks (tests/dns/test_backend_conformance.py): write_resolvers'
    # keys for resolver `name` that make one step fail. A file backend's are its `test` command and
    # its ssh target; a backend without them (PowerDNS) brings its own (PowerDNSLab).

    def failing_test(self, name: str) -> dict[str, object]:
        """`name`'s test passes on what it holds now and fails once an apply wrote there."""
        return {"test": fails_once_written(self, name)}

    def hanging_test(self, name: str) -> dict[str, object]:
        """An apply hangs at `name` once it wrote there (its test sleeps)."""
        return {"test": fails_once_written(self, name, "sleep 30")}

    def unreachable(self, name: str) -> tuple[dict[str, object], str]:
        """(keys that make `name` unreachable, the line dns apply then says of it)."""
        target = "ssh://nobody@127.0.0.1:1"
        return {"target": target}, f"{name}: unreachable: {name} ({target}): ssh failed"

    def written(self, name: str) -> dict[str, bytes]:
        """What renamer wrote at resolver `name` (snippets' keys start with the resolver's name), a
        file's temporary copy left out (a write under way)."""
        return {key: data for key, data in self.snippets().items()
                if key.startswith(f"{name}/") and not key.startswith(f"{name}/.")}


def start_lab(root: Path, names: tuple[str, ...] = NAMES) -> Lab:
    shutil.copytree(shipped("dns") / "sites", root / "dns" / "sites")
    instances = {name: sandbox.create(root / "run" / name) for name in names}
    lab = Lab(root, instances)
    lab.write_resolvers()
    for instance in instances.values():
        sandbox.start(instance.folder)
    return lab


def with_hosts_dir(lab: Lab) -> dict[str, dict[str, object]]:
    """Give each dnsmasq of the lab a hostsdir= folder (restarted once); the resolvers' keys."""
    extra: dict[str, dict[str, object]] = {}
    for name, instance in lab.instances.items():
        folder = instance.folder / "hosts.d"
        folder.mkdir()
        with instance.conf.open("a") as conf:
            conf.write(f"hostsdir={folder}\n")
        sandbox.restart(instance.folder)
        extra[name.replace("-", "_")] = {"hosts_dir": str(folder)}
    lab.write_resolvers(**extra)
    return extra


def move_gateway(lab: Lab) -> None:
    """A change every resolver must apply: fv-gw moves from 10.251.0.1 to 10.251.0.2."""
    path = lab.inventory / "sites" / "fv.yaml"
    path.write_text(path.read_text().replace("address: 10.251.0.1", "address: 10.251.0.2"))


def kill_apply_in_ns_ana2_test(lab: Lab) -> None:
    """An apply of the gateway's move killed with SIGKILL (the apply and its sleeping test, as a
    kill -9 of its session would) while ns-ana2's test runs: ns-ana applied and restarted,
    ns-ana2 written, not restarted (both half-done), ns-fv not reached. ns-ana2's slow test is
    left configured (the preflight tests the configuration as it stands first, which passes):
    `lab.write_resolvers()` restores it."""
    mark = lab.root / "in-test"
    written = lab.instances["ns-ana2"].snippet_dir / "renamer-fv.conf"
    slow = f'if grep -q 10.251.0.2 {written}; then touch {mark}; sleep 30; fi; exec "$@"'
    lab.write_resolvers(ns_ana2={"test": ["sh", "-c", slow, "sh", *lab.instances["ns-ana2"].test_command()]})
    move_gateway(lab)
    apply = subprocess.Popen([sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all",
                              "--inventory", str(lab.inventory)], cwd=lab.root, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        end = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < end:
            time.sleep(0.05)
        assert mark.exists(), "the apply reached ns-ana2's test"
    finally:
        os.killpg(apply.pid, signal.SIGKILL)
        apply.wait()


def serving(run: Callable[..., Any], lab: Lab, name: str) -> str:
    """'new' or 'old': which fv-gw address resolver `name` answers, after move_gateway."""
    out = run(lab.root, "dns", "verify", "--resolvers", name, "--inventory", str(lab.inventory)).stdout
    return "old" if "fv-gw A: expected 10.251.0.2, got 10.251.0.1" in out else "new"


def addresses(lab: Lab, name: str, *only: str) -> dict[str, tuple[str, ...]]:
    """What each resolver of the lab (or those named in `only`) answers for `name` A, asked
    straight over DNS (never through renamer's own report)."""
    return answers(lab, name, "A", *only)


def answers(lab: Lab, name: str, rdtype: str, *only: str) -> dict[str, tuple[str, ...]]:
    """The `rdtype` records (A, AAAA, PTR, ...) each resolver of the lab (or those named in
    `only`) answers for `name`, sorted, as text; a CNAME on the way is left out."""
    out = {}
    wanted = dns_rdatatype.from_text(rdtype)
    for resolver, instance in lab.instances.items():
        if only and resolver not in only:
            continue
        response = dns_query.udp(dns_message.make_query(name, rdtype), instance.address, port=instance.port,
                                 timeout=2.0)
        out[resolver] = tuple(sorted(item.to_text() for rrset in response.answer
                                     if rrset.rdtype == wanted for item in rrset))
    return out


def stray(lab: Lab, resolver: str, owner: str, rdtype: str, value: str) -> None:
    """A hand-written record served at `resolver` beside renamer's, as an operator writes it
    there (never through renamer): dnsmasq and Unbound a line of their main configuration,
    BIND a line added to the zone file by hand (named reloaded), PowerDNS an RRset PATCHed in.
    `owner` and `value` fully qualified where they are names."""
    instance = lab.instances[resolver]
    if isinstance(instance, powerdns.Server):
        zone = next(z for z in sorted(powerdns.lab_zones(), key=len, reverse=True) if owner.endswith(f".{z}"))
        instance.client().patch(zone, [{"name": owner, "type": rdtype, "ttl": 60, "changetype": "REPLACE",
                                        "records": [{"content": value, "disabled": False}]}])
        return
    if instance.backend == "bind":
        zone_file = next(p for p in sorted(instance.snippet_dir.glob("renamer-*.zone"), key=lambda p: -len(p.name))
                         if owner.endswith("." + p.name[len("renamer-"):-len("zone")]))
        with zone_file.open("a") as text:
            text.write(f"{owner} 60 IN {rdtype} {value}\n")
    elif instance.backend == "unbound":
        record = (f'local-data-ptr: "{dns_reversename.to_address(dns_name.from_text(owner))} {value}"'
                  if rdtype == "PTR" else f'local-data: "{owner} {rdtype} {value}"')
        with instance.conf.open("a") as conf:
            conf.write(f"server:\n  {record}\n")
    else:
        line = {"CNAME": f"cname={owner[:-1]},{value.rstrip('.')}",
                "PTR": f"ptr-record={owner[:-1]},{value.rstrip('.')}"}.get(rdtype, f"host-record={owner[:-1]},{value}")
        with instance.conf.open("a") as conf:
            conf.write(line + "\n")
    reload_until(lab, resolver, owner, rdtype, value)


def reload_until(lab: Lab, resolver: str, name: str, rdtype: str = "SOA", value: str = "") -> None:
    """Reload `resolver` as its operator would and, for named, wait (10 s at most) until it answers
    `name` `rdtype` (with `value` among the answers where given): `rndc reload` returns before the
    zones it (re)loads are served, and a test that asked at once got an empty answer."""
    instance = lab.instances[resolver]
    subprocess.run(instance.reload_command(), check=True, capture_output=True)
    if instance.backend != "bind":
        return
    deadline = time.monotonic() + 10
    while True:
        with contextlib.suppress(dns_exception.Timeout):
            got = answers(lab, name, rdtype, resolver)[resolver]
            if got and (not value or value in got):
                return
        if time.monotonic() > deadline:
            raise AssertionError(f"{resolver} did not answer {name} {rdtype} {value} within 10 s of its reload")
        time.sleep(0.05)


def dns(run: Callable[..., Any], lab: Lab, *args: str) -> Any:
    """`renamer dns ARGS... --inventory` the lab's inventory, through the `run` fixture."""
    return run(lab.root, "dns", *args, "--inventory", str(lab.inventory))


def dns_process(lab: Lab, *args: str, minutes: float = 0) -> subprocess.CompletedProcess[str]:
    """`renamer dns ARGS... --inventory` the lab's, in a process of its own whose clock is
    `minutes` off (tests/testing/skewed.py): a lock it leaves names a process that is gone
    once it returns, as after any real run."""
    root = Path(__file__).resolve().parents[2]
    return subprocess.run([sys.executable, "-m", "tests.testing.skewed", str(minutes), "dns", *args,
                           "--inventory", str(lab.inventory)], cwd=lab.root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root), "NO_COLOR": "1"}, check=False)


@contextlib.contextmanager
def small_backup_dir(lab: Lab, name: str) -> Iterator[Path]:
    """Resolver `name`'s backup_dir as a 64 KiB tmpfs of 512 inodes, unmounted at the end (with the
    default inode count, one per page of RAM, fill_inodes_leaving took over a minute)."""
    backups = lab.root / "backups" / name
    backups.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,nr_inodes=512", "tmpfs", str(backups)], check=True)
    try:
        yield backups
    finally:
        subprocess.run(["umount", "-l", str(backups)], check=False)


def fill_leaving_8k(folder: Path) -> None:
    """A file `filler` in `folder` that leaves 8 KiB free there."""
    room = os.statvfs(folder)
    (folder / "filler").write_bytes(b"\0" * (room.f_bavail * room.f_frsize - 8192))


def fill_inodes_leaving(folder: Path, free: int) -> list[Path]:
    """Empty files in `folder` (a tmpfs) until no inode is left, then `free` of them removed:
    `df` still shows room (the preflight passes), and the `free + 1`th new name fails, ENOSPC."""
    made: list[Path] = []
    while True:
        path = folder / f"inode-{len(made)}"
        try:
            path.touch()
        except OSError:
            break
        made.append(path)
    for path in made[len(made) - free:]:
        path.unlink()
    return made[:len(made) - free]


def playbook_by_hand(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`ansible-playbook playbook.yml ARGS...` in an exported folder, as a user runs it by hand."""
    env = {**os.environ, "ANSIBLE_CONFIG": str(folder / "ansible.cfg"), "ANSIBLE_NOCOLOR": "1"}
    return subprocess.run([str(Path(sys.executable).parent / "ansible-playbook"), "playbook.yml", *args],
                          cwd=folder, env=env, capture_output=True, text=True, check=False)


def broken_test(lab: Lab, *names: str) -> dict[str, dict[str, object]]:
    """write_resolvers' keys for resolvers whose `test` fails once an apply wrote there (it
    passes on the configuration as it stands, so the preflight lets the apply start)."""
    return {name.replace("-", "_"): {"test": fails_once_written(lab, name)} for name in names}


def dies_on_start(lab: Lab, name: str) -> Path:
    """A hand file that `dnsmasq --test` accepts but that stops dnsmasq from starting (a restart,
    and so a rollback that restarts, fails there); unlink it to mend."""
    hand = lab.instances[name].snippet_dir / "10-site.conf"
    hand.write_text("interface=eth9\n")
    return hand


def fails_once_written(lab: Lab, name: str, then: str = "echo broken >&2; exit 1") -> list[str]:
    """A `test` argv for resolver `name` that passes on its snippets as they are now, so the
    preflight (dns/preflight.py) finds nothing wrong, and runs the shell code `then` once an
    apply has written anything there: a fault of the new configuration."""
    instance = lab.instances[name]
    saved = lab.root / "as-it-was" / name
    shutil.rmtree(saved, ignore_errors=True)
    shutil.copytree(instance.snippet_dir, saved)
    return ["sh", "-c", 'diff -r -q -- "$1" "$2" > /dev/null && exit 0; ' + then, "sh",
            str(instance.snippet_dir), str(saved)]


def start_unbound_lab(root: Path, names: tuple[str, ...] = NAMES) -> Lab:
    """start_lab's three resolvers as real Unbounds (backend: unbound), on loopback."""
    shutil.copytree(shipped("dns") / "sites", root / "dns" / "sites")
    instances: dict[str, sandbox.Instance] = {name: unbound.create_resolver(root / "run" / name) for name in names}
    lab = Lab(root, instances)
    lab.write_resolvers()
    for instance in instances.values():
        assert isinstance(instance, unbound.Resolver)
        unbound.start_resolver(instance)
    return lab


def start_bind_lab(root: Path, names: tuple[str, ...] = NAMES) -> Lab:
    """start_lab's three resolvers as real BIND 9 nameds (backend: bind), on loopback."""
    shutil.copytree(shipped("dns") / "sites", root / "dns" / "sites")
    instances: dict[str, sandbox.Instance] = {name: bind.create_resolver(root / "run" / name) for name in names}
    lab = Lab(root, instances)
    lab.write_resolvers()
    started: list[bind.Resolver] = []
    try:
        for instance in instances.values():
            assert isinstance(instance, bind.Resolver)
            bind.start_resolver(instance)
            started.append(instance)
    except BaseException:
        for instance in started:
            instance.stop()
        raise
    return lab


@dataclass
class PowerDNSLab(Lab):
    """start_lab's three resolvers as real PowerDNS Authoritative servers (backend: powerdns), each
    holding the shipped sites' zones, empty; the API key in a file of the lab (mode 600). Its
    fault hooks are a loopback proxy in front of a server's API (powerdns.Proxy) and an `api` on
    a closed port: a PowerDNS resolver runs no test command and has no ssh target."""

    key_file: Path = Path()
    proxies: dict[str, powerdns.Proxy] = field(default_factory=dict)

    def server(self, name: str) -> powerdns.Server:
        found = self.instances[name]
        assert isinstance(found, powerdns.Server)
        return found

    def write_resolvers(self, asked: tuple[dict[str, object], ...] = (), **extra: dict[str, object]) -> None:
        lines = []
        for name in self.instances:
            server = self.server(name)
            entry: dict[str, object] = {"name": name, "address": server.address, "port": server.port,
                                        "backend": "powerdns", "api": server.url, "api_key_file": str(self.key_file),
                                        "backup_dir": str(self.root / "backups" / name), "timeout": 0.5}
            entry.update(extra.get(name.replace("-", "_"), {}))
            lines.append(f"  - {json.dumps(entry)}\n")
        lines += [f"  - {json.dumps(entry)}\n" for entry in asked]
        (self.inventory / "resolvers.yaml").write_text("resolvers:\n" + "".join(lines))

    def snippets(self) -> dict[str, bytes]:
        """Every RRset each server holds but the SOA (PowerDNS bumps its serial on each PATCH; renamer
        never writes it), with its TTL, records and comments (not their modified_at: a PATCH that
        puts a comment back stamps it anew)."""
        out = {}
        for name in self.instances:
            client = self.server(name).client()
            for zone in powerdns.lab_zones():
                for rr in client.zone(zone)["rrsets"]:
                    if rr["type"] != "SOA":
                        out[f"{name}/{zone} {rr['name']} {rr['type']}"] = json.dumps(
                            [rr["ttl"], sorted(r["content"] for r in rr["records"]),
                             [(c["account"], c["content"]) for c in rr.get("comments", [])]],
                            sort_keys=True).encode()
        return out

    def pids(self) -> dict[str, str]:
        return {name: str(self.server(name).process.pid) for name in self.instances}

    def stop(self) -> None:
        for proxy in self.proxies.values():
            proxy.stop()
        super().stop()

    def _proxy(self, name: str, mode: str) -> dict[str, object]:
        if name in self.proxies:
            self.proxies.pop(name).stop()
        self.proxies[name] = powerdns.Proxy(self.server(name).url, mode)
        return {"api": self.proxies[name].url}

    def failing_test(self, name: str) -> dict[str, object]:
        return self._proxy(name, "swallow")  # the read-back (its test) finds the PATCH not there

    def failing_write(self, name: str) -> dict[str, object]:
        return self._proxy(name, "fail")

    def hanging_test(self, name: str) -> dict[str, object]:
        return self._proxy(name, "hold")  # the PATCH reaches the server; its answer never comes

    def unreachable(self, name: str) -> tuple[dict[str, object], str]:
        url = f"http://127.0.0.1:{sandbox.free_port()}"  # nothing listens there
        return {"api": url}, f"{name}: unreachable: {name} ({url}): API not reachable"


def start_powerdns_lab(root: Path, names: tuple[str, ...] = NAMES) -> PowerDNSLab:
    shutil.copytree(shipped("dns") / "sites", root / "dns" / "sites")
    key_file = root / "pdns.key"
    key_file.write_text(powerdns.KEY + "\n")
    key_file.chmod(0o600)
    servers: dict[str, sandbox.Instance] = {}
    try:
        for name in names:
            server = powerdns.start(root / "run" / name)
            servers[name] = server  # type: ignore[assignment]  # a Lab's instances: a server here
            for zone in powerdns.lab_zones():
                server.create_zone(zone)
    except BaseException:
        for started in servers.values():
            started.stop()
        raise
    lab = PowerDNSLab(root, servers, key_file)
    lab.write_resolvers()
    return lab
