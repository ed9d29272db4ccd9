"""The Ansible engine on real nameds as the built-in engine (issue 31 item 5; DNS break-it round
2, findings 01 and 12 on the exported playbook): its rollback never lowers a served SOA serial
nor lets the next apply reuse one, and neither its apply nor its rollback makes an operator's
pending edit of their own zone live (`rndc reload ZONE` per zone renamer changed)."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from renamer.dns.bind import backend as bind_backend
from tests.dns.bind.test_bind_activation import pending_operator_zone, www
from tests.dns.bind.test_bind_serials import gateway, serial
from tests.testing.resolvers import Lab, dns, fails_once_written, move_gateway, reload_until


def test_an_ansible_rollback_moves_the_serial_on_and_reloads_only_renamers_zones(
        run: Callable[..., Any], pair: Lab) -> None:
    """ns-fv and ns-fv2 in one batch: ns-fv is written, reloaded (named serves S+1), then ns-fv2's
    test fails and the playbook rolls ns-fv back. named serves the old records at a serial above
    S+1, a zone the apply never changed keeps S, the next apply goes above the restored serial,
    and the operator's pending edit of other.lan is live after none of it."""
    applied = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    first = serial(pair, "fv.lan")
    assert first == int(dt.date.today().strftime("%Y%m%d")) * 100
    pending_operator_zone(pair)
    move_gateway(pair)
    pair.write_resolvers(ns_fv2={"test": fails_once_written(pair, "ns-fv2")})
    failed = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible", "--canary", "0",
                 "--batch-size", "2")
    assert failed.exit_code == 1, failed.stdout + failed.stderr
    assert "rolled back" in failed.stdout, failed.stdout
    assert gateway(pair) == ("10.251.0.1",)
    restored = serial(pair, "fv.lan")
    assert restored > first + 1, restored  # past the serial the rolled-back apply served
    assert serial(pair, "251.10.in-addr.arpa") > first + 1
    assert serial(pair, "ana.lan") == first  # a zone the failed apply never changed keeps its serial
    assert www(pair) == ("10.9.0.1",)  # the operator's pending edit stays pending
    pair.write_resolvers()
    path = pair.inventory / "sites" / "fv.yaml"
    path.write_text(path.read_text().replace("address: 10.251.0.2", "address: 10.251.0.3"))
    moved = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible")
    assert moved.exit_code == 0, moved.stdout + moved.stderr
    assert gateway(pair) == ("10.251.0.3",) and serial(pair, "fv.lan") > restored
    assert www(pair) == ("10.9.0.1",)
    assert dns(run, pair, "verify", "--resolvers", "all").exit_code == 0


def test_the_export_carries_the_restored_zones_and_the_reloads_per_zone(
        run: Callable[..., Any], pair: Lab, tmp_path: Path) -> None:
    """What the playbook is given: per changed zone an `rndc reload ZONE` (a reconfig first where
    renamer's zones file changes), the same for its rollback, and each changed zone's restored
    file (the backup's records, the serial past the one written) with the digest of the backup it
    stands for."""
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(pair)
    folder = tmp_path / "export"
    assert dns(run, pair, "export", "ansible", "--out", str(folder)).exit_code == 0
    host = yaml.safe_load((folder / "inventory.yml").read_text().replace("!unsafe ", ""))[
        "all"]["children"]["renamer_resolvers"]["hosts"]["ns-fv"]
    rndc = pair.instances["ns-fv"].reload_command()
    reloads = [(*rndc, "251.10.in-addr.arpa"), (*rndc, "fv.lan")]
    assert [tuple(argv) for argv in host["renamer_activate"]] == reloads
    assert [tuple(argv) for argv in host["renamer_reactivate"]] == reloads
    live = pair.instances["ns-fv"].snippet_dir / "renamer-fv.lan.zone"
    entry = host["renamer_files"][str(live)]
    assert entry[3] == hashlib.sha1(live.read_bytes()).hexdigest()
    back = (folder / "files" / "ns-fv" / "restored" / entry[1]).read_text()
    written = (folder / "files" / "ns-fv" / entry[1]).read_text()
    assert "10.251.0.1" in back and "10.251.0.2" in written
    served = serial(pair, "fv.lan")
    assert f" {served + 1} " in written and f" {served + 2} " in back
    unchanged = [e for p, e in host["renamer_files"].items() if p.endswith("renamer-ana.lan.zone")]
    assert unchanged and all(e[3] == "-" for e in unchanged)
    assert not (folder / "files" / "ns-fv" / "restored" / "renamer-ana.lan.zone").exists()


def test_the_playbooks_verify_waits_for_named_and_names_a_zone_it_never_loads(
        run: Callable[..., Any], pair: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """`dns verify --loaded` (the playbook's batch verify) first waits until named serves each of
    renamer's zones with its file's serial: a file named never loaded fails it, naming the zone
    and both serials; once named loads it, it passes."""
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    served = serial(pair, "fv.lan")
    zone = pair.instances["ns-fv"].snippet_dir / "renamer-fv.lan.zone"
    zone.write_text(zone.read_text().replace(f" {served} ", f" {served + 5} "))
    monkeypatch.setattr(bind_backend, "LOAD_WAIT", 1.0)
    late = dns(run, pair, "verify", "--resolvers", "ns-fv", "--alone", "--loaded")
    assert late.exit_code == 1, late.stdout
    assert f"named still serves zone fv.lan with SOA serial {served}, its file says {served + 5}" in late.stdout
    reload_until(pair, "ns-fv", "fv.lan.", "SOA")
    assert dns(run, pair, "verify", "--resolvers", "ns-fv", "--alone", "--loaded").exit_code == 0
    assert serial(pair, "fv.lan") == served + 5
