"""Cases 82-94: `renamer dns` against real dnsmasq resolvers on loopback (and a real sshd)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess

from renamer.dns.dnsmasq import sandbox
from tests.adversarial.dnslab import (
    addresses,
    dns_cli,
    interrupt_in_test,
    lab,
    over_ssh,
    serving,
    site_inventory,
    sshd,
)
from tests.adversarial.harness import (
    Outcome,
    Scratch,
    bug,
    case,
    clear_error,
    decided,
    documented,
    doubtful,
    first_line,
    no_crash,
    ok,
    require,
    require_none,
    succeeded,
)
from tests.testing.resolvers import Lab, fails_once_written

OLD_GW, NEW_GW = "10.251.0.1", "10.251.0.2"


def _applied(s: Scratch, where: Lab) -> dict[str, bytes]:
    """Apply the shipped inventory everywhere; the snippets it left."""
    succeeded(dns_cli(s, where, "apply", "--resolvers", "all"), "dns apply")
    return where.snippets()


def _rows(output: str) -> dict[str, str]:
    """The result table's rows by resolver name."""
    return {line.split()[0]: line for line in output.splitlines() if line.startswith("ns-")}


def _gateway_everywhere(where: Lab, wanted: str) -> str:
    """'' when every resolver answers fv-gw.fv.lan with `wanted`, else who answers what."""
    answers = serving(where, "fv-gw.fv.lan")
    wrong = {name: got for name, got in answers.items() if got != [wanted]}
    return "" if not wrong else f"fv-gw.fv.lan: {wrong} (wanted {wanted})"


@case(82, "dns", "snippet removed")
def case_82(s: Scratch) -> Outcome:
    """site removed from inventory"""
    where = lab(s)
    _applied(s, where)
    (where.inventory / "sites" / "ana.yaml").unlink()
    fv_only: dict[str, dict[str, object]] = {
        name.replace("-", "_"): {"sites": ["fv"], "dhcp": ["fv"] if name == "ns-fv" else []}
        for name in where.instances}
    where.write_resolvers(**fv_only)
    plan = dns_cli(s, where, "plan", "--resolvers", "all")
    succeeded(plan, "dns plan")
    require("up to date" not in plan.stdout, "plan says 'up to date' with a site removed")
    succeeded(dns_cli(s, where, "apply", "--resolvers", "all"), "dns apply")
    left = sorted(key for key in where.snippets() if key.endswith("renamer-ana.conf"))
    require(not left, f"snippets left: {left}")
    served = {name: got for name, got in serving(where, "ana-nas.ana.lan").items() if "10.250.20.10" in got}
    require(not served, f"still served by {sorted(served)}")
    return ok("plan shows the removal; apply removes renamer-ana.conf everywhere; ana-nas no longer served")


@case(83, "dns", "rolled back")
def case_83(s: Scratch) -> Outcome:
    """Ctrl-C mid-apply"""
    where = lab(s)
    before = _applied(s, where)
    code, out = interrupt_in_test(s, where, signal.SIGINT)
    require(code == 130, f"exit {code}: {first_line(out)}")
    rows = _rows(out)
    not_back = [name for name in where.instances if "rolled back" not in rows.get(name, "")]
    require(not not_back, f"not rolled back: {not_back}")
    require(where.snippets() == before, "snippets differ from before the apply")
    wrong = _gateway_everywhere(where, OLD_GW)
    require(not wrong, wrong)
    return ok("exit 130, every resolver rolled back and serving the old records")


def _killed_midway(s: Scratch) -> tuple[Lab, dict[str, bytes]]:
    where = lab(s)
    before = _applied(s, where)
    interrupt_in_test(s, where, signal.SIGKILL)
    require(where.snippets() != before, "the kill landed before anything was written")
    return where, before


@case(84, "dns", "recovers")
def case_84(s: Scratch) -> Outcome:
    """kill between write and reload, rerun"""
    where, _ = _killed_midway(s)
    refused = dns_cli(s, where, "apply", "--resolvers", "all")
    clear_error(refused, 3)
    require("--resume" in refused.stderr, f"no way out named: {first_line(refused.stderr)}")
    resumed = dns_cli(s, where, "apply", "--resolvers", "all", "--resume")
    succeeded(resumed, "dns apply --resume")
    succeeded(dns_cli(s, where, "verify", "--resolvers", "all"), "dns verify after --resume")
    wrong = _gateway_everywhere(where, NEW_GW)
    require(not wrong, wrong)
    return ok("the next apply refuses naming --resume/--rollback; --resume restores and applies; verify OK")


@case(85, "dns", "all old")
def case_85(s: Scratch) -> Outcome:
    """interrupted apply, then a failing run"""
    where, before = _killed_midway(s)
    plain = dns_cli(s, where, "apply", "--resolvers", "all")
    clear_error(plain, 3)
    require("rolled back" not in plain.output, "a refused run claims a rollback")
    where.write_resolvers(ns_fv={"test": fails_once_written(where, "ns-fv")})
    failed = dns_cli(s, where, "apply", "--resolvers", "all", "--resume")
    no_crash(failed)
    require(failed.exit_code == 1, f"the failing --resume: {failed.brief()}")
    require(where.snippets() == before, "snippets differ from before the interrupted apply")
    wrong = _gateway_everywhere(where, OLD_GW)
    require(not wrong, wrong)
    return ok("a plain apply refuses (exit 3); a failing --resume rolls every resolver back to the "
              "old records")


HAND_LINE = "address=/hand.example/1.2.3.4\n"


@case(86, "dns", "warned")
def case_86(s: Scratch) -> Outcome:
    """hand-edited snippet (drift)"""
    where = lab(s)
    _applied(s, where)
    snippet = where.instances["ns-fv"].snippet_dir / "renamer-fv.conf"
    snippet.write_text(snippet.read_text() + HAND_LINE)
    plan = dns_cli(s, where, "plan", "--resolvers", "ns-fv")
    succeeded(plan, "dns plan")
    applied = dns_cli(s, where, "apply", "--resolvers", "ns-fv")
    succeeded(applied, "dns apply")
    counted = [line.strip() for line in plan.stdout.splitlines() if line.startswith("records:")]
    warned = any(word in (plan.output + applied.output).lower() for word in ("drift", "hand-", "edited"))
    if warned or (counted and "0 removed" not in counted[0]):
        return ok(f"plan: {counted[0] if counted else '(no count)'}; the edit is named before it is replaced")
    backups = (where.root / "backups/ns-fv").rglob("renamer-fv.conf")
    kept = HAND_LINE in "".join(p.read_text() for p in backups)
    return bug(f"plan shows the line in its diff but says '{counted[0] if counted else '?'}'; apply replaced "
               f"it with no warning (backup {'kept' if kept else 'missing'})")


SIX = {"site": "six", "domain": "six.lan", "network": "fd00:251::/64",
       "hosts": [{"name": "box6", "address": "fd00:251::54", "mac": "3c:ec:ef:12:34:57"}]}


@case(87, "dns", "`[addr]`")
def case_87(s: Scratch) -> Outcome:
    """IPv6 host + MAC"""
    inventory = site_inventory(s.root / "dns", SIX, "six.yaml")
    render = s.cli(s.root, "dns", "render", "--site", "six", "--resolver", "ns",
                   "--inventory", str(inventory))
    succeeded(render, "dns render")
    lines = [line for line in render.stdout.splitlines() if line.startswith("dhcp-host=")]
    require(lines == ["dhcp-host=3c:ec:ef:12:34:57,[fd00:251::54],box6"], f"rendered {lines}")
    conf = s.root / "six.conf"
    conf.write_text(render.stdout)
    checked = subprocess.run([sandbox.dnsmasq_binary(), "--test", f"--conf-file={conf}"], capture_output=True,
                             text=True, check=False)
    require(checked.returncode == 0, f"dnsmasq --test: {first_line(checked.stderr)}")
    return ok(f"{lines[0]}; dnsmasq --test accepts it")


@case(88, "dns", "refused")
def case_88(s: Scratch) -> Outcome:
    """newline in site file name"""
    evil = {"site": "evil", "domain": "evil.lan", "network": "10.9.0.0/16",
            "hosts": [{"name": "ok", "address": "10.9.0.5"}]}
    inventory = site_inventory(s.root / "dns", evil, "x\nhost-record=bank.example,6.6.6.6\n#.yaml")
    result = s.cli(s.root, "dns", "render", "--inventory", str(inventory))
    clear_error(result, 2)
    require(result.stdout == "", "rendered a snippet")
    require(len(result.stderr.splitlines()) == 1, "the error spans several lines")
    return ok(first_line(result.stderr)[:140])


@doubtful(89, "dns", "refused?")
def case_89(s: Scratch) -> Outcome:
    """FQDN > 253 chars"""
    domain = ".".join(c * 63 for c in "abc") + ".lan"
    site = {"site": "long", "domain": domain, "network": "10.9.0.0/16",
            "hosts": [{"name": "h" * 63, "address": "10.9.0.5"}]}
    inventory = site_inventory(s.root / "dns", site, "long.yaml")
    render = s.cli(s.root, "dns", "render", "--inventory", str(inventory))
    no_crash(render)
    length = 63 + 1 + len(domain)
    said = "rendered" if render.exit_code == 0 else f"refused: {first_line(render.stderr)[:80]}"
    return decided(f"a {length}-character FQDN is {said}; the 253 limit is {documented('253 characters')}")


@case(90, "dns", "fails safely")
def case_90(s: Scratch) -> Outcome:
    """`test` as one shell string"""
    where = lab(s)
    where.write_resolvers(ns_fv={"test": ["dnsmasq --test"]})
    result = dns_cli(s, where, "apply", "--resolvers", "all")
    no_crash(result)
    require(result.exit_code == 1, f"apply: {result.brief()}")
    require(where.snippets() == {}, f"snippets left: {sorted(where.snippets())}")
    rows = _rows(result.stdout)
    changed = [name for name, line in rows.items() if "applied" in line]
    require(not changed, f"left applied: {changed}")
    return ok("the test cannot run, apply fails and every resolver is rolled back")


@case(91, "dns", "sane")
def case_91(s: Scratch) -> Outcome:
    """snippet/backup permissions, umask 077"""
    where = lab(s)
    previous = os.umask(0o077)
    try:
        result = dns_cli(s, where, "apply", "--resolvers", "all")
    finally:
        os.umask(previous)
    succeeded(result, "dns apply")
    snippets = [p for i in where.instances.values() for p in i.snippet_dir.iterdir()]
    modes = {stat.S_IMODE(p.stat().st_mode) for p in snippets}
    require(modes == {0o644}, f"snippet modes {sorted(oct(m) for m in modes)}")
    folders = [where.root / "backups", *(p for p in (where.root / "backups").rglob("*") if p.is_dir())]
    open_ = [f"{p.name} {stat.S_IMODE(p.stat().st_mode):o}" for p in folders
             if stat.S_IMODE(p.stat().st_mode) & 0o077]
    require_none(open_, "backup folders open to others under umask 077")
    return ok("snippets 0644 (dnsmasq reads them); backup folders 0700, as the umask asks")


@doubtful(92, "dns", "works")
def case_92(s: Scratch) -> Outcome:
    """long TMPDIR with ssh target"""
    where, server = lab(s), sshd(s)
    where.write_resolvers(ns_fv=over_ssh(server))
    tmpdir = s.folder("t" * 100)
    result = s.process(where.root, "dns", "plan", "--resolvers", "ns-fv", "--inventory", str(where.inventory),
                       env={"TMPDIR": str(tmpdir)})
    no_crash(result)
    lines = len(result.stderr.splitlines())
    said = "works" if result.exit_code == 0 else f"fails: {first_line(result.stderr)[:110]}"
    return decided(f"TMPDIR of {len(str(tmpdir))} characters: dns plan over ssh {said} "
                   f"({lines} line(s) on stderr); the ControlPath limit is {documented('ControlPath')}")


@doubtful(93, "dns", "checked")
def case_93(s: Scratch) -> Outcome:
    """retired name on a resolver not serving its site"""
    where = lab(s)
    where.write_resolvers(ns_fv={"sites": ["fv"], "dhcp": ["fv"]})
    succeeded(dns_cli(s, where, "apply", "--resolvers", "ns-fv"), "dns apply")
    instance = where.instances["ns-fv"]
    (instance.snippet_dir / "legacy.conf").write_text("host-record=ana-ml2.ana.lan,ana-ml2,10.250.50.54\n")
    sandbox.restart(instance.folder)
    require(addresses(where, "ns-fv", "ana-ml2.ana.lan") == ["10.250.50.54"],
            "the legacy record is not served")
    verify = dns_cli(s, where, "verify", "--resolvers", "ns-fv")
    no_crash(verify)
    checked = "ana-ml2" in verify.stdout
    return decided(f"ns-fv (sites: [fv]) answers ana-ml2.ana.lan; dns verify exit {verify.exit_code}, "
                   f"the retired name {'is' if checked else 'is not'} checked there; 'must no longer "
                   "resolve anywhere' is "
                   f"{documented('they must no longer resolve anywhere')}")


@case(94, "dns", "works")
def case_94(s: Scratch) -> Outcome:
    """ssh apply"""
    where, server = lab(s), sshd(s)
    where.write_resolvers(ns_fv=over_ssh(server))
    applied = dns_cli(s, where, "apply", "--resolvers", "ns-fv")
    succeeded(applied, "dns apply over ssh")
    require("applied" in _rows(applied.stdout).get("ns-fv", ""), f"ns-fv: {_rows(applied.stdout)}")
    succeeded(dns_cli(s, where, "verify", "--resolvers", "ns-fv"), "dns verify")
    require(addresses(where, "ns-fv", "fv-ml1.fv.lan") == ["10.251.50.54"], "the new record is not served")
    return ok("applied over ssh, ns-fv serves the new records, dns verify OK")

