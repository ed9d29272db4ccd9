"""State a tool writes about the world, other than Terraform's (break-it round 24, finding 13;
terraform_state.py holds Terraform's).

A Pulumi checkpoint (the file backend's `.pulumi/stacks/PROJECT/STACK.json`, its `history/` and
`backups/`, a `pulumi stack export`) records each resource's URN and provider `id`: rewritten,
`pulumi up` sees no diff while the real resource keeps the old name, or a refresh drops the id and a
second resource is created beside the orphan. Packer's `packer-manifest.json` records the builds it
made, and an Ansible fact cache entry (the `jsonfile` plugin's file per host, named after the host)
records what was gathered from a machine: rewritten, they claim an artifact or facts that never
existed. Each is recognised by what the tool writes in it, wherever it lies; its old values are
`state-name` residuals (the tool rewrites its own state: `pulumi state rename`, `pulumi refresh`, the
next `packer build`, the next fact gathering), and its path keeps its name. Round 25 (finding 08):
a Chef node or client object (chef-zero / knife local mode's `nodes/NAME.json`, `knife node show -F
json`: `"json_class": "Chef::Node"` or `"chef_type": "node"`, with Ohai's `automatic` facts; a client's
`Chef::ApiClient`, its key registered under the name) and Puppet's cached facts
(`--- !ruby/object:Puppet::Node::Facts`, `yaml/facts/NAME.yaml`). Pure: bytes in.
"""

from __future__ import annotations

from renamer import lazy_re

LITERALS = (b"urn:pulumi:", b"packer_run_uuid", b"ansible_", b"Chef::", b"chef_type", b"Puppet::Node::Facts")

_PULUMI = lazy_re.compile(rb'"urn"\s*:\s*"urn:pulumi:')
_PACKER = lazy_re.compile(rb'"packer_run_uuid"\s*:')
_CHEF_NODE = lazy_re.compile(rb'"(?:json_class"\s*:\s*"Chef::Node|chef_type"\s*:\s*"node)"')
_CHEF_CLIENT = lazy_re.compile(rb'"(?:json_class"\s*:\s*"Chef::ApiClient|chef_type"\s*:\s*"client)"')
_PUPPET_FACTS = lazy_re.compile(rb"\A(?:\xef\xbb\xbf)?---[ \t]+!ruby/object:Puppet::Node::Facts\b")
# facts only gathering writes (a vars file sets `ansible_host`, never these)
_FACTS = (b'"ansible_default_ipv4"', b'"ansible_machine_id"', b'"ansible_nodename"', b'"ansible_fqdn"',
          b'"ansible_hostname"', b'"ansible_distribution"', b'"ansible_kernel"')


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS)


def written_by(data: bytes) -> str | None:
    """Which tool wrote `data` as its own state, in words, or None."""
    if b"Puppet::Node::Facts" in data and _PUPPET_FACTS.search(data):
        return ("Puppet's cached facts of a node (`yaml/facts/NAME.yaml`), gathered by Facter on the "
                "machine: the next agent run writes the renamed node's own; rewritten (or renamed), they "
                "claim facts that were never gathered")
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return None
    if (b"Chef::Node" in data or b"chef_type" in data) and _CHEF_NODE.search(data):
        return ("a Chef node object (`nodes/NAME.json` of chef-zero or knife, Ohai's `automatic` facts): the "
                "Chef server knows the machine's client key by the node's name and the next chef-client run "
                "writes its own facts; rewritten (or renamed), a `knife upload` makes a second node that "
                "claims facts Ohai never gathered: rename the node with `knife node rename` (and its client)")
    if (b"Chef::ApiClient" in data or b"chef_type" in data) and _CHEF_CLIENT.search(data):
        return ("a Chef API client object (`clients/NAME.json`): the machine's key is registered under the "
                "client's name; rewritten (or renamed), the client no longer matches its key: re-register "
                "the machine's client under the new name")
    if b"urn:pulumi:" in data and _PULUMI.search(data):
        return ("a Pulumi checkpoint (resource URNs and provider ids): `pulumi state rename` or `pulumi "
                "refresh` rewrites it, never a text edit, or `pulumi up` sees no diff while the resource "
                "keeps its old name")
    if b"packer_run_uuid" in data and _PACKER.search(data):
        return ("Packer's build manifest, a record of the artifacts a build made: the next `packer build` "
                "appends to it; rewritten, it claims an artifact that was never built")
    if sum(1 for word in _FACTS if word in data) >= 2:
        return ("an Ansible fact cache entry, the facts gathered from a machine: the next gathering writes "
                "the renamed host's own; rewritten (or renamed), it claims facts that were never gathered")
    return None
