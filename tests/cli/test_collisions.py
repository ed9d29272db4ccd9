"""Collisions: a new value already there before the sweep writes it is listed, never silent."""

from __future__ import annotations

import json

import pytest

from tests.testing.repos import CONFIG, git

FILES = {
    "stacks/web.yaml": "upstreams:\n  - ana-ml2\n  - fv-ml1\n",
    "stacks/app.env": "HOST=fv-ml1\n",
    "stacks/db.env": "HOST=ana-ml2\n",
    "incidents/2026-09-01.md": "fv-ml1 and ana-ml2 in a record: not a collision\n",
}


def test_plan_dry_run_and_json_list_where_a_new_value_stands(repo, run) -> None:
    root = repo(FILES)
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert dry.exit_code == 0
    lines = dry.stdout.splitlines()
    at = lines.index("Collisions, new values already there (2; `renamer verify --strict` fails on those "
                     "inside one structured file, and on what a grown network swallows):")
    assert lines[at + 1:] == [
        "  stacks/app.env:1:6: warning: collision: fv-ml1 is already here, and the sweep turns ana-ml2 "
        "into it: after the sweep two things would share one name or address; check that they are one",
        "      HOST=fv-ml1",
        "  stacks/web.yaml:3:5 [upstreams[1]]: warning: collision: fv-ml1 is already here, and the sweep "
        "turns ana-ml2 in the same file into it: after the sweep two things would share one name or "
        "address; check that they are one",
        "      - fv-ml1"]
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert [(c["path"], c["line"], c["value"], c["olds"], c["same_file"], c["structured"])
            for c in data["collisions"]] == [("stacks/app.env", 1, "fv-ml1", ["ana-ml2"], False, False),
                                             ("stacks/web.yaml", 3, "fv-ml1", ["ana-ml2"], True, True)]
    # Not a refusal: the sweep goes ahead.
    assert run(root, "sweep", "--commit").exit_code == 0


def test_verify_warns_and_strict_fails_only_inside_one_structured_file(repo, run) -> None:
    root = repo(FILES)
    plain = run(root, "verify")
    assert "stacks/web.yaml:3:5 [upstreams[1]]: warning: collision" in plain.stdout
    strict = run(root, "verify", "--strict")
    assert "stacks/web.yaml:3:5 [upstreams[1]]: error: collision" in strict.stdout
    assert "stacks/app.env:1:6: warning: collision" in strict.stdout
    assert strict.stdout.splitlines()[-1].startswith(
        "verify: FAILED: 2 residual, 0 unclassified, 0 near-misses, 1 collision,")
    data = json.loads(run(root, "verify", "--strict", "--format", "json").stdout)
    assert [c["path"] for c in data["collisions"]] == ["stacks/app.env", "stacks/web.yaml"]
    # Once the structured file holds one spelling only, --strict has nothing to fail on there.
    (root / "stacks" / "web.yaml").write_text("upstreams:\n  - fv-ml1\n")
    git(root, "commit", "-qam", "one upstream")
    again = run(root, "verify", "--strict")
    assert "error: collision" not in again.stdout
    assert "1 collision" not in again.stdout


def test_nothing_to_rewrite_means_no_collision(repo, run) -> None:
    root = repo({"stacks/app.env": "HOST=fv-ml1\n"})
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert json.loads(dry.stdout)["collisions"] == []
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_new_address_another_host_holds_in_the_dns_inventory(repo, run) -> None:
    site = ("site: fv\ndomain: fv.lan\nnetwork: 10.251.50.0/24\nhosts:\n"
            "  - {name: fv-ml1-bmc, address: 10.251.50.55}\n  - {name: fv-db1, address: 10.251.50.54}\n")
    root = repo({"stacks/app.env": "IP=10.250.50.54\n", "dns/sites/fv.yaml": site})
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert ("  dns/sites/fv.yaml [hosts[fv-db1]]: warning: collision: 10.251.50.54 is already here, and "
            "the sweep turns 10.250.50.54 into it") in dry.stdout
    assert "fv-ml1-bmc" not in dry.stdout  # a record of the new names is no collision
    (root / "dns" / "sites" / "fv.yaml").write_text(site.replace("fv-db1", "fv-ml1"))
    assert "collision" not in run(root, "sweep", "--dry-run", "--format", "summary").stdout


DUAL_CONFIG = CONFIG.replace("    10.250.50.54: 10.251.50.54\n",
                             "    10.250.50.54: 10.251.50.54\n    2001:db8:50::54: 2001:db8:51::54\n")


def test_a_dual_stack_host_of_the_dns_inventory_collides_by_either_address(repo, run) -> None:
    # Each address of a host's `address: [IPv4, IPv6]` is one the sweep may collide with.
    site = ("site: fv\ndomain: fv.lan\nnetwork: [10.251.0.0/16, 2001:db8:51::/64]\nhosts:\n"
            "  - {name: fv-db1, address: [10.251.50.54, 2001:db8:51::99]}\n"
            "  - name: fv-db2\n    address:\n      - 2001:db8:51::54\n      - 10.251.9.9\n")
    root = repo({"stacks/app.env": "IP=10.250.50.54\nIP6=2001:db8:50::54\n", "dns/sites/fv.yaml": site},
                config=DUAL_CONFIG)
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    assert ("  dns/sites/fv.yaml [hosts[fv-db1]]: warning: collision: 10.251.50.54 is already here, and "
            "the sweep turns 10.250.50.54 into it") in dry.stdout
    assert ("  dns/sites/fv.yaml [hosts[fv-db2]]: warning: collision: 2001:db8:51::54 is already here, and "
            "the sweep turns 2001:db8:50::54 into it") in dry.stdout
    assert "2001:db8:51::99" not in dry.stdout and "10.251.9.9" not in dry.stdout
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert sorted(c["value"] for c in data["collisions"]) == ["10.251.50.54", "2001:db8:51::54"]


@pytest.mark.parametrize("spelled", ["2001:DB8:51::54", "2001:db8:51:0:0:0:0:54", "2001:0db8:0051::0054"])
def test_an_inventory_address_in_another_spelling_collides(repo, run, spelled: str) -> None:
    # The inventory's address compares by meaning: any spelling of the new address is it.
    site = (f"site: fv\ndomain: fv.lan\nnetwork: 2001:db8:51::/64\nhosts:\n"
            f"  - {{name: fv-db2, address: '{spelled}'}}\n")
    root = repo({"stacks/app.env": "IP6=2001:db8:50::54\n", "dns/sites/fv.yaml": site}, config=DUAL_CONFIG)
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert [(c["path"], c["value"]) for c in data["collisions"]] == [("dns/sites/fv.yaml", "2001:db8:51::54")]


NETWORKS = ("version: 1\nrenames:\n  networks: {10.9.0.0/24: 10.10.0.0/23, 10.0.48.0/29: 10.0.48.0/28, "
            '"2001:db8:a::/48": "2001:db8:b::/56"}\nallowlist: allow.yaml\n')


def test_an_address_a_network_move_writes_that_stands_already_is_listed(repo, run) -> None:
    """Issue 33 item 6: a network move's new addresses are new values too, listed with file:line
    before anything is written; an address a resize in place keeps (it maps to itself) is none,
    nor one in a record. One standing where the old network lands that the move does not write
    (`GW=10.10.0.1`, no 10.9.0.1 moves onto it) is one too (t31-33, finding 09: it was exempt)."""
    site = ("site: lab\ndomain: lab.lan\nnetwork: 10.10.0.0/23\nhosts:\n"
            "  - {name: printer, address: 10.10.0.7}\n  - {name: spare, address: 10.10.1.9}\n")
    files = {
        "stacks/a.env": "DB=10.9.0.200\nPRINTER=10.9.0.7\nV6=2001:db8:a::5\n",
        "stacks/b.env": "OTHER=10.10.0.200\nGW=10.10.0.1\nV6=2001:db8:b::5\n",
        "interfaces": "iface x\n    address 10.0.48.3/29\n    broadcast 10.0.48.7\n",
        "stacks/c.yaml": "host: 10.0.48.3\nnas: 10.0.48.15\n",
        "incidents/2026-09-01.md": "10.10.0.200 in a record: not a collision\n",
        "dns/sites/lab.yaml": site,
    }
    allow = 'version: 1\ncurrent: ["**"]\nrecords:\n  - {name: incidents, paths: ["incidents/**"], reason: dated}\n'
    root = repo(files, config=NETWORKS, allowlist=allow)
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    assert ("  stacks/b.env:1:7: warning: collision: 10.10.0.200 is already here, and the sweep turns "
            "10.9.0.200 into it") in dry.stdout
    assert ("  stacks/b.env:3:4: warning: collision: 2001:db8:b::5 is already here, and the sweep turns "
            "2001:db8:a::5 into it") in dry.stdout
    assert ("  stacks/c.yaml:2:6 [nas]: warning: collision: 10.0.48.15 is already here, and the sweep turns "
            "10.0.48.7 into it") in dry.stdout
    assert ("  dns/sites/lab.yaml [hosts[printer]]: warning: collision: 10.10.0.7 is already here, and the sweep "
            "turns 10.9.0.7 into it") in dry.stdout
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    # the inventory's spare 10.10.1.9 lies in the grown /23 outside where 10.9.0.0/24 lands: swallowed
    # (break-it round 20p, finding 9), no longer "one of the new network the move does not write"
    assert sorted(c["value"] for c in data["collisions"]) == ["10.0.48.15", "10.10.0.1", "10.10.0.200",
                                                              "10.10.0.7", "10.10.1.9", "2001:db8:b::5"]
    assert ("dns/sites/lab.yaml [hosts[spare]]: warning: collision: 10.10.1.9 is already here, inside "
            "10.10.0.0/23, which 10.9.0.0/24 grows into") in dry.stdout
