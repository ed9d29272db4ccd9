"""The name a machine, container or release manager keeps its instance under, in that manager's
own client (issue 27, t36-sweep finding 09; store_names.py holds Nomad, Vagrant, a libvirt
domain's `<name>` and a Swarm stack, and asks this module for the rest).

A manager's verb names the instance it acts on: `virsh start web01`, `virsh snapshot-create-as
web01 pre`, `virt-install --name web01`, `lxc exec web01 -- cmd`, `incus snapshot create web01 pre`,
`lxc-attach -n web01`, `multipass exec web01`, `limactl start web01`, `VBoxManage startvm web01`,
`machinectl start web01`, `systemd-nspawn -M web01`, `systemd-nspawn@web01.service`, `prlctl`,
`tart`, `utmctl`, `xl`, `podman machine`, `docker-machine`, a Helm release (`helm upgrade
--install web01 ./chart`), and an Ansible task of such a module (`community.libvirt.virt: name:`,
`lxd_container`, `lxc_container`, `proxmox_kvm`, `proxmox`'s `hostname`, `kubernetes.core.helm`,
`vmware_guest`), a Terraform resource whose `name` replaces the instance when changed
(`libvirt_domain`, `libvirt_volume`, `lxd_instance`, `incus_instance`, `multipass_instance`,
`virtualbox_vm`, `helm_release`, `docker_volume`), a k3d or kind cluster (`k3d cluster create
web01`, `kind create cluster --name web01`). The manager keeps the instance (its
disks, snapshots, release history) under that name: rewritten, each command names nothing, or
makes a second instance beside the first. The instance is the first word after the verb (or
after the verb's flags), or a naming flag's value (`--name`, `-n`, `--domain`, `-M`); a copy
verb's remote side (`lxc file push f web01/etc/x`, `multipass transfer f web01:/tmp`) too. A
local file (`./chart`, `web01.yaml`, a path from `/`), a URL, and the command after `--` are
never the instance. Pure: bytes in, (start, end, note with NAME) out.
"""

from __future__ import annotations

import re

from renamer import lazy_re

LITERALS = (b"virsh", b"virt-", b"lxc", b"incus", b"multipass", b"limactl", b"VBoxManage", b"vboxmanage",
            b"machinectl", b"nspawn", b"helm", b"prlctl", b"tart ", b"utmctl", b"xl ", b"podman",
            b"docker-machine", b"community.", b"kubernetes.", b"containers.", b"virt:", b"_container:",
            b"proxmox_kvm:", b"vmware_guest", b"resource", b"k3d", b"kind")

NOTE = ("the ID of {what}: the manager keeps the instance (its disks, snapshots, history) by it, so "
        "rewritten, the command names nothing, or makes a second instance beside the old; {how}, then "
        "edit by hand")

# global flags before the verb (`helm -n apps`, `lxc --project x`: the value of a known one too)
_FLAGS = (rb"(?:[ \t]+(?:-n|--namespace|--kube-context|--kubeconfig|--project|-c|--connect)[ \t]+[^\s-]\S*"
          rb"|[ \t]+-{1,2}[\w-]+(?:=\S*)?)*")
_ARGS = rb"(?![\w-])(?P<args>[^\r\n|;&)`]*)"
# (the tool and its verb, what it keeps, how to move it first)
_TOOLS: tuple[tuple[re.Pattern[bytes], str, str], ...] = (
    (lazy_re.compile(rb"(?<![\w/.-])virsh(?:[ \t]+(?:-c|--connect)[ \t]+\S+|[ \t]+-[\w-]+)*[ \t]+"
                rb"(?:start|shutdown|destroy|reboot|reset|suspend|resume|undefine|autostart|dom\w+|console|edit"
                rb"|dumpxml|managedsave(?:-remove)?|save|setmem|setmaxmem|setvcpus|vcpucount"
                rb"|(?:attach|detach)-(?:disk|device|interface)|snapshot-[\w-]+|checkpoint-[\w-]+|block\w+"
                rb"|migrate|vncdisplay|qemu-agent-command|send-key|desc|metadata|guestinfo|backup-begin)"
                + _ARGS),
     "a libvirt domain (NAME)", "`virsh domrename` it first"),
    (lazy_re.compile(rb"(?<![\w/.-])(?:virt-(?:install|clone|customize|sysprep|viewer|df|cat|ls|edit|copy-out"
                rb"|copy-in|top|xml)|guestfish|guestmount)(?![\w-])" + rb"(?P<args>[^\r\n|;&)`]*)"),
     "a libvirt domain (NAME)", "`virsh domrename` it first"),
    (lazy_re.compile(rb"(?<![\w/.-])(?:lxc|incus)" + _FLAGS + rb"[ \t]+(?:start|stop|restart|pause|freeze"
                rb"|unfreeze|resume|exec|shell|console|delete|rm|info|rename|move|mv|copy|cp|launch|init|create"
                rb"|rebuild|publish|export|restore"
                rb"|snapshot(?:[ \t]+(?:create|delete|restore|rename|show|list|ls|rm))?"
                rb"|config(?:[ \t]+(?:set|unset|get|show|edit|device[ \t]+\w+|template[ \t]+\w+))?"
                rb"|file[ \t]+(?:push|pull|edit|delete|mount))" + _ARGS),
     "an LXD or Incus instance (NAME)", "`lxc move`/`incus rename` it first"),
    (lazy_re.compile(rb"(?<![\w/.-])lxc-(?:start|stop|attach|info|destroy|create|copy|snapshot|console|freeze"
                rb"|unfreeze|execute|wait|autostart|device|cgroup)(?![\w-])" + rb"(?P<args>[^\r\n|;&)`]*)"),
     "an LXC container (NAME)", "`lxc-copy -R` (rename) it first"),
    (lazy_re.compile(rb"(?<![\w/.-])multipass" + _FLAGS + rb"[ \t]+(?:launch|start|stop|restart|suspend"
                rb"|delete|recover|exec|shell|sh|info|mount|umount|unmount|transfer|copy-files|snapshot|restore"
                rb"|clone)" + _ARGS),
     "a Multipass instance (NAME)", "`multipass clone` it to the new name first"),
    (lazy_re.compile(rb"(?<![\w/.-])limactl" + _FLAGS + rb"[ \t]+(?:start|stop|shell|delete|rm|edit|copy|cp"
                rb"|snapshot[ \t]+\w+|clone|rename|factory-reset|protect|unprotect|restart)" + _ARGS),
     "a Lima instance (NAME)", "`limactl rename` it first"),
    (lazy_re.compile(rb"(?<![\w/.-])(?i:vboxmanage)" + _FLAGS + rb"[ \t]+(?:startvm|controlvm|modifyvm"
                rb"|showvminfo|unregistervm|snapshot|clonevm|discardstate|adoptstate|export|guestcontrol"
                rb"|guestproperty[ \t]+\w+|sharedfolder[ \t]+\w+|storageattach|storagectl|movevm|encryptvm"
                rb"|unattended[ \t]+install|debugvm|getextradata|setextradata|bandwidthctl|createvm)"
                + _ARGS),
     "a VirtualBox VM (NAME)", "`VBoxManage modifyvm OLD --name NEW` first"),
    (lazy_re.compile(rb"(?<![\w/.-])machinectl" + _FLAGS + rb"[ \t]+(?:start|poweroff|reboot|terminate|kill"
                rb"|login|shell|enable|disable|status|show|remove|rename|clone|copy-to|copy-from|bind"
                rb"|read-only|image-status|show-image|export-tar|export-raw)" + _ARGS),
     "a systemd-nspawn machine (NAME, its image `/var/lib/machines/NAME`)", "`machinectl rename` it first"),
    (lazy_re.compile(rb"(?<![\w/.-])systemd-nspawn(?![\w@-])" + rb"(?P<args>[^\r\n|;&)`]*)"),
     "a systemd-nspawn machine (NAME, its image `/var/lib/machines/NAME`)", "`machinectl rename` it first"),
    (lazy_re.compile(rb"(?<![\w/.-])(?:prlctl[ \t]+(?:start|stop|restart|suspend|resume|exec|enter|delete"
                rb"|snapshot[\w-]*|clone|set|status|register|unregister)"
                rb"|tart[ \t]+(?:run|stop|delete|clone|set|get|ip|rename|push|suspend)"
                rb"|utmctl[ \t]+(?:start|stop|suspend|exec|ip-address|attach|clone|delete|status"
                rb"|file[ \t]+\w+)"
                rb"|xl[ \t]+(?:destroy|shutdown|reboot|console|pause|unpause|save|migrate|vcpu-set|mem-set"
                rb"|block-attach|network-attach|domid|sysrq|trigger|rename)"
                rb"|podman[ \t]+machine[ \t]+(?:start|stop|ssh|rm|init|inspect|set|reset)"
                rb"|docker-machine(?:[ \t]+-[\w-]+)*[ \t]+(?:start|stop|ssh|rm|env|ip|create|regenerate-certs"
                rb"|restart|scp|kill|inspect|status|upgrade|url|config|mount))" + _ARGS),
     "a VM of its manager (NAME: Parallels, Tart, UTM, Xen, a podman or docker machine)",
     "rename it in its manager first"),
    (lazy_re.compile(rb"(?<![\w/.-])helm" + _FLAGS + rb"[ \t]+(?:upgrade|install|uninstall|delete"
                rb"|del|rollback|status|history|hist|test"
                rb"|get[ \t]+(?:values|manifest|all|notes|hooks|metadata))"
                + _ARGS),
     "a Helm release (NAME: Helm keeps the release's history and objects by it, and charts name "
     "their objects and volume claims after it)", "`helm uninstall` or migrate the old release first"),
    (lazy_re.compile(rb"(?<![\w/.-])(?:k3d[ \t]+(?:cluster|kubeconfig)[ \t]+(?:create|delete|start|stop"
                     rb"|edit|get|merge|write)|kind[ \t]+(?:create|delete|export|get|load)[ \t]+(?:cluster"
                     rb"|kubeconfig|logs|nodes|docker-image|image-archive))" + _ARGS),
     "a local Kubernetes cluster (NAME: k3d's or kind's containers and kubeconfig context are named "
     "after it)",
     "delete the old cluster first"),
)
# The words one of which each of _TOOLS' patterns needs, in its order.
_TOOL_WORDS = ((b"virsh",), (b"virt-", b"guest"), (b"lxc", b"incus"), (b"lxc-",), (b"multipass",),
               (b"limactl",), (b"VBoxManage", b"vboxmanage", b"VBOXMANAGE"), (b"machinectl",),
               (b"systemd-nspawn",), (b"prlctl", b"tart", b"utmctl", b"xl", b"podman", b"docker-machine"),
               (b"helm",), (b"k3d", b"kind"))
# Flags whose value is the instance itself.
_NAMING = frozenset({b"--name", b"-n", b"--domain", b"-d", b"--original", b"-o", b"-M", b"--machine", b"--vm",
                     b"--instance", b"--target"})
# A tool's own meaning of a short flag (by the tool's first four bytes): helm's `-n` namespace, `-o`
# output; docker-machine's `-d` driver.
_NOT_NAMING = {b"helm": frozenset({b"-n", b"-o", b"-d"}), b"dock": frozenset({b"-d"})}
# Tools that name the instance by a flag only (their other words are a disk, a package, a command).
_FLAGGED = lazy_re.compile(rb"virt-(?!viewer|xml)|guest|systemd-nspawn")
# Flags whose value (the next word) is something else: a namespace, a file, a size, an image.
_VALUED = frozenset({
    b"--namespace", b"-f", b"--values", b"--set", b"--set-string", b"--set-file", b"--set-json",
    b"--version", b"--kube-context", b"--kubeconfig", b"--timeout", b"--repo", b"--post-renderer",
    b"--output", b"--revision", b"--description", b"--history-max", b"--max", b"--username", b"--password",
    b"--ca-file", b"--cert-file", b"--key-file", b"--labels", b"-l", b"--mode", b"--file", b"--diskspec",
    b"--memspec", b"--type", b"--env", b"-e", b"--user", b"-u", b"--cwd", b"--memory", b"-m", b"--cpus",
    b"-c", b"--disk", b"--image", b"--network", b"--profile", b"-p", b"--config", b"--storage", b"-s",
    b"--vcpus", b"--ram", b"--os-variant", b"--location", b"--cdrom", b"--graphics", b"--boot", b"--console",
    b"--connect", b"--bridge", b"--cloud-init", b"--driver", b"-D", b"--directory", b"-t", b"--template",
    b"--snapshot", b"--format", b"--uid", b"--gid", b"--mount", b"--vnet", b"--memsize", b"--vram",
    b"--nic1", b"--mac", b"--property", b"--group", b"--fd", b"--wait", b"--signal", b"-a", b"--arch",
})
_LOCAL = lazy_re.compile(rb"""^(?:\.{1,2}(?:/|$)|/|~|\$|\{|[\w.+-]+://)|\.(?:ya?ml|xml|json|cfg|conf|sh|iso|img"""
                         rb"""|qcow2|raw|vdi|vmdk|ova|ovf|tar|t?gz|xz|zst|j2|tgz|vbox)$""")
_COPY_VERB = lazy_re.compile(rb"(?:file[ \t]+(?:push|pull)|mount|umount|unmount|transfer|copy-files|copy|cp"
                             rb"|copy-to|copy-from|scp)[ \t]*$")
_END = lazy_re.compile(rb"(?:^|[ \t])--(?=[ \t]|$)|[ \t]#")
_WORD = lazy_re.compile(rb"""(?P<q>["']?)(?P<v>[^\s"']+)(?P=q)""")
_NSPAWN_UNIT = lazy_re.compile(rb"systemd-nspawn@(?P<v>[\w.:-]+?)(?:\.service)?(?![\w.-])")
_NSPAWN = ("a systemd-nspawn machine (NAME, its image `/var/lib/machines/NAME`)",
           "`machinectl rename` it first")

# An Ansible task of a manager's module and the keys that name its instance (the module, FQCN or short).
_TASK_KEY = lazy_re.compile(rb"""(?m)^(?P<ind>[ \t]*)(?P<k>[A-Za-z_][\w-]*)[ \t]*:[ \t]*(?P<q>["']?)"""
                            rb"""(?P<v>[^\s"'#{}]+)(?P=q)[ \t]*\r?$""")
_INLINE_ANY = lazy_re.compile(rb"""(?<![\w.-])(?P<k>[A-Za-z_][\w-]*)=(?P<q>["']?)(?P<v>[^\s"']+)(?P=q)""")
_MODULE_WORDS = (b"virt", b"lxd_", b"lxc_", b"proxmox", b"helm", b"vmware_guest", b"incus_")
_MODULE = lazy_re.compile(
    rb"(?m)^(?P<ind>[ \t]*)(?:-[ \t]+)?(?P<mod>(?:[\w]+\.[\w]+\.)?(?:virt|lxd_container|lxc_container"
    rb"|proxmox_kvm|proxmox|helm|vmware_guest(?:_powerstate|_snapshot)?"
    rb"|incus_instance))[ \t]*:[ \t]*(?P<inline>[^\r\n#]*)")
_MODULE_KEY = lazy_re.compile(rb"""(?m)^(?P<ind>[ \t]*)(?P<k>name|release_name|hostname|guest_name)[ \t]*:"""
                              rb"""[ \t]*(?P<q>["']?)(?P<v>[^\s"'#{}]+)(?P=q)[ \t]*\r?$""")
_INLINE_KEY = lazy_re.compile(rb"""(?<![\w.-])(?P<k>name|release_name|hostname)="""
                              rb"""(?P<q>["']?)(?P<v>[^\s"']+)(?P=q)""")
# A Terraform resource whose `name` is the instance's ID: changed, the provider destroys the instance
# and creates another (a VM's disks, a volume's data, a release's objects go with it).
_TF_BLOCK = lazy_re.compile(rb'(?m)^[ \t]*resource[ \t]+"(?P<type>libvirt_domain|libvirt_volume|lxd_instance'
                            rb'|lxd_container|incus_instance|multipass_instance|virtualbox_vm|helm_release'
                            rb'|docker_volume)"[ \t]+"[^"\n]*"[ \t]*\{')
_TF_NAME = lazy_re.compile(rb'(?m)^[ \t]*name[ \t]*=[ \t]*"(?P<v>[^"\n$%]+)"')
_LINE = lazy_re.compile(rb"(?m)^(?P<ind>[ \t]*)(?P<rest>[^\r\n]*)\r?$")
_TASK_KEYS = lazy_re.compile(rb"(?m)^[ \t]+(?:command|state|chart_ref|release_namespace|vmid|node|api_host)"
                             rb"[ \t]*:")
_INLINE_TASK = lazy_re.compile(rb"(?:^|[ \t])(?:command|state|chart_ref|release_namespace|vmid|node)=")
_MODULES = {
    b"virt": ("a libvirt domain (NAME)", "`virsh domrename` it first", (b"name",)),
    b"lxd_container": ("an LXD instance (NAME)", "`lxc move` it first", (b"name",)),
    b"incus_instance": ("an Incus instance (NAME)", "`incus rename` it first", (b"name",)),
    b"lxc_container": ("an LXC container (NAME)", "`lxc-copy -R` it first", (b"name",)),
    b"proxmox_kvm": ("a Proxmox VM found by its name (NAME)", "rename the VM in Proxmox first", (b"name",)),
    b"proxmox": ("a Proxmox container found by its hostname (NAME)", "rename it in Proxmox first",
                 (b"hostname",)),
    b"helm": ("a Helm release (NAME: Helm keeps the release's history and objects by it)",
              "`helm uninstall` or migrate the old release first", (b"name", b"release_name")),
    b"vmware_guest": ("a vSphere VM found by its name (NAME)", "rename the VM in vCenter first", (b"name",)),
}


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS)


def spans(data: bytes) -> list[tuple[int, int, str]]:
    """(start, end, note with NAME) of each manager's instance name in `data`."""
    if not might_hold(data):
        return []
    out: list[tuple[int, int, str]] = []
    for (pattern, what, how), words in zip(_TOOLS, _TOOL_WORDS, strict=True):
        if not any(word in data for word in words):  # each tool's own word first: a bytes test
            continue
        note = NOTE.format(what=what, how=how)
        for m in pattern.finditer(data):
            copy = _COPY_VERB.search(data, m.start(), m.start("args")) is not None
            other = _NOT_NAMING.get(m.group()[:4], frozenset())  # helm's `-n` is its namespace
            positional = not _FLAGGED.match(m.group())  # `virt-customize -a x.img --install pkg`: flags only
            out += [(s, e, note) for s, e in _instances(data, m.start("args"), m.end("args"), copy=copy,
                                                        other=other, positional=positional)]
    if b"nspawn@" in data:
        out += [(m.start("v"), m.end("v"), NOTE.format(what=_NSPAWN[0], how=_NSPAWN[1]))
                for m in _NSPAWN_UNIT.finditer(data)]
    if any(word in data for word in _MODULE_WORDS):
        out += _modules(data)
    if b"resource" in data:
        out += _terraform(data)
    return out


def _instances(data: bytes, start: int, end: int, *, copy: bool, other: frozenset[bytes] = frozenset(),
               positional: bool = True) -> list[tuple[int, int]]:
    """The instance's words among a verb's arguments `data[start:end]`: the first positional word
    (every remote-side word of a copy verb), and a naming flag's value."""
    stop = _END.search(data, start, end)
    out: list[tuple[int, int]] = []
    first, skip, named = positional, False, False
    for word in _WORD.finditer(data, start, end if stop is None else stop.start()):
        value = word.group("v")
        if skip or named:
            if named and not _LOCAL.search(value):
                out.append((word.start("v"), word.end("v")))
            skip = named = False
            continue
        if value.startswith(b"-"):
            flag, eq, rest = value.partition(b"=")
            if flag in _NAMING and flag not in other:
                if eq:
                    if rest and not _LOCAL.search(rest):
                        out.append((word.start("v") + len(flag) + 1, word.end("v")))
                else:
                    named = True
            elif (flag in _VALUED or flag in other) and not eq:
                skip = True
            continue
        if _LOCAL.search(value):
            first = False  # `helm install ./chart --generate-name`, `limactl start ./web01.yaml`
            continue
        if copy:  # `web01:/tmp`, `web01/etc/x`: the instance's side; the first word: the source
            if b":" in value or b"/" in value or first:
                out.append((word.start("v"), word.end("v")))
            first = False
            continue
        if first and b"/" not in value:  # a chart (`bitnami/nginx`), an image (`images:debian/12`): not it
            out.append((word.start("v"), word.end("v")))
            first = False
    return out


def _modules(data: bytes) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for m in _MODULE.finditer(data):
        mod = m.group("mod").rpartition(b".")[2]
        dotted = b"." in m.group("mod")
        what, how, keys = _MODULES[mod]
        note = NOTE.format(what=what, how=how)
        inline = m.group("inline").strip()
        if inline:
            if dotted or mod not in (b"virt", b"helm", b"proxmox") or _INLINE_TASK.search(inline):
                found = _INLINE_KEY.finditer(data, m.start("inline"), m.end("inline"))
                out += [(k.start("v"), k.end("v"), note) for k in found if k.group("k") in keys]
            continue
        block_end, depth = _block(data, m)
        if depth < 0:
            continue
        block = data[m.end():block_end]
        if not dotted and mod in (b"virt", b"helm", b"proxmox") and not _TASK_KEYS.search(block):
            continue  # a bare `helm:` or `virt:` key elsewhere in YAML (an Argo CD source's `helm:`)
        out += [(k.start("v"), k.end("v"), note) for k in _MODULE_KEY.finditer(data, m.end(), block_end)
                if k.group("k") in keys and len(k.group("ind")) == depth]
    return out


def _block(data: bytes, m: re.Match[bytes]) -> tuple[int, int]:
    """(end, key indentation) of the block under a module's key `m`: the lines after it indented
    deeper than the module's name (-1: none)."""
    col = m.start("mod") - (data.rfind(b"\n", 0, m.start("mod")) + 1)
    block_end, depth = m.end(), -1
    for line in _LINE.finditer(data, m.end() + 1):
        rest = line.group("rest")
        if not rest.strip() or rest.lstrip().startswith(b"#"):
            continue
        if len(line.group("ind")) <= col:
            break
        depth = len(line.group("ind")) if depth < 0 else depth
        block_end = line.end()
    return block_end, depth


def task_values(data: bytes, module: re.Pattern[bytes], keys: frozenset[bytes]) -> list[tuple[int, int]]:
    """(start, end) of each first-level `KEY: value` (KEY in `keys`) in the block of a YAML key that
    `module` matches (an Ansible task's module: groups `mod` and `inline`), and of each `KEY=value` of
    its inline form (store_names.py asks it for the secret-store modules)."""
    out: list[tuple[int, int]] = []
    for m in module.finditer(data):
        inline = m.group("inline").strip()
        if inline:
            found = _INLINE_ANY.finditer(data, m.start("inline"), m.end("inline"))
            out += [(k.start("v"), k.end("v")) for k in found if k.group("k") in keys]
            continue
        block_end, depth = _block(data, m)
        out += [(k.start("v"), k.end("v")) for k in _TASK_KEY.finditer(data, m.end(), block_end)
                if k.group("k") in keys and len(k.group("ind")) == depth]
    return out


def _terraform(data: bytes) -> list[tuple[int, int, str]]:
    """The `name` of a Terraform resource that names its instance (the block's first level)."""
    out: list[tuple[int, int, str]] = []
    for block in _TF_BLOCK.finditer(data):
        close = data.find(b"\n}", block.end())
        end = len(data) if close < 0 else close
        kind = block.group("type").decode()
        note = NOTE.format(what=f"Terraform's `{kind}` (NAME: changing it replaces the instance, its "
                                "disks or data with it)",
                           how="rename the instance in its manager and import it, or keep its name")
        depth = -1
        for m in _TF_NAME.finditer(data, block.end(), end):
            head = data.rfind(b"\n", 0, m.start("v")) + 1
            indent = len(data[head:m.start("v")]) - len(data[head:m.start("v")].lstrip(b" \t"))
            depth = indent if depth < 0 else depth
            if indent == depth and data.count(b"{", block.end(), head) == data.count(b"}", block.end(), head):
                out.append((m.start("v"), m.end("v"), note))
    return out
