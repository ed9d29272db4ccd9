"""The DNS half of the demo: three real resolvers on loopback, where dnsmasq exists (a mixed
fleet, the third one Unbound, where Unbound is installed too).

The repo's dns/resolvers.yaml stays as shipped: the loopback resolvers are described in a
separate file the DNS steps name with --resolvers-file, so a kept demo repo is the
example as it is, and `renamer demo --resolvers-only DIR` can start its resolvers again.
"""

from __future__ import annotations

import contextlib
import http.server
import shlex
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from renamer.cli.output import Output
from renamer.cli.tour import Tour
from renamer.dns.dnsmasq import sandbox
from renamer.dns.load import load_inventory
from renamer.dns.unbound import sandbox as unbound_sandbox
from renamer.errors import ConfigError, UnsafeError
from renamer.interrupts import handled, raise_interrupt


@dataclass(frozen=True)
class Lab:
    folder: Path
    resolvers_file: Path
    ports: tuple[int, ...]  # the managed resolvers'
    forwarders: tuple[int, ...] = ()  # the ports of those with manage: false
    kinds: str = ""  # `3 dnsmasq resolvers`, or the mixed fleet's names by backend


@contextlib.contextmanager
def loopback_resolvers(repo: Path, folder: Path) -> Iterator[Lab]:
    """The inventory's resolvers as real dnsmasq (and Unbound) instances on loopback ports under `folder`,
    described in `folder`/resolvers.yaml; stopped (and `folder` removed) at the end."""
    inventory = load_inventory(repo / "dns", str)
    folder.mkdir(parents=True, exist_ok=True)
    # A mixed fleet where Unbound is installed: the last managed resolver is an Unbound (its
    # records as local-data, checked by unbound-checkconf, activated by unbound-control reload).
    mixed = _unbound_installed()
    instances: dict[str, sandbox.Instance] = {
        r.name: (unbound_sandbox.create_resolver(folder / r.name) if mixed and r == inventory.managed[-1]
                 else sandbox.create(folder / r.name))
        for r in inventory.managed}
    # The forwarders the sites' clients ask (manage: false) forward every site's domain and
    # reverse zone across the "mesh" to the resolvers that hold the records.
    domains = [s.domain for s in inventory.sites]
    networks = [str(n) for s in inventory.sites for n in s.networks]
    asked = {r.name: sandbox.create_forwarder(folder / r.name, domains, networks, list(instances.values()))
             for r in inventory.resolvers if not r.manage}
    dhcp: dict[str, dict[str, object]] = {r.name: {"dhcp": list(r.dhcp)} for r in inventory.managed
                                           if instances[r.name].backend == "dnsmasq"}  # DHCP is dnsmasq's
    resolvers_file = folder / "resolvers.yaml"
    resolvers_file.write_text(
        "# The demo's resolvers: the inventory's, as real dnsmasq (and Unbound) on loopback ports.\n"
        + sandbox.resolvers_yaml(instances, folder / "backups", dhcp, asked=asked))
    everything = [*instances.values(), *asked.values()]
    started: list[sandbox.Instance] = []
    try:
        for instance in everything:
            instance.start()
            started.append(instance)
        yield Lab(folder, resolvers_file, tuple(i.port for i in instances.values()),
                  tuple(i.port for i in asked.values()), _kinds(instances))
    finally:
        for instance in started:
            instance.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _unbound_installed() -> bool:
    try:
        unbound_sandbox.unbound_binary()
    except FileNotFoundError:
        return False
    return all(shutil.which(tool) or Path("/usr/sbin", tool).exists()
               for tool in ("unbound-checkconf", "unbound-control"))


def _kinds(instances: dict[str, sandbox.Instance]) -> str:
    """`3 dnsmasq resolvers`, or `3 resolvers (ns-ana, ns-ana2: dnsmasq; ns-ana3: Unbound)`."""
    backends = {i.backend for i in instances.values()}
    if backends == {"dnsmasq"}:
        return f"{len(instances)} dnsmasq resolvers"
    names = {"dnsmasq": "dnsmasq", "unbound": "Unbound"}
    parts = ["{}: {}".format(", ".join(n for n, i in instances.items() if i.backend == b), names.get(b, b))
             for b in dict.fromkeys(i.backend for i in instances.values())]
    return f"{len(instances)} resolvers ({'; '.join(parts)})"


def dns_tour(tour: Tour, first_step: int) -> int:
    out, repo, step, run = tour.out, tour.repo, tour.step, tour.run
    step(first_step, "dns render --site fv",
         "The new site's records as a dnsmasq drop-in: host-record (A and PTR), the DHCP "
         "reservation pinning fv-ml1 to its address, scriberr re-homed as a CNAME, and the "
         "BMC's VLAN warning right above its record.")
    if run("dns", "render", "--site", "fv") != 0:
        return 1
    try:
        sandbox.dnsmasq_binary()
    except FileNotFoundError as exc:
        out.echo(f"\nSkipping the live DNS steps: {exc}.\n")
        return 0
    with loopback_resolvers(repo, Path(tempfile.mkdtemp(prefix="renamer-demo-dns-"))) as lab:
        out.echo(f"\nStarted {lab.kinds} on 127.0.0.1 ports "
                 f"{', '.join(str(p) for p in lab.ports)}{_forwarders(lab)}; {lab.resolvers_file} "
                 "describes them (dns/resolvers.yaml stays as shipped).\n")
        use = ["--resolvers-file", str(lab.resolvers_file)]
        steps = [
            ("dns plan --resolvers all", "Per resolver: the snippet diff and the records added.",
             ["dns", "plan", "--resolvers", "all", *use]),
            ("dns apply --resolvers all", "Resolver by resolver: backup, atomic write, "
             "`dnsmasq --test` on the conf-dir it loads, restart (not SIGHUP: dnsmasq re-reads "
             "host-record only on a restart)" + (", or for Unbound `unbound-checkconf` and "
             "`unbound-control reload`" if "Unbound" in lab.kinds else "") + ", verify. Any "
             "failure rolls every resolver back.",
             ["dns", "apply", "--resolvers", "all", *use]),
            ("dns verify --resolvers all", "Ask each resolver directly: every host, PTR and "
             "alias answers, and the retired ana-ml2 names get NXDOMAIN.",
             ["dns", "verify", "--resolvers", "all", *use]),
            ("dns apply --resolvers all, again", "Nothing changed: no resolver is touched.",
             ["dns", "apply", "--resolvers", "all", *use]),
        ]
        for offset, (title, why, args) in enumerate(steps, 1):
            step(first_step + offset, title, why)
            if run(*args) != 0:
                return 1
        with _answering_server() as port:
            step(first_step + len(steps) + 1, "probe",
                 "Every endpoint the current-state files now name through fv-ml1 or its address: "
                 "resolved through the resolvers, connected to, and fetched once (the gateway's "
                 "api_base on its health path). The example's hosts do not exist here, so every "
                 f"connection goes to one small HTTP server on 127.0.0.1:{port} (curl's --connect-to).")
            if run("probe", *use, "--no-system-resolver", "--connect-to", f"::127.0.0.1:{port}") != 0:
                return 1
    out.echo("\nStopped the resolvers. Done: the repo and DNS both follow the move.\n")
    return 0


def _forwarders(lab: Lab) -> str:
    if not lab.forwarders:
        return ""
    ports = ", ".join(str(p) for p in lab.forwarders)
    what = "a forwarder" if len(lab.forwarders) == 1 else f"{len(lab.forwarders)} forwarders"
    return (f", and {what} renamer never writes, only asks (manage: false), on port {ports}, "
            "forwarding the sites' domains to them")


@contextlib.contextmanager
def _answering_server() -> Iterator[int]:
    """An HTTP server on a loopback port that answers 200 to every GET, while the block runs."""
    class Answer(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield int(server.server_port)
    finally:
        server.shutdown()
        server.server_close()


LAB = Path(".git") / "renamer-demo"  # in a kept demo repo: never tracked, never swept


def kept_readme(repo: Path) -> str:
    """DEMO.md for a kept demo repo: what it is and how to bring its resolvers back."""
    where = shlex.quote(str(repo))
    file = shlex.quote(str(LAB / "resolvers.yaml"))
    return f"""# The renamer demo repo

`renamer demo --keep` left this repo here: the example infra repo after the
fv-ml1 move (`git log --stat` shows the sweep's two commits).

    renamer verify                   # exit 0: no live reference left
    renamer audit                    # what was kept on purpose, and why
    git log --follow --oneline playbooks/host_vars/fv-ml1.yml

`dns/resolvers.yaml` is the inventory as shipped (real addresses). The demo's DNS
steps ran against its resolvers as dnsmasq (and Unbound) instances on loopback ports, stopped when it
ended. To start them again (until Ctrl-C):

    renamer demo --resolvers-only {where}

and, in another terminal, in this folder:

    renamer dns plan --resolvers all --resolvers-file {file}
    renamer dns apply --resolvers all --resolvers-file {file}
    renamer dns verify --resolvers all --resolvers-file {file}
"""


def serve_resolvers(out: Output, repo: Path) -> int:
    """`demo --resolvers-only DIR`: the kept repo's loopback resolvers, running until Ctrl-C."""
    if not (repo / "dns").is_dir() or not (repo / ".git").is_dir():
        raise ConfigError(f"{repo}: not a demo repo (no dns/ inventory or no .git); "
                          "make one with `renamer demo --keep DIR`")
    try:
        sandbox.dnsmasq_binary()
    except FileNotFoundError as exc:
        raise UnsafeError(f"cannot start the demo's resolvers: {exc}") from None
    folder = repo / LAB
    if folder.exists():
        raise UnsafeError(f"{folder}: the demo's resolvers already run from this folder (or a run "
                          f"was killed: `pkill -f {shlex.quote(str(folder))}`, then remove it)")
    with loopback_resolvers(repo, folder) as lab, \
            handled((signal.SIGTERM,), raise_interrupt):
        relative = LAB / "resolvers.yaml"
        out.echo(f"Started {lab.kinds} on 127.0.0.1 ports "
                 f"{', '.join(str(p) for p in lab.ports)}{_forwarders(lab)}, described in "
                 f"{lab.resolvers_file}.\n"
                 f"In {repo}, in another terminal:\n"
                 f"  renamer dns apply --resolvers all --resolvers-file {shlex.quote(str(relative))}\n"
                 f"  renamer dns verify --resolvers all --resolvers-file {shlex.quote(str(relative))}\n"
                 "Press Ctrl-C to stop them.\n")
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C (or SIGTERM) is how this ends
            signal.pause()
    out.echo(f"Stopped the {len(lab.ports) + len(lab.forwarders)} resolvers.\n")
    return 0
