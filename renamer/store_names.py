"""Names another tool keeps its own object under, spelled in that tool's clients (issue 27, t35
findings 03, 05 and 06), beside state_names.py's compose projects and Terraform workspaces.

- Disk names made at install time, often from the host's name (`web01-vg`): an LVM volume group
  (`/dev/mapper/web01--vg-root`, `/dev/web01-vg/swap_1`, `rd.lvm.lv=web01-vg/root`, the arguments
  of `vgchange`/`lvcreate`...), a LUKS mapping (crypttab's first field, `rd.luks.name=`,
  `cryptdevice=`), an md array (`/dev/md/NAME`, mdadm.conf's `name=HOST:0` and `homehost`), a
  ZFS volume (`/dev/zvol/...`), and an installer's volume group (preseed `new_vg_name`, kickstart
  `volgroup`/`--vgname`, autoinstall's `lvm_volgroup`). The disk keeps its name when the host is
  renamed: rewritten, fstab and the kernel command line name a device that does not exist and the
  machine does not boot.
- An item of a secret or configuration store: a Vault path in every client (`vault kv get`,
  Terraform's `vault_generic_secret`, Ansible's hashi_vault lookups, a Vault Agent or
  consul-template `secret "..."`/`key "..."`), a 1Password `op://vault/item/field` or `op item
  get`, Bitwarden's `bw get`, `pass`/`gopass`, `consul kv`, AWS SSM and Secrets Manager, a SOPS
  `--extract` path. The store keeps the item's name: rewritten, every read fails.
- A scheduler's or hypervisor's object ID: a Nomad `job "NAME"`, a Vagrant `config.vm.define`, a
  libvirt domain's `<name>`, a Docker Swarm stack. Rewritten, the next run makes a second object
  beside the still running first.

Each occurrence there is a `state-name` residual (state_names.HELD), its note saying whose name it
is and what to do first (each note ends with DONE, and then takes only HINT, not the compose
advice). Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from renamer import instance_names, lazy_re

LITERALS = (b"/dev/", b"crypt", b"luks", b"rd.", b"HOMEHOST", b"vagrant", b"mdadm", b"ARRAY", b"rd.lvm",
            b"vg", b"lv", b"volgroup", b"lvm_",
            b"vault", b"secret", b"kv/", b"op://", b"op ", b"bw ", b"rbw ", b"pass", b"consul", b"ssm",
            b"secretsmanager", b"--extract", b"onepassword", b"bitwarden", b"key_vault",
            b"job", b"vm.define", b'key "', b'ls "', b'tree "', b'keyOrDefault "', b"<domain", b"stack",
            b"nomad")
# t36-sweep finding 10: the other secret-store clients and lookups, and the managers' instances (09)
MORE_LITERALS = (b"lpass", b"keepass", b"chamber", b"doppler", b"infisical", b"secret-tool", b"-password",
                 b"vault_", b"ssm_parameter", b"secretsmanager", b"keyvaultsecret", b"secret_manager",
                 b"onepassword_info", b"bitwarden", b"conjur",
                 b"gcloud", b"keyvault", b"akeyless", b"conjur", b"berglas", b"keyring", b"kwallet",
                 b"lookup(", b"query(")

DONE = "then edit by hand"
HINT = "or keep it with a keep rule"
DISK = ("a name the disk keeps (NAME: an LVM volume group or volume, a LUKS mapping, an md array, made "
        "at install time, often from the host's name): the disk is not renamed with the host, so rewritten, "
        "fstab, crypttab or the kernel command line name a device that does not exist and the machine "
        "does not boot; rename it on disk first (`vgrename`, `lvrename`, crypttab and the initramfs, "
        "`mdadm --update=name`), then edit by hand")
INSTALLER = ("the name an installer gives a volume group (NAME: preseed, kickstart, autoinstall): machines "
             "installed before keep the old name on disk, which fstab and the kernel command line name; "
             "rename the group on those machines first (`vgrename`), or keep the old name here; then edit "
             "by hand")
STORE = ("an item of a secret or configuration store (NAME in {what}): the store keeps the item under its "
         "name, so rewritten alone every read fails; rename the item in the store first, then edit by hand")
SCHEDULER = ("the ID of {what}: the tool keeps the running object by it, so rewritten, the next run makes a "
             "second one beside the old (same ports, same disks); {how}, then edit by hand")

_DEV = lazy_re.compile(rb"/dev/(?:mapper/|md/|zvol/|(?!(?:disk|block|char|bus|input|net|pts|shm|snd|dri|cpu"
                       rb"|fd|mqueue|hugepages|serial|vfio|v4l|usb|dma_heap|vhost-net|loop|nvme|sd|hd|vd|xvd|tcp|udp"
                       rb"|sr|tty|null|zero|u?random|console|ptmx|kmsg|log|stdin|stdout|stderr|full|fuse"
                       rb"|kvm|rtc|watchdog|tun)\b)[\w.+-]+/)[\w.+:@-]+")
_KERNEL = lazy_re.compile(rb"\b(?:rd\.lvm\.(?:vg|lv)|rd\.luks\.name|luks\.name|cryptdevice|rd\.md\.name)"
                          rb"=[^\s\"']+")
_LVM_COMMAND = lazy_re.compile(rb"(?<![\w/-])(?:vg|lv|pv)(?:create|change|extend|reduce|remove|rename|display"
                               rb"|resize|convert|scan|s|export|import|ck|cfgbackup|cfgrestore)(?![\w-])"
                               rb"[^\r\n|;&#]*")
_CRYPTSETUP = lazy_re.compile(rb"(?<![\w-])cryptsetup(?:[ \t]+-\S+)*[ \t]+(?:open|luksOpen|close|luksClose"
                              rb"|status|resize)\b[^\r\n|;&#]*")
_MDADM_NAME = lazy_re.compile(rb"(?<![\w-])(?:name|homehost)=(?P<v>[^\s\"']+)|(?m:^)[ \t]*HOMEHOST[ \t]+"
                              rb"(?P<h>\S+)")
_MDADM_LINE = lazy_re.compile(rb"(?m)^[ \t]*(?:ARRAY|HOMEHOST)\b[^\n]*|[^\n]*\bmdadm\b[^\n]*")
_ANSIBLE_VG = lazy_re.compile(rb"""(?m)^[ \t]*(?:-[ \t]+)?vg[ \t]*:[ \t]*["']?(?P<v>[^\s"'#]+)""")
_CRYPTTAB_LINE = lazy_re.compile(rb"(?m)^[ \t]*(?P<v>[^\s#]+)[ \t]+\S")
_INSTALLER = lazy_re.compile(rb"(?:partman-auto-lvm/new_vg_name[ \t]+string[ \t]+|(?m:^)[ \t]*volgroup[ \t]+"
                             rb"|--vgname[= \t])(?P<v>[^\s\"']+)")
_AUTOINSTALL_ITEM = lazy_re.compile(rb"(?m)^(?P<indent>[ \t]*)-[ \t]+")
_AUTOINSTALL_KEY = lazy_re.compile(rb"""(?:^|[\s{,])(?:name|volgroup|dm_name)[ \t]*:[ \t]*["']?"""
                                   rb"""(?P<v>[^\s"',}#]+)""")

_VAULT_COMMAND = lazy_re.compile(rb"(?<![\w/-])vault[ \t]+(?:kv[ \t]+(?:get|put|patch|delete|undelete|destroy"
                                 rb"|rollback|metadata[ \t]+\w+|list)|read|write|delete|list)"
                                 rb"(?:[ \t]+-[\w-]+(?:=\S*)?)*[ \t]+(?P<v>[^\s\"'|;&]+)")
_VAULT_PATH = lazy_re.compile(rb"""(?:(?<=[\s"'=:(,\[])|^)/?(?:secrets?|kv|kv-v2|kv2)/"""
                              rb"""(?P<v2>data/|metadata/)?"""
                              rb"""[\w.@-][\w./@-]*""", re.MULTILINE)
# `vault` as the store, not Ansible's own vault (`ansible-vault`, `vault_password_file`, `!vault`)
_VAULT_WORD = lazy_re.compile(rb"(?<![\w!-])vault(?![\w-])")
_TEMPLATE_FUNC = lazy_re.compile(rb"""\{\{-?[^}\n]*?\b(?:secret|secrets|key|keyOrDefault|keyExists|ls|tree)"""
                                 rb"""[ \t]+"(?P<v>[^"\n]+)\"""")
_LOOKUP = lazy_re.compile(rb"""(?:hashi_vault|vault_kv2_get|vault_kv1_get|vault_read"""
                          rb"""|onepassword(?:_raw|_doc)?|bitwarden(?:_secrets_manager)?|passwordstore|aws_ssm"""
                          rb"""|aws_secret|consul_kv|azure_keyvault_secret|keeper)['"]?[ \t]*,[ \t]*"""
                          rb"""(?P<q>['"])(?P<v>[^'"\n]+)(?P=q)""")
_SECRET_ARG = lazy_re.compile(rb"""(?<![\w-])secret=(?P<v>[^\s'":]+)""")
_OP_URI = lazy_re.compile(rb"""op://[^\s"'`)]+""")
_CLI = lazy_re.compile(rb"""(?<![\w/.-])(?:op[ \t]+(?:item|document)[ \t]+(?:get|edit|delete)"""
                       rb"""|op[ \t]+get[ \t]+item|bw[ \t]+(?:get|edit|delete)[ \t]+\w+|rbw[ \t]+get"""
                       rb"""|(?:go)?pass[ \t]+(?:show|edit|insert|otp|rm|generate)"""
                       rb"""|consul[ \t]+kv[ \t]+(?:get|put|delete)|aws[ \t]+ssm[ \t]+"""
                       rb"""(?:get-parameters?|put-parameter|delete-parameter|get-parameters-by-path)"""
                       rb"""|aws[ \t]+secretsmanager[ \t]+[\w-]+)(?![\w-])(?P<args>[^\r\n|;&)`]*)""")
_ARG_WORD = lazy_re.compile(rb"""(?P<q>["']?)(?P<v>[^\s"']+)(?P=q)""")
_VALUED_FLAGS = frozenset({b"--vault", b"--account", b"--session", b"--fields", b"--field", b"--format",
                           b"--region", b"--profile", b"--output", b"--query", b"--reveal", b"--otp",
                           b"--organizationid", b"-c", b"--clip"})
_NAMING_FLAGS = frozenset({b"--name", b"--names", b"--secret-id", b"--path", b"--item"})
_SOPS_EXTRACT = lazy_re.compile(rb"""--extract(?:[ \t]+|=)(?P<q>['"]?)(?P<v>[^\s'"]+|\[[^\n]*?\])(?P=q)""")
_STORE_BLOCK = lazy_re.compile(
    rb'(?m)^[ \t]*(?:data|resource)[ \t]+"(?P<type>vault_generic_secret|vault_kv_secret(?:_v2)?'
    rb'|vault_kv_secret_backend_v2|aws_ssm_parameter|aws_secretsmanager_secret(?:_version)?|google_secret_manager_secret'
    rb'(?:_version)?|azurerm_key_vault_secret|onepassword_item|bitwarden_item_login|consul_keys)"'
    rb'[ \t]+"[^"\n]*"[ \t]*\{')
_STORE_ARG = lazy_re.compile(rb'(?m)(?:^|(?<=[{;]))[ \t]*(?P<k>path|name|secret_id|title|key|arn)[ \t]*='
                             rb'[ \t]*"(?P<v>[^"\n]*)"')

# t36-sweep finding 10: the family of secret-store clients, by a client's verb that reads or writes
# an item (every word after it names the item, its folder, project or service: `lpass show
# --password web01/root`, `keepassxc-cli show -a Password infra.kdbx web01/root`, `chamber read web01
# db_password`, `doppler secrets get X --project web01`, `infisical secrets get X --path /web01`,
# `secret-tool lookup service ssh host web01`, `security find-generic-password -s web01`), but for a
# server's address (`--domain https://...`), a local file (`infra.kdbx`, `./x.env`) and the command
# after `--` (`chamber exec web01 -- ./run web02`).
_CLIENTS = lazy_re.compile(
    rb"""(?<![\w/.-])(?:lpass[ \t]+(?:show|edit|rm|mv|duplicate|add|generate|ls)"""
    rb"""|keepassxc-cli[ \t]+(?:show|clip|edit|rm|mv|totp|add|ls|search|attachment-[\w-]+)"""
    rb"""|chamber[ \t]+(?:read|exec|list|ls|write|delete|history|export|import|env|find)"""
    rb"""|doppler[ \t]+(?:secrets(?:[ \t]+(?:get|set|delete|download|upload|substitute))?|run|setup"""
    rb"""|configure[ \t]+set|configs[ \t]+\w+|environments[ \t]+\w+|projects[ \t]+\w+)"""
    rb"""|infisical[ \t]+(?:secrets(?:[ \t]+(?:get|set|delete|folders[ \t]+\w+))?|run|export)"""
    rb"""|secret-tool[ \t]+(?:lookup|store|clear|search)"""
    rb"""|security[ \t]+(?:(?:find|add|delete)-(?:generic|internet)-password|find-certificate)"""
    rb"""|gcloud[ \t]+secrets[ \t]+(?:versions[ \t]+\w+|describe|delete|update|create"""
    rb"""|add-iam-policy-binding)"""
    rb"""|az[ \t]+keyvault[ \t]+secret[ \t]+(?:show|set|delete|download|list-versions|recover|purge|backup)"""
    rb"""|akeyless[ \t]+(?:get-secret-value|get-dynamic-secret-value|describe-item|delete-item"""
    rb"""|update-secret-val|create-secret)"""
    rb"""|conjur[ \t]+variable[ \t]+(?:get|set|value|values[ \t]+add)"""
    rb"""|berglas[ \t]+(?:access|edit|delete|create|update)"""
    rb"""|keyring[ \t]+(?:get|set|del)|kwallet-query)(?![\w-])(?P<args>[^\r\n|;&)`]*)""")
_SERVER_FLAGS = frozenset({b"--domain", b"--url", b"--host", b"--server", b"--api-url", b"--api-host",
                           b"--address", b"--gateway-url", b"--token", b"--api-key", b"--project-id",
                           b"--command"})  # `doppler run --command "ssh web01"`: a command, not an item
_CLIENT_LINE = "a secret-store client's command line"
_QUOTED_VALUE = lazy_re.compile(rb"""[ \t]+(?P<q>["'])[^\n]*?(?P=q)""")
_END_OF_FLAGS = lazy_re.compile(rb"(?:^|[ \t])--(?=[ \t]|$)|[ \t]#")
_LOCAL_FILE = lazy_re.compile(rb"""^(?:\.{1,2}/|~/)"""
                              rb"""|\.(?:kdbx|keyx?|ya?ml|json|env|pem|keychain(?:-db)?|sh)$""")
# An Ansible lookup by its plugin's name (t36-sweep finding 10): whatever its collection, a plugin
# named for a secret store reads the item its first term names (`lookup('viczem.keepass.keepass',
# 'infra/web01', 'password')`, `query('community.general.keyring', 'web01 root')`).
_PLUGIN_LOOKUP = lazy_re.compile(rb"""\b(?:lookup|query|q)\(\s*(?P<p>['"])(?P<plugin>[\w.]+)(?P=p)\s*,\s*"""
                                 rb"""(?P<q>['"])(?P<v>[^'"\n]+)(?P=q)""")
_SECRET_PLUGIN = lazy_re.compile(rb"""(?i)keepass|secret|(?<!un)vault|passwordstore|gopass"""
                                 rb"""|onepassword|1password"""
                                 rb"""|bitwarden|lastpass|lpass|keeper|doppler|infisical|conjur|cyberark"""
                                 rb"""|akeyless|\btss\b|ssm|keyring|credstash|\bdsv\b|keychain|_kv\b|\bkv_|etcd""")

# An Ansible task of a secret store's module (not a lookup): the item its `path:`/`name:`/... names.
_SECRET_MODULE = lazy_re.compile(
    rb"(?m)^(?P<ind>[ \t]*)(?:-[ \t]+)?(?P<mod>\w+\.\w+\.(?:vault_(?:kv[12]_(?:get|write|delete)|read"
    rb"|write|list)|aws_ssm_parameter_store|ssm_parameter|secretsmanager_secret"
    rb"|azure_rm_keyvaultsecret(?:_info)?|gcp_secret_manager\w*|onepassword_info|keepass\w*|bitwarden\w*"
    rb"|conjur\w*|infisical\w*|doppler\w*))[ \t]*:[ \t]*(?P<inline>[^\r\n#]*)")  # its FQCN only
_SECRET_MODULE_KEYS = frozenset({b"path", b"name", b"secret", b"secret_name", b"item", b"entry", b"key",
                                 b"secret_id", b"variable_id"})
_MODULE_WORDS = (b"vault_", b"ssm_parameter", b"secretsmanager", b"keyvaultsecret", b"secret_manager",
                 b"onepassword_info", b"keepass", b"bitwarden", b"conjur", b"infisical", b"doppler")

_NOMAD_JOB = lazy_re.compile(rb'(?m)^[ \t]*job[ \t]+"(?P<v>[^"\n]+)"[ \t]*\{')
_NOMAD_COMMAND = lazy_re.compile(rb"(?<![\w/-])nomad[ \t]+job[ \t]+(?:stop|status|inspect|history|revert"
                                 rb"|scale|restart|deployments|allocs|dispatch|periodic[ \t]+force)"
                                 rb"(?:[ \t]+-[\w-]+(?:=\S*)?)*[ \t]+(?P<v>[^\s\"'|;&-][^\s\"'|;&]*)")
_VAGRANT_DEFINE = lazy_re.compile(rb"""\.vm\.define[ \t(]+(?::(?P<s>[\w-]+)"""
                                  rb"""|(?P<q>["'])(?P<v>[^"'\n]+)(?P=q))""")
_VAGRANT_COMMAND = lazy_re.compile(rb"(?<![\w/-])vagrant[ \t]+(?:up|halt|destroy|ssh|reload|provision|suspend"
                                   rb"|resume|status|snapshot[ \t]+\w+)(?:[ \t]+-[\w-]+(?:=\S*)?)*"
                                   rb"(?P<args>(?:[ \t]+[^\s\"'|;&-][^\s\"'|;&]*)+)")
_LIBVIRT_NAME = lazy_re.compile(rb"<name>(?P<v>[^<\n]+)</name>")
_SWARM = lazy_re.compile(rb"(?<![\w/-])docker[ \t]+stack[ \t]+(?:deploy|up|rm|remove|down|ps|services)"
                         rb"(?:[ \t]+(?:-c|--compose-file|--with-registry-auth|--prune|--resolve-image|-f"
                         rb"|--filter|--format|--detach(?:=\S+)?|-q|--quiet)(?:[ \t]+(?!-)[^\s|;&]+)?)*"
                         rb"(?P<args>(?:[ \t]+[^\s\"'|;&-][^\s\"'|;&]*)+)")


def might_hold(data: bytes) -> bool:
    return (any(word in data for word in LITERALS) or any(word in data for word in MORE_LITERALS)
            or instance_names.might_hold(data))


def spans(rel: str, data: bytes) -> list[tuple[int, int, str]]:
    """(start, end, note with NAME for the old value) of every value in `data` naming another tool's
    own object: a disk's, a store item's, a scheduler's."""
    if not might_hold(data) and not rel.rpartition("/")[2].startswith("crypttab"):
        return []
    return (_disks(rel, data) + _stores(data) + _schedulers(rel, data)
            + _clients(data) + instance_names.spans(data))  # t36-sweep findings 09, 10


def _disks(rel: str, data: bytes) -> list[tuple[int, int, str]]:
    name = rel.rpartition("/")[2].lower()
    out = [(m.start(), m.end(), DISK) for regex in (_DEV, _KERNEL) for m in regex.finditer(data)]
    for command in (_LVM_COMMAND, _CRYPTSETUP):
        out += [(m.start(), m.end(), DISK) for m in command.finditer(data)]
    if b"ARRAY" in data or b"HOMEHOST" in data or b"mdadm" in data:
        for line in _MDADM_LINE.finditer(data):
            out += [(m.start(g), m.end(g), DISK) for m in _MDADM_NAME.finditer(data, line.start(), line.end())
                    for g in ("v", "h") if m.group(g) is not None]
    if b"lvg" in data or b"lvol" in data:  # Ansible's lvg and lvol modules
        out += [(m.start("v"), m.end("v"), DISK) for m in _ANSIBLE_VG.finditer(data)]
    if name.startswith("crypttab"):
        out += [(m.start("v"), m.end("v"), DISK) for m in _CRYPTTAB_LINE.finditer(data)]
    out += [(m.start("v"), m.end("v"), INSTALLER) for m in _INSTALLER.finditer(data)]
    if b"lvm_volgroup" in data or b"dm_crypt" in data or b"lvm_partition" in data:
        items = list(_AUTOINSTALL_ITEM.finditer(data))
        for i, item in enumerate(items):
            end = items[i + 1].start() if i + 1 < len(items) else len(data)
            body = data[item.start():end]
            if re.search(rb"type[ \t]*:[ \t]*[\"']?(?:lvm_volgroup|lvm_partition|dm_crypt)\b", body):
                out += [(item.start() + m.start("v"), item.start() + m.end("v"), INSTALLER)
                        for m in _AUTOINSTALL_KEY.finditer(body)]
    return out


def _stores(data: bytes) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []

    def add(start: int, end: int, what: str) -> None:
        out.append((start, end, STORE.format(what=what)))

    lowered = data.lower()
    if b"{{" in data:
        for m in _TEMPLATE_FUNC.finditer(data):
            add(m.start("v"), m.end("v"), "a Vault Agent or consul-template lookup")
    if b"vault" in lowered or b"secret" in lowered or b"consul" in lowered:
        for m in _VAULT_COMMAND.finditer(data):
            add(m.start("v"), m.end("v"), "a Vault path")
        for m in _SECRET_ARG.finditer(data):
            add(m.start("v"), m.end("v"), "a Vault path")
    if b"vault" in lowered or b"/data/" in data:
        for m in _VAULT_PATH.finditer(data):  # KV v2's `data/` everywhere; a v1 path on a Vault line
            end = data.find(b"\n", m.end())
            line = data[data.rfind(b"\n", 0, m.start()) + 1:len(data) if end < 0 else end].lower()
            if m.group("v2") is not None or _VAULT_WORD.search(line):
                add(m.start(), m.end(), "a Vault path")
    for m in _LOOKUP.finditer(data):
        add(m.start("v"), m.end("v"), "a secret-store lookup")
    if b"op://" in data:
        for m in _OP_URI.finditer(data):
            add(m.start(), m.end(), "a 1Password secret reference")
    for m in _CLI.finditer(data):
        _cli_items(data, m.start("args"), m.end("args"), add)
    if b"--extract" in data and b"sops" in data:
        for m in _SOPS_EXTRACT.finditer(data):
            add(m.start("v"), m.end("v"), "a key path inside a SOPS file, whose keys are signed")
    for block in _STORE_BLOCK.finditer(data):
        close = data.find(b"\n}", block.end())
        for m in _STORE_ARG.finditer(data, block.end(), len(data) if close < 0 else close):
            add(m.start("v"), m.end("v"), f"Terraform's `{block.group('type').decode()}`")
    return out


def _cli_items(data: bytes, start: int, end: int, add: Callable[[int, int, str], None]) -> None:
    """The words of a store client's command line after its verb, but for flags and their values
    (`bw get password web01`, `op item get web01 --vault Homelab`)."""
    skip = False
    for word in _ARG_WORD.finditer(data, start, end):
        value = word.group("v")
        if skip:
            skip = False
            continue
        if value.startswith(b"-"):
            flag, _, rest = value.partition(b"=")
            if flag in _NAMING_FLAGS:
                if rest:
                    add(word.start("v") + len(flag) + 1, word.end("v"), "a store client's command line")
                else:
                    nxt = _ARG_WORD.match(data, word.end() + 1, end) if word.end() < end else None
                    if nxt is not None:
                        add(nxt.start("v"), nxt.end("v"), "a store client's command line")
                    skip = True
            elif flag in _VALUED_FLAGS and not rest:
                skip = True
            continue
        if value.startswith((b"$", b"#")):
            continue
        add(word.start("v"), word.end("v"), "a store client's command line")


def _clients(data: bytes) -> list[tuple[int, int, str]]:
    """The items the other secret-store clients and lookups name (t36-sweep finding 10)."""
    if not any(word in data for word in MORE_LITERALS):
        return []
    out: list[tuple[int, int, str]] = []

    def add(start: int, end: int, what: str) -> None:
        out.append((start, end, STORE.format(what=what)))

    for m in _CLIENTS.finditer(data):
        start, end = m.start("args"), m.end("args")
        stop = _END_OF_FLAGS.search(data, start, end)
        skip, past = False, start
        for word in _ARG_WORD.finditer(data, start, end if stop is None else stop.start()):
            value = word.group("v")
            if skip or word.start() < past:
                skip = False
                continue
            if value.startswith(b"-"):
                flag, eq, rest = value.partition(b"=")
                if flag in _SERVER_FLAGS:
                    quoted = _QUOTED_VALUE.match(data, word.end(), end)  # `--command 'ssh web01'`: all of it
                    past = quoted.end() if quoted is not None and not eq else past
                    skip = not eq and quoted is None
                elif rest and not _LOCAL_FILE.search(rest):
                    add(word.start("v") + len(flag) + 1, word.end("v"), _CLIENT_LINE)
                continue
            if not value.startswith((b"$", b"#")) and not _LOCAL_FILE.search(value):
                add(word.start("v"), word.end("v"), _CLIENT_LINE)
    if any(word in data for word in _MODULE_WORDS):  # the same stores' Ansible modules
        for start, end in instance_names.task_values(data, _SECRET_MODULE, _SECRET_MODULE_KEYS):
            add(start, end, "an Ansible secret-store module's task")
    if b"lookup(" in data or b"query(" in data or b"q(" in data:
        for m in _PLUGIN_LOOKUP.finditer(data):
            if _SECRET_PLUGIN.search(m.group("plugin")) \
                    and not _LOOKUP.search(data, m.start("plugin"), m.end()):
                add(m.start("v"), m.end("v"), f"an Ansible `{m.group('plugin').decode()}` lookup")
    return out


def _schedulers(rel: str, data: bytes) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    if b"job" in data:
        nomad = SCHEDULER.format(what="a Nomad job (NAME)", how="stop the old job first (`nomad job stop "
                                 "-purge NAME`) and run the renamed one in its place")
        if rel.endswith((".nomad", ".hcl", ".job", ".tf", ".tpl", ".j2")) or "nomad" in rel.lower():
            out += [(m.start("v"), m.end("v"), nomad) for m in _NOMAD_JOB.finditer(data)]
        out += [(m.start("v"), m.end("v"), nomad) for m in _NOMAD_COMMAND.finditer(data)]
    if b"vm.define" in data or b"vagrant" in data:
        vagrant = SCHEDULER.format(what="a Vagrant machine (NAME, whose state is `.vagrant/machines/NAME/`)",
                                   how="`vagrant destroy` the old machine first, or keep its name")
        for m in _VAGRANT_DEFINE.finditer(data):
            group = "s" if m.group("s") is not None else "v"
            out.append((m.start(group), m.end(group), vagrant))
        for m in _VAGRANT_COMMAND.finditer(data):
            out.append((m.start("args"), m.end("args"), vagrant))
    if b"<domain" in data and b"<name>" in data:
        domain = SCHEDULER.format(what="a libvirt domain (NAME)", how="`virsh domrename` it first")
        found = _LIBVIRT_NAME.match(data, data.find(b"<name>", data.find(b"<domain")))
        if found is not None:
            out.append((found.start("v"), found.end("v"), domain))
    if b"stack" in data:
        swarm = SCHEDULER.format(what="a Docker Swarm stack (NAME, which prefixes its services)",
                                 how="`docker stack rm` the old stack first")
        out += [(m.start("args"), m.end("args"), swarm) for m in _SWARM.finditer(data)]
    return out
