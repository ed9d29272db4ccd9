"""Plan, apply and rollback with in-memory transports and a fake dnsmasq (real dnsmasq: test_cli_dns.py)."""

from __future__ import annotations

import dataclasses
import ipaddress
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from renamer.dns import rollout
from renamer.dns.answers import Answer, NoAnswer
from renamer.dns.dnsmasq.render import canary_of, host_records, render_resolver
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.load import load_inventory
from renamer.dns.plan import ResolverPlan, plan_resolvers
from renamer.dns.rollout import Outcome, OutcomeStatus, Rollout
from renamer.dns.transport import CommandResult, OwnFiles, TransportError

STAMP = "20240501T120000.000000Z"
SNIPPETS = "/etc/dnsmasq.d"
BACKUPS = "/var/backups/renamer"
PENDING = f"{BACKUPS}/renamer-apply-pending"
TEST_BROKE = CommandResult(1, "dnsmasq: syntax check\ndnsmasq: bad option at line 3\n")

ANA = """\
site: ana
domain: ana.lan
network: 10.250.0.0/16
hosts:
  - name: ana-nas
    address: 10.250.20.10
  - name: ana-gw
    address: 10.250.0.1
retired: [ana-ml2]
"""

FV = """\
site: fv
domain: fv.lan
network: 10.251.0.0/16
hosts:
  - name: fv-ml1
    address: 10.251.50.54
    mac: 3c:ec:ef:12:34:56
    aliases: [scriberr]
  - name: fv-gw
    address: {gw}
"""

RESOLVERS = f"""\
resolvers:
  - name: ns-ana
    address: 10.250.0.53
    target: ssh://root@ns-ana   # two machines (in-memory transports here): each its own backup_dir
    snippet_dir: {SNIPPETS}
    backup_dir: {BACKUPS}
    test: [dnsmasq, --test]
    reload: [systemctl, restart, dnsmasq]
    check_layout: false   # layouts have their own tests (test_layout.py); here: the rollout alone
    dhcp: [ana]
  - name: ns-fv
    address: 10.251.0.53
    target: ssh://root@ns-fv
    snippet_dir: {SNIPPETS}
    backup_dir: {BACKUPS}
    test: [dnsmasq, --test]
    reload: [systemctl, restart, dnsmasq]
    check_layout: false   # layouts have their own tests (test_layout.py); here: the rollout alone
    sites: [fv]
"""


def load(folder: Path, gw: str) -> Inventory:
    (folder / "sites").mkdir(parents=True, exist_ok=True)
    (folder / "sites" / "ana.yaml").write_text(ANA)
    (folder / "sites" / "fv.yaml").write_text(FV.format(gw=gw))
    (folder / "resolvers.yaml").write_text(RESOLVERS)
    return load_inventory(folder, str)


@pytest.fixture
def old(tmp_path: Path) -> Inventory:
    return load(tmp_path / "dns", gw="10.251.0.1")


@pytest.fixture
def new(tmp_path: Path, old: Inventory) -> Inventory:
    return load(tmp_path / "dns", gw="10.251.0.2")


def deployed(inventory: Inventory, resolver: str, *skip: str) -> dict[str, bytes]:
    chosen = inventory.select(resolver)[0]
    return {f"{SNIPPETS}/{name}": text.encode() for name, text in render_resolver(inventory, chosen).items()
            if name not in skip}


@dataclass
class FakeTransport:
    """Files in a dict; every operation journaled; `systemctl` makes the fake dnsmasq serve the files."""

    name: str
    journal: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    results: dict[str, list[CommandResult]] = field(default_factory=dict)
    refuse: dict[str, list[str]] = field(default_factory=dict)
    before_run: Callable[[FakeTransport, tuple[str, ...]], None] | None = None
    sudo_error: str | None = None
    reload_takes_effect: bool = True
    served: dict[str, bytes] = field(init=False)

    def __post_init__(self) -> None:
        self.served = self.snippets()

    def snippets(self) -> dict[str, bytes]:
        return {path: data for path, data in self.files.items() if path.startswith(f"{SNIPPETS}/")}

    def list_snippets(self, folder: str, files: OwnFiles) -> list[str]:
        return sorted(path.rsplit("/", 1)[1] for path in self.files
                      if path.rsplit("/", 1)[0] == folder and files.pattern.fullmatch(path.rsplit("/", 1)[1]))

    def remove_leftovers(self, folder: str, files: OwnFiles) -> None:
        for path in [p for p in self.files if p.rsplit("/", 1)[0] == folder
                     and files.leftover.fullmatch(p.rsplit("/", 1)[1])]:
            del self.files[path]

    def read(self, path: str) -> bytes | None:
        self.journal.append(f"{self.name} read {path}")
        return self.files.get(path)

    def write(self, path: str, data: bytes) -> None:
        if self.refuse.get(path):
            raise TransportError(f"{self.name}: {path}: cannot write: {self.refuse[path].pop(0)}")
        self.journal.append(f"{self.name} write {path}")
        self.files[path] = data

    def remove(self, path: str) -> None:
        self.journal.append(f"{self.name} remove {path}")
        self.files.pop(path, None)

    def run(self, argv: Sequence[str]) -> CommandResult:
        words = tuple(argv)
        self.journal.append(f"{self.name} run {' '.join(words)}")
        if self.before_run is not None:
            self.before_run(self, words)
        queued = self.results.get(words[0])
        result = queued.pop(0) if queued else CommandResult(0, "")
        if result.ok and words[0] == "systemctl" and self.reload_takes_effect:
            self.served = self.snippets()
        return result

    def check_sudo(self) -> None:
        if self.sudo_error:
            raise TransportError(self.sudo_error)

    def close(self) -> None:
        return None


@dataclass
class FakeDns:
    """Answers like dnsmasq from the snippets its transport last reloaded; `answers` overrides."""

    transport: FakeTransport
    answers: dict[tuple[str, str], Answer | NoAnswer] = field(default_factory=dict)
    down: bool = False
    asked: list[tuple[str, str]] = field(default_factory=list)

    def __call__(self, name: str, rdtype: str) -> Answer:
        self.asked.append((name, rdtype))
        if self.down:
            raise NoAnswer(name)
        override = self.answers.get((name, rdtype))
        if isinstance(override, NoAnswer):
            raise override
        if override is not None:
            return override
        addresses: dict[str, str] = {}
        pointers: dict[str, str] = {}
        cnames: dict[str, str] = {}
        texts: dict[str, str] = {}
        for data in self.transport.served.values():
            text = data.decode("utf-8", "replace")
            found = canary_of(text)
            if found is not None:
                texts[found[0]] = f'"{found[1]}"'

            for names, address in host_records(text):
                addresses.update(dict.fromkeys(names, address))
                pointers[ipaddress.ip_address(address).reverse_pointer] = names[0]
            for line in text.splitlines():
                if line.startswith("cname="):
                    *aliases, target = line.removeprefix("cname=").split(",")
                    cnames.update(dict.fromkeys(aliases, target))
        key = name.rstrip(".")
        if rdtype == "TXT":
            return Answer("NOERROR", (("TXT", texts[key]),)) if key in texts else Answer("NXDOMAIN")
        if rdtype == "PTR":
            return Answer("NOERROR", (("PTR", f"{pointers[key]}."),)) if key in pointers else Answer("NXDOMAIN")
        chain: tuple[tuple[str, str], ...] = ()
        if key in cnames:
            chain, key = (("CNAME", f"{cnames[key]}."),), cnames[key]
        if key not in addresses:
            return Answer("NXDOMAIN")
        kind = "A" if ipaddress.ip_address(addresses[key]).version == 4 else "AAAA"
        return Answer("NOERROR", chain + (((kind, addresses[key]),) if kind == rdtype else ()))


@dataclass
class Fleet:
    journal: list[str]
    transports: dict[str, FakeTransport]
    dns: dict[str, FakeDns]

    def plan(self, inventory: Inventory, *names: str) -> list[ResolverPlan]:
        chosen = inventory.select(",".join(names) or "all")
        return plan_resolvers(inventory, chosen, dict(self.transports))

    def rollout(self, inventory: Inventory, verify: bool = True) -> Rollout:
        return Rollout(inventory, dict(self.transports), lambda r: self.dns[r.name], verify=verify,
                       stamp=STAMP)

    def apply(self, inventory: Inventory, *names: str,
              progress: Callable[[str], None] | None = None) -> list[Outcome]:
        plans = self.plan(inventory, *names)
        self.journal.clear()
        return self.rollout(inventory).apply(plans, progress)


def fleet(**files: dict[str, bytes]) -> Fleet:
    journal: list[str] = []
    transports = {name.replace("_", "-"): FakeTransport(name.replace("_", "-"), journal, dict(content))
                  for name, content in files.items()}
    return Fleet(journal, transports, {name: FakeDns(t) for name, t in transports.items()})


def statuses(outcomes: Sequence[Outcome]) -> list[OutcomeStatus]:
    return [o.status for o in outcomes]


def backup(resolver: str, name: str) -> str:
    return f"{BACKUPS}/{resolver}-{STAMP}/{name}"


def test_plan_reads_each_snippet_and_writes_nothing(old: Inventory, new: Inventory) -> None:
    lab = fleet(ns_ana=deployed(old, "ns-ana"), ns_fv={})
    ana, fv = lab.plan(new)
    assert ana.current == {name: old_text.encode() for name, old_text in render_resolver(old, ana.resolver).items()}
    assert fv.current == {"renamer-fv.conf": None}
    assert (ana.changed, fv.changed) == (["renamer-fv.conf"], ["renamer-fv.conf"])
    assert lab.journal == [f"ns-ana run test -d {SNIPPETS}",  # a missing snippet_dir is never created
                           f"ns-ana read {SNIPPETS}/renamer-ana.conf", f"ns-ana read {SNIPPETS}/renamer-fv.conf",
                           f"ns-ana read {PENDING}", f"ns-fv run test -d {SNIPPETS}",
                           f"ns-fv read {SNIPPETS}/renamer-fv.conf", f"ns-fv read {PENDING}"]


def test_a_missing_sudo_right_fails_planning_before_anything_is_read(old: Inventory, new: Inventory) -> None:
    lab = fleet(ns_ana=deployed(old, "ns-ana"), ns_fv=deployed(old, "ns-fv"))
    lab.transports["ns-fv"].sudo_error = "ns-fv: sudo -n is not allowed: a password is required"
    with pytest.raises(TransportError, match=r"\Ans-fv: sudo -n is not allowed: a password is required\Z"):
        lab.plan(new)
    assert lab.journal == []


@pytest.mark.parametrize("current, changed", [
    pytest.param(b"x=1\n", [], id="identical"),
    pytest.param(b"x=2\n", ["renamer-a.conf"], id="different"),
    pytest.param(b"x=1", ["renamer-a.conf"], id="missing-newline"),
    pytest.param(b"", ["renamer-a.conf"], id="empty"),
    pytest.param(None, ["renamer-a.conf"], id="absent"),
])
def test_changed(new: Inventory, current: bytes | None, changed: list[str]) -> None:
    plan = ResolverPlan(new.resolvers[0], {"renamer-a.conf": "x=1\n"}, {"renamer-a.conf": current})
    assert plan.changed == changed


def test_diff_shows_changed_and_new_snippets_only(new: Inventory) -> None:
    plan = ResolverPlan(new.resolvers[0],
                        {"renamer-a.conf": "x=1\ny=2\n", "renamer-b.conf": "z=3\n", "renamer-c.conf": "same\n"},
                        {"renamer-a.conf": b"x=1\ny=1\n", "renamer-b.conf": None, "renamer-c.conf": b"same\n"})
    assert plan.diff() == (
        "--- a/etc/dnsmasq.d/renamer-a.conf\n+++ b/etc/dnsmasq.d/renamer-a.conf\n@@ -1,2 +1,2 @@\n x=1\n-y=1\n+y=2\n"
        "--- /dev/null\n+++ b/etc/dnsmasq.d/renamer-b.conf\n@@ -0,0 +1 @@\n+z=3\n")
    unchanged = ResolverPlan(new.resolvers[0], {"renamer-c.conf": "same\n"}, {"renamer-c.conf": b"same\n"})
    assert unchanged.diff() == ""


@pytest.mark.parametrize("current, desired, expected", [
    pytest.param({"a.conf": b"host-record=gw,gw.fv.lan,10.0.0.1\n"}, {"a.conf": "host-record=gw,gw.fv.lan,10.0.0.1\n"},
                 ([], [], []), id="same"),
    pytest.param({"a.conf": None}, {"a.conf": "host-record=gw,gw.fv.lan,10.0.0.1\ncname=www,gw\n"},
                 (["gw", "gw.fv.lan", "www"], [], []), id="new-snippet"),
    pytest.param({"a.conf": b"host-record=gw,gw.fv.lan,10.0.0.1\nhost-record=old,10.0.0.9\n"},
                 {"a.conf": "host-record=gw,gw.fv.lan,10.0.0.2\nhost-record=box,10.0.0.7\n"},
                 (["box"], ["gw", "gw.fv.lan"], ["old"]), id="added-changed-removed"),
    pytest.param({"a.conf": b"dhcp-host=3c:ec:ef:12:34:56,10.0.0.5,ml1\ncname=www,gw\n"},
                 {"a.conf": "dhcp-host=3c:ec:ef:12:34:57,10.0.0.5,ml1\ncname=www,box\n"},
                 ([], ["dhcp:ml1", "www"], []), id="dhcp-and-cname-retargeted"),
    pytest.param({"a.conf": b"host-record=gw,10.0.0.1\n", "b.conf": None},
                 {"a.conf": "# moved to b.conf\n", "b.conf": "host-record=gw,10.0.0.1\n"},
                 ([], [], []), id="moved-between-snippets"),
])
def test_record_changes(new: Inventory, current: dict[str, bytes | None], desired: dict[str, str],
                        expected: tuple[list[str], list[str], list[str]]) -> None:
    assert ResolverPlan(new.resolvers[0], desired, current).record_changes() == expected


def test_an_unchanged_resolver_is_not_touched(new: Inventory) -> None:
    lab = fleet(ns_ana=deployed(new, "ns-ana"), ns_fv=deployed(new, "ns-fv"))
    outcomes = lab.apply(new)
    assert statuses(outcomes) == ["unchanged", "unchanged"]
    assert [o.steps for o in outcomes] == [["snippets identical: not touched", "verify ok (30 checks)"],
                                           ["snippets identical: not touched", "verify ok (19 checks)"]]
    assert all(o.ok and o.backup is None for o in outcomes)
    assert lab.journal == []


def test_a_changed_resolver_is_backed_up_written_tested_reloaded_and_verified(old: Inventory,
                                                                               new: Inventory) -> None:
    lab = fleet(ns_ana=deployed(old, "ns-ana", "renamer-ana.conf"), ns_fv=deployed(new, "ns-fv"))
    ana, fv = lab.apply(new)
    folder = f"{BACKUPS}/ns-ana-{STAMP}"
    assert lab.journal == [
        f"ns-ana read {BACKUPS}/renamer-apply-last",  # its sequence, before the first write (dns/applies.py)
        f"ns-ana write {folder}/renamer-fv.conf",
        f"ns-ana write {folder}/ABSENT",
        f"ns-ana write {PENDING}",
        f"ns-ana write {SNIPPETS}/renamer-ana.conf",
        f"ns-ana write {SNIPPETS}/renamer-fv.conf",
        "ns-ana run dnsmasq --test",
        "ns-ana run systemctl restart dnsmasq",
        f"ns-ana write {BACKUPS}/renamer-apply-last",  # the apply ended here (dns/applies.py)
        f"ns-ana remove {PENDING}",
    ]
    files = lab.transports["ns-ana"].files
    assert files[f"{folder}/renamer-fv.conf"] == deployed(old, "ns-ana")[f"{SNIPPETS}/renamer-fv.conf"]
    assert files[f"{folder}/ABSENT"] == b"renamer-ana.conf\n"
    assert lab.transports["ns-ana"].snippets() == deployed(new, "ns-ana")
    assert (ana.status, ana.error, ana.backup) == ("applied", None, folder)
    assert ana.steps == [f"backup {folder}", "wrote renamer-ana.conf, renamer-fv.conf", "test ok", "reload ok",
                         "verify ok (30 checks)"]
    assert ana.report is not None and ana.report.ok
    assert (fv.status, fv.ok) == ("unchanged", True)


def test_without_verify_no_query_is_sent(old: Inventory, new: Inventory) -> None:
    lab = fleet(ns_ana=deployed(new, "ns-ana"), ns_fv=deployed(old, "ns-fv"))
    plans = lab.plan(new)

    def no_querier(resolver: Resolver) -> FakeDns:
        raise AssertionError(f"queried {resolver.name}")

    outcomes = Rollout(new, dict(lab.transports), no_querier, verify=False, stamp=STAMP).apply(plans)
    assert statuses(outcomes) == ["unchanged", "applied"]
    assert outcomes[0].steps == ["snippets identical: not touched"]
    assert outcomes[1].steps[-2:] == ["test ok", "reload ok"]
    assert outcomes[1].report is None


def test_a_failing_test_rolls_every_changed_resolver_back_byte_for_byte(old: Inventory, new: Inventory) -> None:
    hand_edited = deployed(old, "ns-ana")
    hand_edited[f"{SNIPPETS}/renamer-fv.conf"] += b"# tweaked by hand \xe9\r\n"
    lab = fleet(ns_ana=hand_edited, ns_fv=deployed(old, "ns-fv"))
    lab.transports["ns-fv"].results["dnsmasq"] = [TEST_BROKE]
    ana, fv = lab.apply(new)
    assert statuses([ana, fv]) == ["rolled back", "rolled back"]
    assert fv.error == "test failed (dnsmasq --test): dnsmasq: bad option at line 3"
    assert ana.error is None and not ana.ok and not fv.ok
    assert lab.transports["ns-ana"].snippets() == hand_edited
    assert lab.transports["ns-fv"].snippets() == deployed(old, "ns-fv")
    assert lab.journal[3:] == [
        f"ns-ana write {PENDING}",
        f"ns-ana write {SNIPPETS}/renamer-fv.conf",
        "ns-ana run dnsmasq --test",
        "ns-ana run systemctl restart dnsmasq",
        f"ns-fv read {BACKUPS}/renamer-apply-last",
        f"ns-fv write {backup('ns-fv', 'renamer-fv.conf')}",
        f"ns-fv write {backup('ns-fv', 'ABSENT')}",
        f"ns-fv write {PENDING}",
        f"ns-fv write {SNIPPETS}/renamer-fv.conf",
        "ns-fv run dnsmasq --test",
        f"ns-fv read {backup('ns-fv', 'renamer-fv.conf')}",
        f"ns-fv write {SNIPPETS}/renamer-fv.conf",
        f"ns-fv write {BACKUPS}/renamer-apply-last",  # the apply ended here (dns/applies.py)
        f"ns-fv remove {PENDING}",
        f"ns-ana read {backup('ns-ana', 'renamer-fv.conf')}",
        f"ns-ana write {SNIPPETS}/renamer-fv.conf",
        "ns-ana run systemctl restart dnsmasq",
        f"ns-ana write {BACKUPS}/renamer-apply-last",  # the apply ended here (dns/applies.py)
        f"ns-ana remove {PENDING}",
    ]
    assert lab.journal.count("ns-ana run systemctl restart dnsmasq") == 2
    assert ana.steps[-2:] == ["verify ok (30 checks)", "restored, reloaded, old records served"]
    assert fv.steps == [f"backup {BACKUPS}/ns-fv-{STAMP}", "wrote renamer-fv.conf", "test FAILED",
                        "restored, not restarted (it never was), old records served"]
    assert lab.dns["ns-ana"].asked[-4:] == [("renamer-probe.invalid.", "A"), ("_renamer.fv.fv.lan.", "TXT"),
                                            ("fv-ml1.fv.lan.", "A"), ("fv-gw.fv.lan.", "A")]


def test_a_snippet_that_did_not_exist_is_removed_on_rollback(old: Inventory, new: Inventory) -> None:
    lab = fleet(ns_ana=deployed(old, "ns-ana", "renamer-ana.conf"), ns_fv=deployed(old, "ns-fv"))
    lab.transports["ns-fv"].results["systemctl"] = [CommandResult(1, "Job for dnsmasq.service failed.\n")]
    ana, fv = lab.apply(new)
    assert statuses([ana, fv]) == ["rolled back", "rolled back"]
    assert fv.error == "reload failed (systemctl restart dnsmasq): Job for dnsmasq.service failed."
    assert f"ns-ana remove {SNIPPETS}/renamer-ana.conf" in lab.journal
    assert lab.transports["ns-ana"].snippets() == deployed(old, "ns-ana", "renamer-ana.conf")


@pytest.mark.parametrize("refused, times, status, error, steps", [
    pytest.param(backup("ns-fv", "renamer-fv.conf"), 1, "failed", "", ["nothing to restore"], id="backup-refused"),
    pytest.param(f"{SNIPPETS}/renamer-fv.conf", 1, "rolled back", "",
                 [f"backup {BACKUPS}/ns-fv-{STAMP}", "restored, not restarted (it never was), old records served"],
                 id="snippet-refused-once"),
    pytest.param(f"{SNIPPETS}/renamer-fv.conf", 2, "rollback FAILED",
                 f"; ns-fv: {SNIPPETS}/renamer-fv.conf: cannot write: Permission denied",
                 [f"backup {BACKUPS}/ns-fv-{STAMP}"], id="snippet-refused-for-good"),
])
def test_a_refused_write_rolls_the_others_back(old: Inventory, new: Inventory, refused: str, times: int,
                                                status: OutcomeStatus, error: str, steps: list[str]) -> None:
    lab = fleet(ns_ana=deployed(old, "ns-ana"), ns_fv=deployed(old, "ns-fv"))
    lab.transports["ns-fv"].refuse[refused] = ["Permission denied"] * times
    ana, fv = lab.apply(new)
    assert statuses([ana, fv]) == ["rolled back", status]
    assert fv.error == f"ns-fv: {refused}: cannot write: Permission denied{error}"
    assert fv.steps == steps
    assert lab.transports["ns-fv"].snippets() == deployed(old, "ns-fv")
    assert lab.transports["ns-ana"].snippets() == deployed(old, "ns-ana")


@pytest.mark.parametrize("fail_on, progress, outcome", [
    pytest.param(None, ["ns-ana", "ns-fv"], ["applied", "applied"], id="all-applied"),
    pytest.param("ns-fv", ["ns-ana", "ns-fv"], ["rolled back", "rolled back"], id="second-fails"),
    pytest.param("ns-ana", ["ns-ana"], ["rolled back", "not reached"], id="first-fails"),
])
def test_progress_names_each_resolver_reached_in_order(old: Inventory, new: Inventory, fail_on: str | None,
                                                       progress: list[str], outcome: list[str]) -> None:
    lab = fleet(ns_ana=deployed(old, "ns-ana"), ns_fv=deployed(old, "ns-fv"))
    if fail_on:
        lab.transports[fail_on].results["dnsmasq"] = [TEST_BROKE]
    seen: list[str] = []
    outcomes = lab.apply(new, progress=seen.append)
    assert (seen, statuses(outcomes)) == (progress, outcome)
    assert [o.ok for o in outcomes] == [fail_on is None] * 2


def test_a_wrong_answer_after_reload_rolls_back(old: Inventory, new: Inventory) -> None:
    lab = fleet(ns_ana=deployed(old, "ns-ana"), ns_fv=deployed(old, "ns-fv"))
    lab.transports["ns-fv"].reload_takes_effect = False
    ana, fv = lab.apply(new)
    assert statuses([ana, fv]) == ["rolled back", "rolled back"]
    assert fv.error.startswith('verify failed: _renamer.fv.fv.lan TXT (canary): expected "')  # not this file
    assert fv.error.endswith(" (+3 more)")
    assert fv.report is not None
    assert [c.expectation.label for c in fv.report.failures()] == [
        "_renamer.fv.fv.lan TXT (canary)", "fv-gw A", "fv-gw.fv.lan A", "10.251.0.2 PTR"]
    assert fv.steps == [f"backup {BACKUPS}/ns-fv-{STAMP}", "wrote renamer-fv.conf", "test ok", "reload ok",
                        "verify FAILED", "restored, reloaded, old records served"]
    assert lab.transports["ns-fv"].snippets() == deployed(old, "ns-fv")


def test_a_resolver_down_after_reload_is_rolled_back_and_checked(old: Inventory, new: Inventory,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rollout, "restart_deadline", lambda resolver: 0.0)
    lab = fleet(ns_fv=deployed(old, "ns-fv"))
    dns = lab.dns["ns-fv"]

    def restart(transport: FakeTransport, argv: tuple[str, ...]) -> None:
        if argv[0] == "systemctl":
            dns.down = not dns.down

    lab.transports["ns-fv"].before_run = restart
    (fv,) = lab.apply(new, "ns-fv")
    assert fv.status == "rolled back"
    assert fv.error == "verify failed: 10.251.0.53:53: no answer within 0 s"
    assert fv.steps[-2:] == ["verify FAILED", "restored, reloaded, old records served"]
    assert dns.asked[-4:] == [("renamer-probe.invalid.", "A"), ("_renamer.fv.fv.lan.", "TXT"),
                              ("fv-ml1.fv.lan.", "A"), ("fv-gw.fv.lan.", "A")]


def test_an_unchanged_resolver_failing_verify_rolls_the_others_back(old: Inventory, new: Inventory) -> None:
    lab = fleet(ns_ana=deployed(old, "ns-ana"), ns_fv=deployed(new, "ns-fv"))
    lab.dns["ns-fv"].answers[("scriberr.", "A")] = Answer("NXDOMAIN")
    ana, fv = lab.apply(new)
    assert statuses([ana, fv]) == ["rolled back", "failed"]
    assert fv.error == "verify failed: scriberr CNAME: expected fv-ml1.fv.lan. -> 10.251.50.54, got NXDOMAIN"
    assert fv.steps == ["snippets identical: not touched", "verify FAILED"]
    assert not any(entry.startswith("ns-fv ") for entry in lab.journal)
    assert lab.transports["ns-ana"].snippets() == deployed(old, "ns-ana")


def test_an_altered_backup_is_never_restored(old: Inventory, new: Inventory) -> None:
    lab = fleet(ns_fv=deployed(old, "ns-fv"))
    lab.transports["ns-fv"].results["dnsmasq"] = [TEST_BROKE]

    def alter(transport: FakeTransport, argv: tuple[str, ...]) -> None:
        if argv[0] == "dnsmasq":
            transport.files[backup("ns-fv", "renamer-fv.conf")] += b"address=/#/10.6.6.6\n"

    lab.transports["ns-fv"].before_run = alter
    (fv,) = lab.apply(new, "ns-fv")
    assert fv.status == "rollback FAILED" and not fv.ok
    assert fv.error == ("test failed (dnsmasq --test): dnsmasq: bad option at line 3; backup of renamer-fv.conf "
                        f"in {BACKUPS}/ns-fv-{STAMP} is missing or altered")
    assert lab.transports["ns-fv"].snippets() == deployed(new, "ns-fv")
    # the altered backup read, then the live file: written over, so there is something to restore
    assert lab.journal[-2:] == [f"ns-fv read {backup('ns-fv', 'renamer-fv.conf')}",
                                "ns-fv read /etc/dnsmasq.d/renamer-fv.conf"]


def _delete_backup(transport: FakeTransport, dns: FakeDns) -> None:
    del transport.files[backup("ns-fv", "renamer-fv.conf")]


def _reload_fails(transport: FakeTransport, dns: FakeDns) -> None:
    transport.results["systemctl"] = [CommandResult(3, "Job for dnsmasq.service failed.\n")]


def _goes_down(transport: FakeTransport, dns: FakeDns) -> None:
    dns.down = True


def _answers(name: str, answer: Answer | NoAnswer) -> Callable[[FakeTransport, FakeDns], None]:
    def change(transport: FakeTransport, dns: FakeDns) -> None:
        dns.answers[(name, "A")] = answer

    return change


@pytest.mark.parametrize("mishap, error, last_step", [
    pytest.param(_delete_backup, f"backup of renamer-fv.conf in {BACKUPS}/ns-fv-{STAMP} is missing or altered",
                 "test FAILED", id="backup-deleted"),
    pytest.param(_goes_down, "10.251.0.53:53 does not answer after the rollback",
                 "restored, not restarted (it never was), NOT answering", id="not-answering"),
    pytest.param(_answers("fv-gw.fv.lan.", Answer("NOERROR", (("A", "10.251.0.2"),))),
                 "after the rollback: fv-gw.fv.lan A: expected 10.251.0.1, got 10.251.0.2",
                 "restored, not restarted (it never was), answering, old records NOT served", id="new-records-still-served"),
    pytest.param(_answers("fv-ml1.fv.lan.", Answer("REFUSED")),
                 "after the rollback: fv-ml1.fv.lan A: expected 10.251.50.54, got REFUSED",
                 "restored, not restarted (it never was), answering, old records NOT served", id="refused"),
    pytest.param(_answers("fv-ml1.fv.lan.", NoAnswer("timeout")), "after the rollback: fv-ml1.fv.lan A: no answer",
                 "restored, not restarted (it never was), answering, old records NOT served", id="old-name-times-out"),
])
def test_a_failed_rollback_is_reported(old: Inventory, new: Inventory, monkeypatch: pytest.MonkeyPatch,
                                       mishap: Callable[[FakeTransport, FakeDns], None], error: str,
                                       last_step: str) -> None:
    monkeypatch.setattr(rollout, "restart_deadline", lambda resolver: 0.0)
    lab = fleet(ns_fv=deployed(old, "ns-fv"))
    lab.transports["ns-fv"].results["dnsmasq"] = [TEST_BROKE]

    def during_test(transport: FakeTransport, argv: tuple[str, ...]) -> None:
        if argv[0] == "dnsmasq":
            mishap(transport, lab.dns["ns-fv"])

    lab.transports["ns-fv"].before_run = during_test
    (fv,) = lab.apply(new, "ns-fv")
    assert fv.status == "rollback FAILED" and not fv.ok
    assert fv.error == f"test failed (dnsmasq --test): dnsmasq: bad option at line 3; {error}"
    assert fv.steps[-1] == last_step


@pytest.mark.parametrize("status, error, ok", [
    pytest.param("unchanged", None, True, id="unchanged"),
    pytest.param("applied", None, True, id="applied"),
    pytest.param("applied", "late error", False, id="applied-with-error"),
    pytest.param("not reached", None, False, id="not-reached"),
    pytest.param("failed", "test failed", False, id="failed"),
    pytest.param("rolled back", None, False, id="rolled-back"),
    pytest.param("rollback FAILED", "x; y", False, id="rollback-failed"),
])
def test_outcome_ok(new: Inventory, status: OutcomeStatus, error: str | None, ok: bool) -> None:
    assert Outcome(new.resolvers[0], status, error=error).ok is ok


def test_restart_deadline_scales_with_the_timeout(new: Inventory) -> None:
    resolver = new.resolvers[0]
    assert rollout.restart_deadline(resolver) == 10.0
    assert rollout.restart_deadline(dataclasses.replace(resolver, timeout=0.1)) == 3.0
