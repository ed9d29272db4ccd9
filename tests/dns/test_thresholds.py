"""octoDNS's safety thresholds: an apply that deletes or updates more than 30 % of a site's records
(where it has 10 or more) is refused without --force, naming the counts; real dnsmasq, real answers."""

from __future__ import annotations

from tests.testing.resolvers import addresses, dns, move_gateway


def _grow(lab, count: int) -> None:  # type: ignore[no-untyped-def]
    """Give the fv site `count` more hosts (each two names: short and FQDN)."""
    path = lab.inventory / "sites" / "fv.yaml"
    text = path.read_text()
    extra = "".join(f"  - name: fv-n{i}\n    address: 10.251.9.{i}\n" for i in range(1, count + 1))
    path.write_text(text.replace("hosts:\n", "hosts:\n" + extra, 1))


def test_the_seeds_fv_move_passes_without_force(run, lab) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(lab)  # one renumbered address: an update of 2 names in a small site
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    assert set(addresses(lab, "fv-gw.fv.lan.").values()) == {("10.251.0.2",)}


def test_deleting_much_of_a_site_is_refused_without_force(run, lab) -> None:  # type: ignore[no-untyped-def]
    _grow(lab, 8)
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    path = lab.inventory / "sites" / "fv.yaml"
    text = path.read_text()
    for i in range(1, 9):  # 8 hosts (16 names) of the site's records go
        text = text.replace(f"  - name: fv-n{i}\n    address: 10.251.9.{i}\n", "")
    path.write_text(text)
    refused = dns(run, lab, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert "renamer-fv.conf: the apply would delete 16 of its" in refused.stderr
    assert "--force" in refused.stderr and "nothing written" in refused.stderr
    assert set(addresses(lab, "fv-n1.fv.lan.").values()) == {("10.251.9.1",)}  # still served everywhere
    forced = dns(run, lab, "apply", "--resolvers", "all", "--force")
    assert forced.exit_code == 0, forced.stdout + forced.stderr
    assert set(addresses(lab, "fv-n1.fv.lan.").values()) == {()}


def test_updates_are_counted_apart_from_deletes(run, lab) -> None:  # type: ignore[no-untyped-def]
    _grow(lab, 8)
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    path = lab.inventory / "sites" / "fv.yaml"
    text = path.read_text()
    for i in range(1, 9):  # a renumbering of most of the site: updates, not deletes
        text = text.replace(f"address: 10.251.9.{i}\n", f"address: 10.251.8.{i}\n")
    path.write_text(text)
    refused = dns(run, lab, "apply", "--resolvers", "all")
    assert refused.exit_code == 3 and "would update 16 of its" in refused.stderr
    assert "delete" not in refused.stderr.split("would")[1].split("(")[0]
    assert set(addresses(lab, "fv-n1.fv.lan.").values()) == {("10.251.9.1",)}
    assert dns(run, lab, "apply", "--resolvers", "all", "--force").exit_code == 0
    assert set(addresses(lab, "fv-n1.fv.lan.").values()) == {("10.251.8.1",)}
