"""policy_denies.py on YAML (outside pass round 7, issue 33): Ansible ufw tasks, ingress-nginx
annotations, AdminNetworkPolicy and Cilium deny rules beside the allow of a network."""

from __future__ import annotations

import ipaddress

from renamer import policy_denies


def _rules(text: str) -> list[tuple[list[str], list[str]]]:
    data = text.encode()
    wanted = {ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("2001:db8:a::/48")}
    return [([str(n) for n in inc], [data[s:e].decode() for s, e, _ in exc])
            for inc, exc, _ in policy_denies.rules(data, wanted)]


UFW = ("- hosts: all\n  tasks:\n  - ufw:\n      rule: deny\n      from_ip: 10.0.48.0/25\n"
       "  - community.general.ufw:\n      rule: allow\n      src: 10.0.48.0/24\n      port: '443'\n")


def test_ansible_ufw_tasks_in_order() -> None:
    assert _rules(UFW) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _rules(UFW.replace("rule: deny", "rule: deny\n      port: '22'")) == []  # ssh alone
    assert _rules(UFW.replace("rule: deny", "rule: deny\n      insert: 1")) == []  # not read
    swapped = UFW.replace("rule: deny", "rule: X").replace("rule: allow", "rule: deny").replace("rule: X", "rule: allow")
    assert _rules(swapped) == []  # the allow (of the /25) first


def test_ansible_ufw_loops_and_conditions() -> None:
    looped = ("- ufw:\n    rule: reject\n    src: '{{ item }}'\n  loop:\n    - 10.0.49.0/24\n    - 10.0.48.0/25\n"
              "- ufw:\n    rule: allow\n    src: '{{ item }}'\n  loop: [10.0.48.0/24]\n")
    assert _rules(looped) == [(["10.0.48.0/24"], ["10.0.49.0/24", "10.0.48.0/25"])]  # both before it
    conditional = looped.replace("  loop:\n    - 10.0.49", "  when: strict | bool\n  loop:\n    - 10.0.49")
    assert _rules(conditional) == []  # the deny may not run


def test_ingress_nginx_denylist_beside_its_allowlist() -> None:
    text = ("metadata:\n  annotations:\n    nginx.ingress.kubernetes.io/whitelist-source-range: "
            "10.1.0.0/16, 10.0.48.0/24\n    nginx.ingress.kubernetes.io/denylist-source-range: '10.0.48.0/25'\n")
    assert _rules(text) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    apart = ("a:\n  annotations:\n    nginx.ingress.kubernetes.io/allowlist-source-range: 10.0.48.0/24\n---\n"
             "b:\n  annotations:\n    nginx.ingress.kubernetes.io/denylist-source-range: 10.0.48.0/25\n")
    assert _rules(apart) == []  # two Ingresses
    configmap = "data:\n  whitelist-source-range: 10.0.48.0/24\n  blacklist-source-range: 10.0.48.0/25\n"
    assert _rules(configmap) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]


ANP = ("kind: AdminNetworkPolicy\nspec:\n  priority: 5\n  subject: {namespaces: {}}\n  egress:\n"
       "  - action: Deny\n    to:\n    - networks: [10.0.48.0/25]\n  - action: Allow\n    to:\n"
       "    - networks: [10.0.48.0/24]\n")


def test_admin_network_policies_by_priority_and_order() -> None:
    assert _rules(ANP) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _rules(ANP.replace("Deny", "Pass")) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _rules(ANP.replace("action: Deny", "action: Deny\n    ports: [{portNumber: {port: 22}}]")) == []
    two = ("kind: BaselineAdminNetworkPolicy\nspec:\n  subject: {namespaces: {}}\n  egress:\n"
           "  - action: Deny\n    to:\n    - networks: [10.0.48.0/25]\n---\n"
           "kind: AdminNetworkPolicy\nspec:\n  priority: 9\n  subject: {namespaces: {}}\n  egress:\n"
           "  - action: Allow\n    to:\n    - networks: [10.0.48.0/24]\n")
    assert _rules(two) == []  # the baseline comes after every AdminNetworkPolicy
    low = two.replace("kind: BaselineAdminNetworkPolicy\nspec:\n", "kind: AdminNetworkPolicy\nspec:\n  priority: 1\n")
    assert _rules(low) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]


def test_cilium_deny_wins_in_one_selector() -> None:
    text = ("kind: CiliumNetworkPolicy\nspec:\n  endpointSelector: {matchLabels: {app: a}}\n  egress:\n"
            "  - toCIDRSet:\n    - cidr: 10.0.48.0/24\n  egressDeny:\n  - toCIDR:\n    - 10.0.48.0/25\n")
    assert _rules(text) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _rules(text.replace("egressDeny", "ingressDeny").replace("toCIDR:", "fromCIDR:")) == []
    ported = text + "    toPorts:\n    - ports:\n      - port: '22'\n"
    assert _rules(ported) == []
    clusterwide = text.replace("CiliumNetworkPolicy", "CiliumClusterwideNetworkPolicy")
    assert len(_rules(clusterwide)) == 1


def test_not_yaml_or_templated_reads_nothing() -> None:
    assert _rules("kind: AdminNetworkPolicy\nspec: [\n") == []
    assert _rules(UFW.replace("10.0.48.0/25", "'{{ printers }}'")) == []
