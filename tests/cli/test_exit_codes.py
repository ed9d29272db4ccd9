"""Exit codes that mean something (issue 27, item 18): a sweep that writes exits 1 when it leaves
what verify fails on (like git merge with conflicts), 0 only when verify would pass; a dry run exits
0. Two old values that become one are refused at load, naming both, unless listed under
renames.merges; then every place where the two would collide is refused, naming both."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, snapshot

ALLOW = "version: 1\ncurrent: ['**']\n"


def _config(hosts: str, merges: str = "") -> str:
    return ("version: 1\nname: merge\ncutover: 2026-10-05\nrenames:\n  hosts:\n" + hosts
            + (f"  merges:\n{merges}" if merges else "") + "allowlist: allow.yaml\n")


TWO_INTO_ONE = "    web01: app01\n    web02: app01\n"
MERGED = "    app01: [web01, web02]\n"


@pytest.mark.parametrize(("files", "code"), [
    pytest.param({"a.txt": "ssh web01\n"}, 0, id="all-rewritten"),
    pytest.param({"a.txt": "ssh web01\n", "b.txt": "web01-05 are the pool\n"}, 1, id="a-range-left"),
    pytest.param({"a.txt": "ssh web01\n", "b.sh": "grep -E 'web01{1,2}' x\n"}, 1, id="a-pattern-left"),
])
def test_a_sweep_exits_1_exactly_when_verify_would_fail(files: dict[str, str], code: int,
                                                        repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    root = repo(files, config=_config("    web01: app01\n"), allowlist=ALLOW)
    assert run(root, "sweep", "--dry-run").exit_code == 0  # a preview
    done = run(root, "sweep", "--commit")
    assert done.exit_code == code, done.stdout + done.stderr
    assert run(root, "verify").exit_code == code
    assert git(root, "status", "--porcelain") == ""  # written and committed either way
    assert run(root, "sweep", "--commit").exit_code == code  # nothing more to write, the same answer


def test_an_unclassified_file_left_is_exit_1(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"a.txt": "ssh web01\n", "other/b.txt": "web01\n"}, config=_config("    web01: app01\n"),
                allowlist="version: 1\ncurrent: ['a.txt']\n")
    done = run(root, "sweep")
    assert done.exit_code == 1 and "left for a decision: 1" in done.stderr
    assert (root / "a.txt").read_text() == "ssh app01\n"


@pytest.mark.parametrize("kind", ["hosts", "addresses"])
def test_two_old_values_into_one_are_refused_at_load_naming_both(kind: str, repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    pairs = (TWO_INTO_ONE if kind == "hosts" else "    10.0.0.1: 10.0.0.9\n    10.0.0.2: 10.0.0.9\n")
    config = ("version: 1\nname: merge\ncutover: 2026-10-05\nrenames:\n  " + kind + ":\n" + pairs
              + "allowlist: allow.yaml\n")
    root = repo({"a.txt": "web01 10.0.0.1\n"}, config=config, allowlist=ALLOW)
    before = snapshot(root)
    for args in (("sweep", "--dry-run"), ("sweep",), ("verify",)):
        done = run(root, *args)
        assert done.exit_code == 2, done.stdout + done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        old1, old2, new = ("web01", "web02", "app01") if kind == "hosts" else ("10.0.0.1", "10.0.0.2", "10.0.0.9")
        assert done.stderr.startswith(f"renamer: error: renamer.yaml:7: renames.{kind}.{old2}: ")
        assert f"'{old1}' and '{old2}' both become '{new}'" in done.stderr
        assert f"renames.merges: {{{new}: [{old1}, {old2}]}}" in done.stderr
    assert snapshot(root) == before


# Break-it round 21, finding 18: one new address reached by another route than one spelling.
@pytest.mark.parametrize(("renames", "key", "says"), [
    pytest.param('  addresses:\n    "fd00::1": "fd00::9"\n    "fd00::2": "fd00:0::9"\n', "fd00::2",
                 "'fd00::1' and 'fd00::2' both become 'fd00:0::9' (one address, spelled two ways)", id="v6-spellings"),
    pytest.param('  addresses:\n    "fd00::1": "fd00::9"\n    "fd00::2": "FD00::9"\n', "fd00::2",
                 "'fd00::1' and 'fd00::2' both become 'FD00::9'", id="v6-upper-case"),
    pytest.param("  networks:\n    10.0.0.0/24: 10.0.1.0/24\n  addresses:\n    10.0.2.5: 10.0.1.5\n", "10.0.2.5",
                 "'10.0.2.5' and 10.0.0.5 (moved by renames.networks 10.0.0.0/24: 10.0.1.0/24) both become "
                 "'10.0.1.5'", id="onto-a-moved-member"),
    pytest.param("  networks:\n    10.0.0.0/24: 10.0.1.0/24\n  addresses:\n    10.0.0.5: 10.0.1.6\n", "10.0.0.5",
                 "'10.0.0.5' and 10.0.0.6 (moved by renames.networks 10.0.0.0/24: 10.0.1.0/24) both become "
                 "'10.0.1.6'", id="inside-onto-a-neighbour"),
    pytest.param("  networks:\n    10.0.48.0/29: 10.0.48.0/28\n  addresses:\n    10.0.9.1: 10.0.48.3\n", "10.0.9.1",
                 "'10.0.9.1' and 10.0.48.3 (moved by renames.networks 10.0.48.0/29: 10.0.48.0/28) both become",
                 id="onto-a-grown-network-member"),
])
def test_one_new_address_by_two_routes_is_refused_at_load(renames: str, key: str, says: str,
                                                          repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    config = "version: 1\nname: m\nrenames:\n" + renames + "allowlist: allow.yaml\n"
    root = repo({"hosts.txt": "a fd00::1\nb fd00::2\nc 10.0.2.5\nd 10.0.0.5\ne 10.0.0.6\nf 10.0.48.3\n"},
                config=config, allowlist=ALLOW)
    before = snapshot(root)
    for args in (("sweep", "--dry-run"), ("sweep", "--commit"), ("verify",)):
        done = run(root, *args)
        assert done.exit_code == 2, done.stdout + done.stderr
        assert done.stderr.startswith("renamer: error: renamer.yaml:") and f"renames.addresses.{key}: " in done.stderr
        assert says in done.stderr and done.stderr.count("\n") == 1
    assert snapshot(root) == before


@pytest.mark.parametrize("renames", [
    pytest.param("  networks:\n    10.0.0.0/24: 10.0.1.0/24\n  addresses:\n    10.0.0.5: 10.0.1.6\n"
                 "    10.0.0.6: 10.0.1.5\n", id="two-members-swapped"),
    pytest.param("  networks:\n    10.0.0.0/24: 10.0.1.0/24\n  addresses:\n    10.0.2.5: 10.0.1.5\n"
                 "    10.0.0.5: 10.0.1.5\n  merges:\n    10.0.1.5: [10.0.2.5, 10.0.0.5]\n", id="a-listed-merge"),
    pytest.param("  networks:\n    10.0.0.0/24: 10.0.1.0/24\n  addresses:\n    10.0.2.5: 10.0.3.5\n",
                 id="outside-the-new-network"),
])
def test_two_routes_that_never_meet_load(renames: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    config = "version: 1\nname: m\nrenames:\n" + renames + "allowlist: allow.yaml\n"
    root = repo({"hosts.txt": "c 10.0.2.5\nd 10.0.0.5\n"}, config=config, allowlist=ALLOW)
    done = run(root, "sweep", "--dry-run")
    assert done.exit_code == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("hosts", "key", "message"), [
    pytest.param("    pug: wolf\n    PUG: fox\n", "PUG", "'pug' and 'PUG' are one DNS name", id="break10-7"),
    pytest.param("    Pug: wolf\n    pUG: fox\n", "pUG", "'Pug' and 'pUG' are one DNS name", id="mixed-case"),
    pytest.param("    pug.lab.lan: wolf.lab.lan\n    PUG.Lab.lan: fox.lab.lan\n", "PUG.Lab.lan",
                 "'pug.lab.lan' and 'PUG.Lab.lan' are one DNS name", id="fqdn"),
    pytest.param("    pug: wolf\n    rex: WOLF\n", "rex", "'pug' and 'rex' become 'wolf' and 'WOLF', one DNS name",
                 id="two-into-one-by-case"),
])
def test_host_keys_that_are_one_dns_name_are_refused_at_load(hosts: str, key: str, message: str,
                                                             repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    """DNS names match in any case, and so does renamer in DNS files (a hosts file's `pug` once took
    `PUG: fox`'s new name while YAML's took `pug: wolf`'s): two keys that are one DNS name must
    become one name, and two names must not become one by case (break-it round 10 #7)."""
    root = repo({"hosts": "10.0.40.11 pug\n10.0.40.12 PUG\n", "c.yaml": "a: pug\nb: PUG\n"},
                config=_config(hosts), allowlist=ALLOW)
    before = snapshot(root)
    for args in (("sweep", "--dry-run"), ("verify",)):
        done = run(root, *args)
        assert done.exit_code == 2 and done.stderr.count("\n") == 1, done.stdout + done.stderr
        assert done.stderr.startswith(f"renamer: error: renamer.yaml:7: renames.hosts.{key}: {message}")
    assert snapshot(root) == before


def test_host_keys_one_dns_name_with_one_new_name_are_accepted(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    root = repo({"c.yaml": "a: pug\nb: PUG\n"}, config=_config("    pug: wolf\n    PUG: WOLF\n"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "c.yaml").read_text() == "a: wolf\nb: WOLF\n"


@pytest.mark.parametrize(("merges", "message"), [
    pytest.param("    app01: [web01]\n", "expected a list of two or more old names", id="one-old"),
    pytest.param("    app01: [web01, web03]\n", "'web03' is not renamed to 'app01'", id="not-renamed"),
    pytest.param("    app01: web01\n", "expected a list of two or more old names", id="not-a-list"),
])
def test_a_wrong_merge_entry_is_refused(merges: str, message: str, repo: Callable[..., Path],
                                        run: Callable[..., Result]) -> None:
    root = repo({"a.txt": "web01\n"}, config=_config(TWO_INTO_ONE, merges), allowlist=ALLOW)
    done = run(root, "sweep", "--dry-run")
    assert done.exit_code == 2 and "Traceback" not in done.stderr
    assert f"renamer: error: renamer.yaml:9: renames.merges.app01: {message}" in done.stderr


def test_a_listed_merge_rewrites_both_where_nothing_collides(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    files = {"hosts.yaml": "a:\n  web01: 1\nb:\n  web02: 2\n",  # keys under different parents
             "deploy.env": "PRIMARY=web01\nSECONDARY=web02\n",  # values merge: fine
             # the same record twice: one (a whole zone: a fragment nobody includes leaves zone-serial)
             "zone.db": ("$ORIGIN lab.\n@ IN SOA ns1.lab. hostmaster.lab. 1 3600 900 604800 300\n"
                         "web01 IN A 10.0.0.9\nweb02 IN A 10.0.0.9\n")}
    root = repo(files, config=_config(TWO_INTO_ONE, MERGED), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "hosts.yaml").read_text() == "a:\n  app01: 1\nb:\n  app01: 2\n"
    assert (root / "deploy.env").read_text() == "PRIMARY=app01\nSECONDARY=app01\n"


@pytest.mark.parametrize(("path", "text", "what"), [
    pytest.param("hosts.yaml", "hosts:\n  web01: {port: 1}\n  web02: {port: 2}\n", "key app01", id="yaml-keys"),
    pytest.param("inventory.ini", "[web01]\n10.0.0.1\n[web02]\n10.0.0.2\n", "section app01", id="ini-sections"),
    pytest.param("site.toml", "[web01]\nport = 1\n[web02]\nport = 2\n", "section app01", id="toml-tables"),
    pytest.param("app.ini", "[pool]\nweb01 = 1\nweb02 = 2\n", "key app01", id="ini-keys"),
    pytest.param("zone.db", "web01 IN A 10.0.0.1\nweb02 IN A 10.0.0.2\n", "A record app01", id="zone-records"),
    pytest.param("zone.db", "web01 300 IN AAAA 2001:db8::1\nweb02 300 IN AAAA 2001:db8::2\n", "AAAA record app01",
                 id="zone-records-ttl"),
    pytest.param("dnsmasq.conf", "host-record=web01,10.0.0.1\nhost-record=web02,10.0.0.2\n",
                 "host-record record app01", id="dnsmasq-records"),
    pytest.param("hosts.json", '{\n  "web01": 1,\n  "web02": 2\n}\n', "key app01", id="json-keys"),
    # The break-it pass: two ssh Host blocks became two `Host app01` (ssh reads only the first).
    pytest.param(".ssh/config", "Host web01\n  HostName 10.0.0.1\nHost web02\n  HostName 10.0.0.2\n",
                 "ssh Host block app01", id="ssh-host-blocks"),
    pytest.param("ssh_config", "Host web01 web01.lab\n  User a\nHost bastion web02\n  User b\n",
                 "ssh Host block app01", id="ssh-host-pattern-lists"),
    pytest.param("etc/hosts", "10.0.0.1 web01 web01.lan\n10.0.0.2 web02  # the spare\n",
                 "hosts-file entry app01", id="hosts-file"),
    pytest.param("inventory/hosts.ini", "[gpu]\nweb01 ansible_host=10.0.0.1\nweb02 ansible_host=10.0.0.2\n",
                 "host app01 of the inventory group [gpu]", id="ansible-ini-inventory"),
    pytest.param("inventory/hosts", "[gpu]\nweb01\nweb02\n", "host app01 of the inventory group [gpu]",
                 id="ansible-ini-inventory-bare-hosts"),
    pytest.param("flow.yaml", "hosts: {web01: 1, web02: 2}\n", "key hosts.app01", id="yaml-flow-mapping"),
    pytest.param("one.json", '{"hosts": {"web01": 1, "web02": 2}}\n', "key hosts.app01", id="json-one-line"),
    pytest.param("inline.toml", "hosts = { web01 = 1, web02 = 2 }\n", "key hosts.app01", id="toml-inline-table"),
    pytest.param("dotted.toml", "[pool.web01]\nport = 1\n[pool.web02]\nport = 2\n", "section pool.app01",
                 id="toml-dotted-tables"),
    pytest.param("dnsmasq.conf", "address=/web01/10.0.0.1\naddress=/web02/10.0.0.2\n",
                 "address record app01", id="dnsmasq-address"),
])
def test_every_place_two_merged_names_collide_is_refused_naming_both(path: str, text: str, what: str,
                                                                      repo: Callable[..., Path],
                                                                      run: Callable[..., Result]) -> None:
    root = repo({path: text, "other.txt": "ssh web01\n"}, config=_config(TWO_INTO_ONE, MERGED), allowlist=ALLOW)
    preview = run(root, "sweep", "--dry-run", "--format", "summary")
    assert preview.exit_code == 0
    assert "web01 (line " in preview.stdout and "and web02 (line " in preview.stdout, preview.stdout
    assert f"both would become the {what}" in preview.stdout
    done = run(root, "sweep", "--commit")  # a collision is refused as a whole (item 7): nothing written
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "web01 (line " in done.stderr and "and web02 (line " in done.stderr
    assert (root / path).read_text() == text
    assert (root / "other.txt").read_text() == "ssh web01\n"
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize(("path", "text"), [
    pytest.param("etc/hosts", "10.0.0.9 web01\n10.0.0.9 web02\n", id="hosts-file-same-address"),
    pytest.param("app.ini", "[a]\nhost = web01\n[b]\nhost = web02\n", id="ini-values-named-host"),
    pytest.param(".ssh/config", "Host a\n  HostName web01\nHost b\n  HostName web02\n", id="ssh-values"),
])
def test_merged_names_that_meet_nowhere_are_both_rewritten(path: str, text: str, repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    root = repo({path: text}, config=_config(TWO_INTO_ONE, MERGED), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / path).read_text() == text.replace("web01", "app01").replace("web02", "app01")
    assert run(root, "verify").exit_code == 0


def test_two_inventory_hosts_made_one_across_groups_are_refused(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    """Break-it round 16, #8: an inventory host is one machine whatever groups name it; two made one
    (in two groups, so they never meet in one) is refused, exit 3, nothing written."""
    text = "[gpu]\nweb01\n[cpu]\nweb02\n"
    root = repo({"inventory/hosts": text}, config=_config(TWO_INTO_ONE, MERGED), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "two machines would become one host" in done.stderr
    assert (root / "inventory/hosts").read_text() == text
