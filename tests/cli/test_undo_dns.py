"""renamer undo --dns against three real dnsmasq resolvers on loopback: the DNS inventory as it
was at the move's parent commit, applied through dns apply's own path, answers as before."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

from tests.testing.repos import CONFIG, Run, git, write_files
from tests.testing.resolvers import Lab, addresses, answers

OLD_SITES = {  # before the move: the box is ana-ml2 at the ana site; fv has only its gateway
    "dns/sites/ana.yaml": ("site: ana\ndomain: ana.lan\nnetwork: 10.250.0.0/16\nhosts:\n"
                           "  - name: ana-nas\n    address: 10.250.20.10\n"
                           "  - name: ana-gw\n    address: 10.250.0.1\n"
                           "  - name: ana-ml2\n    address: 10.250.50.54\n    aliases: [scriberr]\n"
                           "  - name: ana-ml2-bmc\n    address: 10.250.50.55\n    role: bmc\n"
                           "authoritative: true\n"),
    "dns/sites/fv.yaml": ("site: fv\ndomain: fv.lan\nnetwork: 10.251.0.0/16\nhosts:\n"
                          "  - name: fv-gw\n    address: 10.251.0.1\nauthoritative: true\n"),
}


def _repo(lab: Lab) -> Path:
    """The lab's folder as an infra repo: renamer.yaml, a runbook, the old inventory, committed."""
    root = lab.root
    write_files(root, {"renamer.yaml": CONFIG, "allow.yaml": "version: 1\ncurrent: [runbook.md]\n", "runbook.md": "ssh root@ana-ml2\n",
                       ".gitignore": "/run/\n/backups/\n/as-it-was/\n", **OLD_SITES})
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "renamer tests")
    git(root, "config", "user.email", "tests@renamer.invalid")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the ana site, before the move")
    return root


def test_undo_dns_restores_the_old_snippets_byte_for_byte(lab: Lab, run: Run, tmp_path: Path) -> None:
    root = _repo(lab)
    assert run(root, "dns", "apply", "--resolvers", "all").exit_code == 0
    before = lab.snippets()
    assert addresses(lab, "ana-ml2.ana.lan") == {name: ("10.250.50.54",) for name in lab.instances}
    moved = run(root, "sweep", "--commit")
    assert moved.exit_code == 0, moved.stdout + moved.stderr
    # The DNS for the move, committed after it, and applied.
    for site in ("ana.yaml", "fv.yaml"):  # the move's own hosts only: nothing else changed since
        shutil.copy(Path(__file__).parents[2] / "dns" / "sites" / site, root / "dns" / "sites" / site)
    git(root, "commit", "-qam", "DNS for the fv site")
    applied = run(root, "dns", "apply", "--resolvers", "all", "--force")  # ana's records go: over 30 %
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert lab.snippets() != before
    assert addresses(lab, "fv-ml1.fv.lan") == {name: ("10.251.50.54",) for name in lab.instances}

    dry = run(root, "undo", "fv-ml1-move", "--dns", "--dry-run")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    assert "DNS as it was before the move (dry run):" in dry.stdout
    assert lab.snippets() != before  # a dry run writes nothing

    done = run(root, "undo", "fv-ml1-move", "--dns", "--force", "--format", "json")
    # HEAD's inventory (the fv site's DNS, committed after the move, which the git undo leaves) still
    # describes fv-ml1: `dns verify` at HEAD fails, so the undo is no bare OK (t25-34 finding 01)
    assert done.exit_code == 1, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "undone" and data["dns"]["ok"] is True
    assert any(d.startswith("fv-ml1.fv.lan (10.251.50.54) is in HEAD's inventory, not served")
               for d in data["dns"]["head_differs"]), data["dns"]
    assert "HEAD's inventory describes other records" in done.stderr
    assert run(root, "dns", "verify", "--resolvers", "all").exit_code == 1  # what the exit 1 said
    assert {r["resolver"] for r in data["dns"]["resolvers"]} == set(lab.instances)
    assert lab.snippets() == before  # byte for byte, made afresh from the old inventory
    # What the resolvers answer, asked straight over DNS.
    assert addresses(lab, "ana-ml2.ana.lan") == {name: ("10.250.50.54",) for name in lab.instances}
    assert addresses(lab, "fv-ml1.fv.lan") == {name: () for name in lab.instances}
    assert answers(lab, "54.50.250.10.in-addr.arpa", "PTR") == {name: ("ana-ml2.ana.lan.",)
                                                                for name in lab.instances}
    # dns verify passes against the old inventory (read where no renamer.yaml names the move).
    old = tmp_path / "old"
    write_files(old, {k: v for k, v in OLD_SITES.items()})
    shutil.copy(root / "dns" / "resolvers.yaml", old / "dns" / "resolvers.yaml")
    verified = run(old, "dns", "verify", "--resolvers", "all", "--inventory", str(old / "dns"))
    assert verified.exit_code == 0, verified.stdout + verified.stderr

    # A second undo changes nothing in git and leaves the resolvers as they are.
    head = git(root, "rev-parse", "HEAD").strip()
    again = run(root, "undo", "fv-ml1-move", "--dns", "--force")
    assert again.exit_code == 1, again.stdout + again.stderr  # HEAD's inventory still differs
    assert again.stdout.startswith("undo: nothing left to undo: fv-ml1-move was undone by")
    assert git(root, "rev-parse", "HEAD").strip() == head and lab.snippets() == before


def test_undo_dns_that_fails_on_a_resolver_rolls_every_resolver_back(lab: Lab, run: Run) -> None:
    script = lab.root / "run" / "ns-fv-test.sh"  # ns-fv's `test`, as the inventory at the move's parent names it
    script.write_text("exit 0\n")
    lab.write_resolvers(ns_fv={"test": ["sh", str(script)]})
    root = _repo(lab)
    assert run(root, "sweep", "--commit").exit_code == 0
    for site in ("ana.yaml", "fv.yaml"):
        shutil.copy(Path(__file__).parents[2] / "dns" / "sites" / site, root / "dns" / "sites" / site)
    git(root, "commit", "-qam", "DNS for the fv site")
    assert run(root, "dns", "apply", "--resolvers", "all", "--force").exit_code == 0
    served = lab.snippets()
    # ns-fv's test now fails once anything is written there: the undo's DNS part must roll back.
    script.write_text(shlex.join(lab.failing_test("ns-fv")["test"]) + "\n")  # type: ignore[arg-type]
    done = run(root, "undo", "fv-ml1-move", "--dns", "--force")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "undo: fv-ml1-move (" in done.stdout and "committed as " in done.stdout  # the git part stands
    assert "rolled back" in done.stdout
    assert lab.snippets() == served
    assert addresses(lab, "fv-ml1.fv.lan") == {name: ("10.251.50.54",) for name in lab.instances}


def test_undo_dns_lays_the_inverse_on_today_s_inventory(lab: Lab, run: Run) -> None:
    """t24-undo 06 (rest): a host added (and applied) after the move, and another renumbered: the
    parent's inventory would drop them from every resolver while HEAD keeps them, so the undo was
    refused. The inverse is now laid on today's inventory: the move's own hosts as before the
    move, every other host as HEAD has it. Asked over DNS on every resolver: the printer and the
    renumbered nas stay, ana-ml2 answers again, fv-ml1 is gone. A site added since is refused."""
    root = _repo(lab)
    assert run(root, "dns", "apply", "--resolvers", "all").exit_code == 0
    assert run(root, "sweep", "--commit").exit_code == 0
    for site in ("ana.yaml", "fv.yaml"):
        shutil.copy(Path(__file__).parents[2] / "dns" / "sites" / site, root / "dns" / "sites" / site)
    ana = (root / "dns/sites/ana.yaml").read_text()
    (root / "dns/sites/ana.yaml").write_text(
        ana.replace("retired:", "  - name: ana-printer\n    address: 10.250.20.77\nretired:"))
    nas = (root / "dns/sites/ana.yaml").read_text()  # and an address changed since the move
    (root / "dns/sites/ana.yaml").write_text(nas.replace("10.250.20.10", "10.250.20.11"))
    git(root, "commit", "-qam", "DNS for the fv site, a printer, the nas renumbered")
    assert run(root, "dns", "apply", "--resolvers", "all", "--force").exit_code == 0
    everywhere = set(lab.instances)
    assert addresses(lab, "fv-ml1.fv.lan") == {name: ("10.251.50.54",) for name in everywhere}
    (root / "dns/sites/lab.yaml").write_text("site: lab\ndomain: lab.lan\nnetwork: 10.252.0.0/16\nhosts:\n"
                                             "  - name: lab-gw\n    address: 10.252.0.1\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "a lab site")
    head = git(root, "rev-parse", "HEAD").strip()
    served = lab.snippets()
    refused = run(root, "undo", "fv-ml1-move", "--dns", "--force")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert "the undo cannot be laid on today's inventory: its sites changed (lab added or removed" in refused.stderr
    assert git(root, "rev-parse", "HEAD").strip() == head and lab.snippets() == served
    # t25-34 finding 16: in JSON the same document as the git part's refusals, the reason in `refused`
    doc = run(root, "undo", "fv-ml1-move", "--dns", "--force", "--format", "json")
    assert doc.exit_code == 3, doc.stdout + doc.stderr
    data = json.loads(doc.stdout)
    assert data["status"] == "refused" and data["commit"] is None
    assert {r["kind"] for r in data["refused"]} == {"dns"}
    assert any("its sites changed (lab added or removed" in r["message"] for r in data["refused"]), data
    git(root, "rm", "-q", "dns/sites/lab.yaml")
    git(root, "commit", "-qm", "no lab site after all")
    done = run(root, "undo", "fv-ml1-move", "--dns", "--force", "--format", "json")
    # HEAD's inventory still describes the move (its DNS commit came after it): said, exit 1 (t25-34 01)
    assert done.exit_code == 1, done.stdout + done.stderr
    assert json.loads(done.stdout)["dns"]["ok"] is True and json.loads(done.stdout)["dns"]["head_differs"]
    assert "HEAD's inventory describes other records" in done.stderr
    assert addresses(lab, "ana-printer.ana.lan") == {name: ("10.250.20.77",) for name in everywhere}
    assert addresses(lab, "ana-nas.ana.lan") == {name: ("10.250.20.11",) for name in everywhere}
    assert addresses(lab, "ana-ml2.ana.lan") == {name: ("10.250.50.54",) for name in everywhere}
    assert addresses(lab, "fv-ml1.fv.lan") == {name: () for name in everywhere}
    assert addresses(lab, "fv-gw.fv.lan") == {name: ("10.251.0.1",) for name in everywhere}
    assert answers(lab, "54.50.250.10.in-addr.arpa", "PTR") == {name: ("ana-ml2.ana.lan.",) for name in everywhere}


def _moved_and_applied(lab: Lab, run: Run) -> Path:
    """The old inventory applied, the move swept and committed, the fv site's DNS committed and
    applied on every resolver the inventory lists."""
    root = _repo(lab)
    assert run(root, "dns", "apply", "--resolvers", "all").exit_code == 0
    assert run(root, "sweep", "--commit").exit_code == 0
    for site in ("ana.yaml", "fv.yaml"):
        shutil.copy(Path(__file__).parents[2] / "dns" / "sites" / site, root / "dns" / "sites" / site)
    git(root, "commit", "-qam", "DNS for the fv site")
    return root


def test_undo_dns_applies_to_the_resolvers_of_today(lab: Lab, run: Run) -> None:
    """t25-34 finding 14: ns-fv joined resolvers.yaml after the move. The undo takes the records
    from the move's parent, the fleet from HEAD: ns-fv is undone too (asked over DNS)."""
    everyone = lab.instances
    lab.instances = {k: v for k, v in everyone.items() if k != "ns-fv"}
    lab.write_resolvers()
    lab.instances = everyone
    root = _moved_and_applied(lab, run)
    lab.write_resolvers()
    git(root, "commit", "-qam", "ns-fv joins the fleet")
    applied = run(root, "dns", "apply", "--resolvers", "all", "--force")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert addresses(lab, "fv-ml1.fv.lan") == {name: ("10.251.50.54",) for name in lab.instances}

    done = run(root, "undo", "fv-ml1-move", "--dns", "--force")
    assert done.exit_code == 1, done.stdout + done.stderr  # HEAD's inventory still says fv-ml1 (finding 01)
    assert "ns-fv" in done.stdout
    assert addresses(lab, "fv-ml1.fv.lan") == {name: () for name in lab.instances}
    assert addresses(lab, "ana-ml2.ana.lan") == {name: ("10.250.50.54",) for name in lab.instances}


def test_undo_dns_refuses_an_alias_added_since_to_the_moved_host(lab: Lab, run: Run) -> None:
    """t25-34 finding 01: an alias given to fv-ml1 after the move is no part of the move: the
    parent's inventory would drop it from every resolver. Refused, naming it; it still answers."""
    root = _moved_and_applied(lab, run)
    assert run(root, "dns", "apply", "--resolvers", "all", "--force").exit_code == 0
    fv = (root / "dns/sites/fv.yaml").read_text()
    assert "aliases: [scriberr]" in fv
    (root / "dns/sites/fv.yaml").write_text(fv.replace("aliases: [scriberr]", "aliases: [scriberr, gpu]"))
    git(root, "commit", "-qam", "fv-ml1 also answers as gpu.fv.lan")
    assert run(root, "dns", "apply", "--resolvers", "all").exit_code == 0
    head = git(root, "rev-parse", "HEAD").strip()
    done = run(root, "undo", "fv-ml1-move", "--dns", "--force")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert ("fv-ml1.fv.lan (the move's own host) changed since the move: aliases scriberr after the move, "
            "gpu,scriberr now") in done.stderr, done.stderr
    assert git(root, "rev-parse", "HEAD").strip() == head
    assert addresses(lab, "gpu.fv.lan") == {name: ("10.251.50.54",) for name in lab.instances}
    assert run(root, "dns", "verify", "--resolvers", "all").exit_code == 0
