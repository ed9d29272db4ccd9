"""State a tool writes, other than Terraform's (break-it round 24, finding 13): a Pulumi file-backend
checkpoint (URN, provider id, inputs, outputs), Packer's `packer-manifest.json` and an Ansible
jsonfile fact cache entry (`facts/pug`, renamed too) were rewritten, sweep 0, verify --strict OK.
Now each old value there is a `state-name` residual, the file byte for byte as it was and its path
kept; the Pulumi program and its stack config, and an inventory's host_vars JSON, still move."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

URN = "urn:pulumi:dev::infra::proxmoxve:VM/virtualMachine:VirtualMachine::pug"
CHECKPOINT = json.dumps({"version": 3, "checkpoint": {"stack": "organization/infra/dev", "latest": {
    "manifest": {"time": "2024-05-01T10:00:00Z", "magic": "abc", "version": "v3.100.0"},
    "resources": [{"urn": URN, "custom": True, "id": "pug", "type": "proxmoxve:VM/virtualMachine:VirtualMachine",
                   "inputs": {"name": "pug"}, "outputs": {"name": "pug", "fqdn": "pug.ana.lan"}}]}}}, indent=4)
EXPORT = json.dumps({"version": 3, "deployment": {"manifest": {}, "resources": [
    {"urn": URN, "custom": True, "id": "pug", "outputs": {"fqdn": "pug.ana.lan"}}]}}, indent=2)
PACKER = json.dumps({"builds": [{"name": "pug", "builder_type": "proxmox-iso", "build_time": 1714557600,
                                 "artifact_id": "pug", "packer_run_uuid": "x"}], "last_run_uuid": "x"})
CHEF_NODE = json.dumps({"name": "pug", "chef_environment": "_default", "json_class": "Chef::Node",
                        "automatic": {"hostname": "pug", "ipaddress": "10.0.0.5", "fqdn": "pug.ana.lan"},
                        "run_list": ["role[web]"]}, indent=2)
KNIFE_NODE = json.dumps({"name": "pug", "chef_type": "node", "automatic": {"fqdn": "pug.ana.lan"},
                         "normal": {"tags": []}})
CHEF_CLIENT = json.dumps({"name": "pug", "json_class": "Chef::ApiClient", "chef_type": "client",
                          "public_key": "-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----\n"}, indent=2)
PUPPET_FACTS = ("--- !ruby/object:Puppet::Node::Facts\nname: pug.ana.lan\nvalues:\n  hostname: pug\n"
                "  fqdn: pug.ana.lan\n  ipaddress: 10.0.0.5\n")
FACTS = json.dumps({"ansible_hostname": "pug", "ansible_fqdn": "pug.ana.lan",
                    "ansible_default_ipv4": {"address": "10.0.0.5"}}, indent=4)

# name: (path, content, the path keeps its name)
HELD: dict[str, tuple[str, str | bytes]] = {
    "pulumi-checkpoint": (".pulumi/stacks/infra/dev.json", CHECKPOINT + "\n"),
    "pulumi-history": (".pulumi/history/infra/dev/dev-1714557600.checkpoint.json", CHECKPOINT + "\n"),
    "pulumi-stack-export": ("state/dev-export.json", EXPORT + "\n"),
    "packer-manifest": ("packer/packer-manifest.json", PACKER + "\n"),
    "fact-cache": ("facts/pug", FACTS + "\n"),
    # round 25, finding 08: Chef's node and client objects, Puppet's cached facts
    "chef-node": ("nodes/pug.json", CHEF_NODE + "\n"),
    "chef-node-crlf-bom": ("nodes/pug.ana.lan.json", b"\xef\xbb\xbf" + CHEF_NODE.replace("\n", "\r\n").encode()),
    "knife-node-show": ("export/pug.json", KNIFE_NODE + "\n"),
    "chef-client": ("clients/pug.json", CHEF_CLIENT + "\n"),
    "fact-cache-crlf-bom": ("cache/pug.ana.lan", b"\xef\xbb\xbf" + FACTS.replace("\n", "\r\n").encode() + b"\r\n"),
}
MOVES: dict[str, tuple[str, str, str]] = {
    "chef-role": ("roles/web.json", '{"name": "web", "json_class": "Chef::Role", "default_attributes": '
                  '{"db": "pug.ana.lan"}}\n', '{"name": "web", "json_class": "Chef::Role", "default_attributes": '
                  '{"db": "wolf.fv.lan"}}\n'),
    "pulumi-program": ("index.ts", 'new proxmox.vm.VirtualMachine("pug", { name: "pug" });\n',
                       'new proxmox.vm.VirtualMachine("wolf", { name: "wolf" });\n'),
    "pulumi-stack-config": ("Pulumi.dev.yaml", "config:\n  infra:hostname: pug.ana.lan\n",
                            "config:\n  infra:hostname: wolf.fv.lan\n"),
    "host-vars-json": ("host_vars/all.json", '{"ansible_host": "pug.ana.lan", "ansible_user": "ops"}\n',
                       '{"ansible_host": "wolf.fv.lan", "ansible_user": "ops"}\n'),
    "packer-template": ("build.pkr.json", '{"builders": [{"type": "proxmox-iso", "vm_name": "pug"}]}\n',
                        '{"builders": [{"type": "proxmox-iso", "vm_name": "wolf"}]}\n'),
}


HELD["puppet-facts"] = ("puppet/yaml/facts/pug.ana.lan.yaml", PUPPET_FACTS)


@pytest.mark.parametrize("case", sorted(HELD))
def test_round24_a_tools_own_state_is_held(case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, content = HELD[case]
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    before = (root / path).read_bytes()
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    held = [f for f in found if f["path"] == path]
    assert held and all(f.get("reason") == "state-name" for f in held), found
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / path).read_bytes() == before  # nothing rewritten, the path kept
    if path.endswith(".yaml"):
        assert before.startswith(b"--- !ruby/object:Puppet::Node::Facts")
    else:
        json.loads(before.decode("utf-8-sig"))  # still the tool's JSON
    assert run(root, "verify").exit_code == 1
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert path in tracked.splitlines()


@pytest.mark.parametrize("case", sorted(MOVES))
def test_round24_a_tools_input_still_moves(case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, text, after = MOVES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0
