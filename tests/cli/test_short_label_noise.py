"""Short-label near-misses only where the label is a host name (break-it round 23, finding 04).

On sashgorokhov/kubernetes-training, `puppet.example.com -> pm.example.com` alone made 1,562
near-misses: every `Puppet::Parser::Functions` (the product's Ruby namespace, another case) and
every path under `puppet/modules/...` (the product's folder). Now, outside DNS files, a short label
counts only in its own case, and in a path only directly under a folder of machines
(`host_vars/puppet/`, `hosts/puppet.nix`); the lower-case label standing alone in text still counts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = "version: 1\nrenames:\n  hosts: {puppet.example.com: pm.example.com, grafana.lab.example: mon.lab.example}\n" \
         "allowlist: allow.yaml\n"
RUBY = ("module Puppet::Parser::Functions\n  newfunction(:f, :type => :rvalue) do |args|\n"
        "    raise(Puppet::ParseError, \"f(): Wrong number of arguments\") if args.size != 1\n  end\nend\n")
# the product's names in other cases and its folders: no near-miss
QUIET = {
    **{f"puppet/modules/stdlib/lib/puppet/parser/functions/f{i}.rb": RUBY for i in range(5)},
    "puppet/manifests/site.pp": "class { 'Puppet': }\n$PUPPET_ENV = 'production'\n",
    "roles/grafana/tasks/main.yml": "- name: Install Grafana\n  apt: {name: GRAFANA_PKG}\n",
    "docs/Grafana.md": "# Grafana\n\nGrafana dashboards live in `dashboards/`.\n",
    "puppet/puppet.conf": "server = puppet.example.com\n",
    # lower case, as another thing's word: a hyphenated name, a path, a namespace, a scheme, a fence
    "Gemfile": "gem 'puppet-lint'\nrequire 'puppet/parser'\n",
    "puppet/manifests/init.pp": "include puppet::params\nfile { '/x': source => 'puppet:///modules/x' }\n",
    "docs/run.md": "```puppet\nnotify { 'x': }\n```\n",
}
# the label as a host name: still said
SAID = {
    "ssh.sh": ("ssh puppet uptime\n", 1),
    "scp.sh": ("scp x GRAFANA:/tmp\n", 1),  # all upper: a host name shouted, still said
    "agent.sh": ("curl -k https://puppet:8140/status\n", 1),  # a URL's host: still said
    "host_vars/grafana/main.yml": ("port: 3000\n", 0),
}


def test_round23_no_short_label_noise_from_the_product(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {**QUIET, **{path: text for path, (text, _) in SAID.items()}}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "puppet/puppet.conf").read_text() == "server = pm.example.com\n"
    document = json.loads(run(root, "verify", "--format", "json").stdout)
    assert document["findings"] == []
    near = {(f["path"], f["line"]): f["why"] for f in document["near_misses"]}
    assert near == {("ssh.sh", 1): "short-label", ("scp.sh", 1): "short-label", ("agent.sh", 1): "short-label",
                    ("host_vars/grafana/main.yml", 0): "short-label, in the path"}
    plain = run(root, "verify")
    assert plain.exit_code == 0 and "4 near-misses" in plain.stdout
    assert run(root, "verify", "--strict").exit_code == 1  # the four that matter still fail the gate


def test_round23_in_a_dns_file_any_case_is_still_said(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"hosts": "10.0.0.5 GRAFANA\n"}, config=CONFIG, allowlist=ALLOW)
    near = json.loads(run(root, "verify", "--format", "json").stdout)["near_misses"]
    assert [(f["path"], f["line"], f["why"]) for f in near] == [("hosts", 1, "short-label")]
