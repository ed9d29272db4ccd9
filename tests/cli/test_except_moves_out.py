"""t37-break, finding 10 (onedr0p/home-ops' runner policy): a move of the same length carried an
`except` entry out of the cidr it is excepted from (`cidr: 192.168.0.0/16, except: [192.168.42.0/24]`
under `192.168.42.0/24: 10.20.42.0/24`), written without a word, and Kubernetes and Cilium reject
an except that is not strictly inside its cidr; and the cidr was called a lost admission with
advice ("add the new network beside it") that would invert the rule. The except is refused now
(`tool-refuses`, as for a resized move), the cidr says nothing."""

from __future__ import annotations

import json

import pytest

from tests.testing.repos import Repo, Run, snapshot

CONFIG = "version: 1\nrenames:\n  networks: {192.168.42.0/24: 10.20.42.0/24}\nallowlist: allow.yaml\n"
ALLOW = 'version: 1\ncurrent: ["**"]\n'
CILIUM = ("apiVersion: cilium.io/v2\nkind: CiliumNetworkPolicy\nmetadata:\n  name: runner\nspec:\n"
          "  endpointSelector: {}\n  egressDeny:\n    - toCIDRSet:\n        - cidr: 192.168.0.0/16\n"
          "          except:\n            - 192.168.42.0/24\n")
NETPOL = ("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: lan}\nspec:\n"
          "  podSelector: {}\n  egress:\n    - to:\n        - ipBlock:\n            cidr: 192.168.0.0/16\n"
          "            except:\n              - 192.168.42.0/24\n")
FLOW = "egress:\n  - to:\n      - ipBlock: {cidr: 192.168.0.0/16, except: [192.168.42.0/24]}\n"


@pytest.mark.parametrize("rel, text", [("cilium.yaml", CILIUM), ("netpol.yaml", NETPOL), ("flow.yaml", FLOW)])
def test_an_except_carried_out_of_its_cidr_is_refused_and_the_cidr_says_nothing(repo: Repo, run: Run, rel: str,
                                                                                text: str) -> None:
    root = repo({rel: text}, config=CONFIG, allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "not strictly inside 192.168.0.0/16" in done.stderr
    assert snapshot(root) == before
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    reasons = sorted((f["old"], f["reason"]) for f in found if f["status"] == "residual")
    assert reasons == [("192.168.42.0/24", "tool-refuses")], reasons  # no wide-set at the cidr


def test_an_except_that_stays_inside_its_cidr_moves_with_it(repo: Repo, run: Run) -> None:
    """The cidr moves too (`192.168.0.0/16` is not the moved network, but a /24 moving inside it):
    `192.168.42.0/24 -> 192.168.52.0/24` keeps the except inside; written, verify OK."""
    config = CONFIG.replace("10.20.42.0/24", "192.168.52.0/24")
    root = repo({"netpol.yaml": NETPOL}, config=config, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "netpol.yaml").read_text() == NETPOL.replace("192.168.42.0/24", "192.168.52.0/24")
    assert run(root, "verify", "--strict").exit_code == 0


ADDRESS = "version: 1\nrenames:\n  addresses: {192.168.42.5: 10.20.42.5}\nallowlist: allow.yaml\n"


@pytest.mark.parametrize("rel, text", [("cilium.yaml", CILIUM), ("netpol.yaml", NETPOL), ("flow.yaml", FLOW)])
def test_an_address_renamed_out_of_the_cidr_it_is_excepted_from_is_refused(repo: Repo, run: Run, rel: str,
                                                                          text: str) -> None:
    """t38-break finding 06: the same under an address rename (`except: [192.168.42.5/32]`, the host
    renamed 10.20.42.5): written outside its cidr, and the cidr called a lost admission though the
    host was excluded. Refused now, the cidr says nothing; an except that stays inside follows."""
    text = text.replace("192.168.42.0/24", "192.168.42.5/32")
    root = repo({rel: text}, config=ADDRESS, allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "not strictly inside 192.168.0.0/16" in done.stderr
    assert snapshot(root) == before
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert sorted(f["reason"] for f in found if f["status"] == "residual") == ["tool-refuses"], found


def test_an_address_renamed_inside_the_cidr_it_is_excepted_from_follows(repo: Repo, run: Run) -> None:
    text = NETPOL.replace("192.168.42.0/24", "192.168.42.5/32")
    root = repo({"netpol.yaml": text}, config=ADDRESS.replace("10.20.42.5", "192.168.43.5"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "netpol.yaml").read_text() == text.replace("192.168.42.5/32", "192.168.43.5/32")
