"""Fleet realities: an unreachable resolver is named `unreachable` and the others go on, as
far as the failure budget allows. Real dnsmasq (and a real loopback sshd that is not there)."""

from __future__ import annotations

import re

from tests.testing.resolvers import Lab, addresses, dns, move_gateway

GW = "fv-gw.fv.lan"


def _unreachable(lab: Lab, sshd) -> None:  # type: ignore[no-untyped-def]
    # A port nothing listens on, through the test sshd's own client config.
    lab.write_resolvers(ns_ana2={"target": "ssh://root@127.0.0.1:1", "ssh_config": str(sshd.client_config)})


def test_plan_names_an_unreachable_resolver_and_plans_the_others(run, lab: Lab, sshd) -> None:
    _unreachable(lab, sshd)
    plan = dns(run, lab, "plan", "--resolvers", "all")
    assert plan.exit_code == 1
    assert re.search(r"== ns-ana2 \(ssh://root@127\.0\.0\.1:1, .*\): unreachable\nerror: ns-ana2 "
                     r"\(ssh://root@127\.0\.0\.1:1\): ssh failed: .*Connection refused", plan.stdout), plan.stdout
    assert plan.stdout.count("2 snippets to change") == 2  # ns-ana and ns-fv planned all the same
    document = dns(run, lab, "plan", "--resolvers", "all", "--format", "json")
    assert '"unreachable": "ns-ana2 (ssh://root@127.0.0.1:1): ssh failed: ' in document.stdout


def test_apply_goes_on_without_it_within_the_failure_budget(run, lab: Lab, sshd) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    _unreachable(lab, sshd)
    move_gateway(lab)
    refused = dns(run, lab, "apply", "--resolvers", "all")  # all or nothing: nothing
    assert refused.exit_code == 1
    assert refused.stdout.endswith("dns apply: FAILED, nothing was changed\n")
    assert addresses(lab, GW, "ns-ana", "ns-fv") == {"ns-ana": ("10.251.0.1",), "ns-fv": ("10.251.0.1",)}
    applied = dns(run, lab, "apply", "--resolvers", "all", "--max-fail-percent", "34")
    assert applied.exit_code == 1
    assert re.search(r"ns-ana2 +ssh://root@127\.0\.0\.1:1 +failed +preflight FAILED", applied.stdout)
    assert "\nns-ana2: unreachable: ns-ana2 (ssh://root@127.0.0.1:1): ssh failed: " in applied.stdout
    assert "dns apply: FAILED: 2 applied and kept; 0 rolled back; 0 not reached" in applied.stdout
    # What the resolvers answer: the reachable ones moved; the one renamer could not reach did not.
    assert addresses(lab, GW) == {"ns-ana": ("10.251.0.2",), "ns-ana2": ("10.251.0.1",),
                                  "ns-fv": ("10.251.0.2",)}
