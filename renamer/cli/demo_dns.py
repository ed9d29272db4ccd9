"""The DNS half of the demo: three real dnsmasq resolvers on loopback, where dnsmasq exists."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from renamer.cli.tour import Tour
from renamer.dns import sandbox
from renamer.dns.inventory import load_inventory


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
    lab = Path(tempfile.mkdtemp(prefix="renamer-demo-dns-"))
    inventory = load_inventory(repo / "dns", str)
    instances = {r.name: sandbox.create(lab / r.name) for r in inventory.resolvers}
    dhcp: dict[str, dict[str, object]] = {r.name: {"dhcp": list(r.dhcp)} for r in inventory.resolvers}
    shipped = (repo / "dns" / "resolvers.yaml").read_bytes()
    (repo / "dns" / "resolvers.yaml").write_text(
        "# The demo's resolvers: the inventory's three, as real dnsmasq on loopback ports.\n"
        + sandbox.resolvers_yaml(instances, lab / "backups", dhcp))
    try:
        for instance in instances.values():
            sandbox.start(instance.folder)
        out.echo(f"\nStarted {len(instances)} dnsmasq resolvers on 127.0.0.1 ports "
                 f"{', '.join(str(i.port) for i in instances.values())}.\n")
        steps = [
            ("dns plan --resolvers all", "Per resolver: the snippet diff and the records added.",
             ["dns", "plan", "--resolvers", "all"]),
            ("dns apply --resolvers all", "Resolver by resolver: backup, atomic write, "
             "`dnsmasq --test` on the conf-dir it loads, restart (not SIGHUP: dnsmasq re-reads "
             "host-record only on a restart), verify. Any failure rolls every resolver back.",
             ["dns", "apply", "--resolvers", "all"]),
            ("dns verify --resolvers all", "Ask each resolver directly: every host, PTR and "
             "alias answers, and the retired ana-ml2 names get NXDOMAIN.",
             ["dns", "verify", "--resolvers", "all"]),
            ("dns apply --resolvers all, again", "Nothing changed: no resolver is touched.",
             ["dns", "apply", "--resolvers", "all"]),
        ]
        for offset, (title, why, args) in enumerate(steps, 1):
            step(first_step + offset, title, why)
            if run(*args) != 0:
                return 1
    finally:
        for instance in instances.values():
            sandbox.stop(instance.folder)
        shutil.rmtree(lab, ignore_errors=True)
        # The loopback resolvers are gone: a kept repo gets its inventory back as shipped.
        (repo / "dns" / "resolvers.yaml").write_bytes(shipped)
    out.echo("\nStopped the resolvers. Done: the repo and DNS both follow the move.\n")
    return 0
