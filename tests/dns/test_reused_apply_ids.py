"""A reused apply id never overwrites an earlier apply's backup (F5): a hand run of the exported
playbook given `-e renamer_apply_id=X` where X already names a backup folder on a resolver stops
before anything is written there, naming the resolver, the folder and what to do; so does the
built-in engine asked for such an id (a library caller). The earlier apply's rollback then
still restores what that apply found, asked over DNS. Real ansible-playbook and dnsmasq."""

from __future__ import annotations

from pathlib import Path

import pytest

from renamer.dns import load
from renamer.dns.run import ApplyRequest, apply
from renamer.errors import UnsafeError
from tests.testing.resolvers import Lab, addresses, dns, move_gateway, playbook_by_hand

THREE = ("ns-r1", "ns-r2", "ns-r3")
GW = "fv-gw.fv.lan."


def _backups(lab: Lab) -> dict[str, bytes]:
    """Every file under every resolver's backup_dir but the lock, by path, as bytes."""
    root = lab.root / "backups"
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "renamer-apply.lock"}


def _renumber(lab: Lab, address: str) -> None:
    path = lab.inventory / "sites" / "fv.yaml"
    text = path.read_text()
    for old in ("10.251.0.1", "10.251.0.2", "10.251.0.3"):
        text = text.replace(f"address: {old}", f"address: {address}")
    path.write_text(text)


def _hand_run(run, lab: Lab, folder: Path, *args: str):  # type: ignore[no-untyped-def]
    assert dns(run, lab, "export", "ansible", "--out", str(folder), "--batch-size", "3").exit_code == 0
    return playbook_by_hand(folder, *args)


# A hand run first: "rolled-back" is that case with a refused rollback after it (nothing was
# interrupted: the state is the hand run's), so it stands for both (one playbook run less).
@pytest.mark.parametrize("first", ["builtin", "rolled-back"])
def test_a_reused_apply_id_stops_the_hand_run_before_any_write(run, fleet: Lab, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                               first: str) -> None:
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0  # serving 10.251.0.1
    move_gateway(fleet)  # -> 10.251.0.2
    if first == "builtin":
        assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
        used = next((fleet.root / "backups" / "ns-r1").glob("ns-r1-*")).name.removeprefix("ns-r1-")
    else:
        used = "20261201T120000Z.deadbeef"
        done = _hand_run(run, fleet, tmp_path / "first", "-e", f"renamer_apply_id={used}")
        assert done.returncode == 0, done.stdout + done.stderr
    assert set(addresses(fleet, GW).values()) == {("10.251.0.2",)}
    if first == "rolled-back":  # its backup folder stays: the id is still taken there
        rolled = dns(run, fleet, "apply", "--resolvers", "all", "--rollback")
        assert rolled.exit_code == 3, rolled.stdout + rolled.stderr  # nothing interrupted to roll back
    before, snippets = _backups(fleet), fleet.snippets()
    _renumber(fleet, "10.251.0.3")
    again = _hand_run(run, fleet, tmp_path / "again", "-e", f"renamer_apply_id={used}")
    assert again.returncode != 0, again.stdout
    for name in THREE:
        folder = fleet.root / "backups" / name / f"{name}-{used}"
        assert (f"{name}: the backup folder {folder} exists already: apply id {used} was used here before"
                in " ".join(again.stdout.split())), again.stdout
    assert "run again without -e renamer_apply_id" in " ".join(again.stdout.split())
    # nothing written: the earlier apply's backups byte for byte, the snippets, no lock, no mark
    assert _backups(fleet) == before and fleet.snippets() == snippets
    assert not list((fleet.root / "backups").glob("*/renamer-apply.lock"))
    assert not list((fleet.root / "backups").glob("*/renamer-apply-pending"))
    assert set(addresses(fleet, GW).values()) == {("10.251.0.2",)}
    # without the id, the same folder applies (an id of its own)
    fresh = playbook_by_hand(tmp_path / "again")
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    assert set(addresses(fleet, GW).values()) == {("10.251.0.3",)}


def test_a_reused_id_on_one_resolver_stops_that_one_and_writes_nothing_there(  # type: ignore[no-untyped-def]
        run, fleet: Lab, tmp_path: Path) -> None:
    """The id was used on ns-r2 alone (`--limit`): ns-r2 is refused, its backup kept; the batch
    fails as a whole (the default budget is 0), so the others are rolled back, as a failure does."""
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(fleet)
    used = "20261201T130000Z.0badf00d"
    first = _hand_run(run, fleet, tmp_path / "first", "--limit", "ns-r2", "-e", f"renamer_apply_id={used}")
    assert first.returncode == 0, first.stdout + first.stderr
    assert addresses(fleet, GW) == {"ns-r1": ("10.251.0.1",), "ns-r2": ("10.251.0.2",), "ns-r3": ("10.251.0.1",)}
    kept = {k: v for k, v in _backups(fleet).items() if k.startswith("ns-r2/")}
    again = playbook_by_hand(tmp_path / "first", "-e", f"renamer_apply_id={used}")
    assert again.returncode != 0, again.stdout
    assert "ns-r2: the backup folder" in again.stdout and "exists already" in again.stdout
    assert {k: v for k, v in _backups(fleet).items() if k.startswith("ns-r2/")} == kept
    assert addresses(fleet, GW) == {"ns-r1": ("10.251.0.1",), "ns-r2": ("10.251.0.2",), "ns-r3": ("10.251.0.1",)}
    assert not list((fleet.root / "backups").glob("*/renamer-apply.lock"))


def test_the_builtin_engine_refuses_an_id_that_names_a_backup_folder(run, fleet: Lab) -> None:  # type: ignore[no-untyped-def]
    """A library caller naming the apply id: one already used is refused before any write."""
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(fleet)
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    used = next((fleet.root / "backups" / "ns-r3").glob("ns-r3-*")).name.removeprefix("ns-r3-")
    before, snippets = _backups(fleet), fleet.snippets()
    _renumber(fleet, "10.251.0.3")
    inventory = load.load_inventory(fleet.inventory)
    with pytest.raises(UnsafeError) as refused:
        apply(inventory, "all", ApplyRequest(apply_id=used))
    folder = fleet.root / "backups" / "ns-r1" / f"ns-r1-{used}"
    assert str(refused.value) == (f"ns-r1: the backup folder {folder} exists already: apply id {used} was used "
                                  "there before, and this apply would overwrite that apply's backup; apply again "
                                  "with an id never used (a new apply makes its own); nothing written")
    assert _backups(fleet) == before and fleet.snippets() == snippets
    assert not list((fleet.root / "backups").glob("*/renamer-apply.lock"))
    assert set(addresses(fleet, GW).values()) == {("10.251.0.2",)}
    rolled_to = dns(run, fleet, "apply", "--resolvers", "all")  # a new id: it goes through
    assert rolled_to.exit_code == 0, rolled_to.stdout + rolled_to.stderr
    assert set(addresses(fleet, GW).values()) == {("10.251.0.3",)}
