"""A host's name as an identity a tool keeps state under, in the spellings state_keys.py's key rules
do not read (break-it round 25, finding 02): the tool's own documented flag and environment forms
of the same identity, and a cluster node's name wherever the cluster's API or its IaC provider
names it.

- Back In Time's snapshot host (`profile1.snapshots.path.host=NAME`: its snapshots lie under
  `<path>/backintime/NAME/<user>/<profile>/`);
- a Consul agent's node name as the flag `-node=NAME` or `CONSUL_NODE_NAME` (its `node_name` key
  is state_keys.py's);
- a Proxmox cluster node in the API's path (`pvesh get /nodes/NAME/qemu`, `/api2/json/nodes/NAME`,
  proxmoxer's `.nodes("NAME")`), Terraform Telmate's `target_node`, bpg's `node_name` in a file
  naming proxmox, an Ansible `proxmox*` module's `node:`;
- a Kubernetes node's name: k3s/RKE2 `node-name:`, `--node-name`, `K3S_NODE_NAME`/`RKE2_NODE_NAME`,
  kubelet's `--hostname-override`, kubeadm's `nodeRegistration.name` (the Node object, k3s's
  `NAME.node-password.k3s` secret and the node's local volumes stay under the old name);
- borg archive names a later run selects by prefix: borgmatic's `archive_name_format`,
  `match_archives`/`glob_archives`/`prefix`, borg's `--glob-archives`/`--match-archives`/`-a`/
  `--prefix` (prune and check select only the archives the pattern names).

Pure: bytes in, a short description of what keys state out.
"""

from __future__ import annotations

import re

from renamer import lazy_re

# Words one of which a file holding such a key spells (a cheap gate before any line is read).
LITERALS = (b"snapshots.path.host", b"-node", b"NODE_NAME", b"/nodes/", b".nodes", b"target_node",
            b"node-name", b"node_name", b"hostname-override", b"nodeRegistration", b"archive_name_format",
            b"match_archives", b"glob_archives", b"match-archives", b"glob-archives", b"borg", b"proxmox")

_V = rb"[\"']?(?P<v>[A-Za-z0-9][A-Za-z0-9._-]*)"  # a flag's or key's value, quoted or not
_BIT = "Back In Time's snapshot host (`snapshots.path.host`: the snapshots lie under `backintime/NAME/`)"
_CONSUL = "a Consul agent's node name (the catalog and raft peer set know the node by it)"
_PVE = "a Proxmox cluster node (its guests and config live under `/etc/pve/nodes/NAME/`)"
_KUBE = ("a Kubernetes node's name (the Node object, k3s's `NAME.node-password.k3s` secret, its local "
         "volumes and an embedded etcd member stay under it)")
_BORG = ("a borg archive name prefix (prune and check select the archives by it: the old ones are never "
         "pruned or checked again)")

# (line regex, what keys state, words one of which the line, the file's name or (where the flag is
# True) the file must hold, or None): the `v` group is the key.
_RULES: tuple[tuple[re.Pattern[bytes], str, tuple[bytes, ...] | None, bool], ...] = (
    (re.compile(rb"\bsnapshots\.path\.host[ \t]*=[ \t]*" + _V), _BIT, None, False),
    (re.compile(rb"(?:^|[\s\"'\[,])-{1,2}node[= ]+" + _V), _CONSUL, (b"consul",), True),
    (re.compile(rb"\bCONSUL_NODE_NAME[\"']?\s*[=:]\s*" + _V), _CONSUL, None, False),
    (re.compile(rb"/nodes/(?P<v>[A-Za-z0-9][A-Za-z0-9._-]*)"), _PVE, (b"pvesh", b"api2/", b"proxmox"), False),
    (re.compile(rb"\.nodes(?:\(\s*[\"']|\.)(?P<v>[A-Za-z0-9][A-Za-z0-9_-]*)"), _PVE, (b"proxmox",), True),
    (re.compile(rb"\btarget_node[\"']?\s*[=:]\s*" + _V), _PVE, (b"proxmox",), True),
    (re.compile(rb"\bnode_name[\"']?\s*[=:]\s*" + _V), _PVE, (b"proxmox",), True),
    (re.compile(rb"(?:^|[\s\"'\[,])--node-name[= ]+" + _V), _KUBE, None, False),
    (re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*[\"']?node-name[\"']?[ \t]*:[ \t]*" + _V), _KUBE, None, False),
    (re.compile(rb"\b(?:K3S|RKE2)_NODE_NAME[\"']?\s*[=:]\s*" + _V), _KUBE, None, False),
    (re.compile(rb"--hostname-override[= ]+" + _V), _KUBE, None, False),
    (re.compile(rb"\barchive_name_format[\"']?\s*[=:]\s*" + _V), _BORG, None, False),
    (re.compile(rb"\b(?:match_archives|glob_archives)[\"']?\s*[=:]\s*[\"']?(?:sh:|re:\^?|pp:|fm:)?"
                rb"(?P<v>[A-Za-z0-9][A-Za-z0-9._-]*)"), _BORG, None, False),
    (re.compile(rb"(?:--match-archives|--glob-archives|--prefix|\s-[aP])[= ]+[\"']?(?:sh:|re:\^?|pp:|fm:)?"
                rb"(?P<v>[A-Za-z0-9][A-Za-z0-9._-]*)"), _BORG, (b"borg",), False),
    (re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*prefix[ \t]*:[ \t]*" + _V), _BORG,
     (b"borgmatic", b"archive_name_format"), True),
)

_YAML_KEY = lazy_re.compile(rb"^(?P<ind>[ \t]*)(?:-[ \t]+)?(?P<key>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:")
_NODE_KEY = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*(?:-[ \t]+)?(?P<key>node|name)[ \t]*:[ \t]*" + _V)


def might_hold(data: bytes) -> bool:
    """Cheap: might `data` spell one of the keys this module reads?"""
    return any(word in data for word in LITERALS)


def keyed(rel: str, data: bytes, start: int, end: int) -> str | None:
    """What keys state at `data[start:end]` (an old name found there), in words, or None."""
    head = data.rfind(b"\n", 0, start) + 1
    tail = data.find(b"\n", start)
    line = data[head:len(data) if tail < 0 else tail]
    low_line, name, low = line.lower(), rel.rsplit("/", 1)[-1].lower(), None
    for pattern, what, words, whole in _RULES:
        if words is not None and not any(w in low_line or w.decode() in name for w in words):
            if not whole:
                continue
            low = data.lower() if low is None else low
            if not any(w in low for w in words):
                continue
        for hit in pattern.finditer(line):
            if hit.start("v") + head <= start and end <= hit.end("v") + head:
                return what
    m = _NODE_KEY.match(line)
    if m is None or not (m.start("v") + head <= start and end <= m.end("v") + head):
        return None
    parent = parent_key(data, head)
    if m.group("key") == b"node" and parent is not None and b"proxmox" in parent.lower():
        return _PVE  # community.general.proxmox_kvm: node: NAME
    if m.group("key") == b"name" and parent == b"nodeRegistration":
        return _KUBE  # kubeadm InitConfiguration/JoinConfiguration
    return None


def parent_key(data: bytes, head: int) -> bytes | None:
    """The key of the YAML block the line at `head` stands in (the nearest line above it, less
    indented, that opens a key), or None."""
    line = data[head:data.find(b"\n", head) if data.find(b"\n", head) >= 0 else len(data)]
    lead = len(line) - len(line.lstrip(b" \t"))
    for text in reversed(data[:head].split(b"\n")):
        k = _YAML_KEY.match(text)
        if k is None:
            continue
        if len(k.group("ind")) < lead:
            return k.group("key")
    return None
