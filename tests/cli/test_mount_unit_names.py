"""systemd units named after their path, end to end (break-it round 10, finding 3).

`mnt-pug.mount` must be `systemd-escape -p --suffix=mount` of its `Where=`: a rewritten `Where=`
whose unit name would not follow is held (residual `unit-name`, with the new unit name spelled
out); a unit whose own file rename is its new escaped name (`pug.mount`, `Where=/pug`) moves.
"""

from __future__ import annotations

import json
import re
import subprocess

from renamer.sweep.unit_mentions import UnitMentions
from renamer.unit_names import escape_path, generated_points
from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.lab.lan: wolf.lab.lan, rex: wolf-2}
allowlist: allow.yaml
"""
MOUNT = "[Unit]\nAfter=network-online.target\n[Mount]\nWhat=pug.lab.lan:/export/data\nWhere=/mnt/pug\nType=nfs\n"


def test_escape_is_systemds() -> None:
    assert escape_path("/mnt/wolf") == "mnt-wolf"
    assert escape_path("/mnt/wolf-2/") == "mnt-wolf\\x2d2"
    assert escape_path("//srv/./a b/.hidden") == "srv-a\\x20b-.hidden"
    assert escape_path("/.x") == "\\x2ex" and escape_path("/") == "-"


def test_a_where_whose_unit_name_would_not_follow_is_held(repo: Repo, run: Run) -> None:
    files = {
        "systemd/mnt-pug.mount": MOUNT,
        "systemd/srv-pug-data.automount": "[Automount]\nWhere=/srv/pug/data\n",
        "systemd/mnt-rex.mount": "[Mount]\nWhat=/dev/sdb1\nWhere=/mnt/rex\n",  # rex -> wolf-2: `\x2d`
        "systemd/rex.mount": "[Mount]\nWhat=/dev/sdc1\nWhere=/rex\n",  # renamed wolf-2.mount: wrong
        "templates/mnt-pug.mount.j2": "[Mount]\nWhat={{ nas }}:/x\nWhere=/mnt/pug\n",
        "cloud-init.yaml": "write_files:\n  - path: /etc/systemd/system/mnt-pug.mount\n    content: |\n"
                           "      [Mount]\n      Where=/mnt/pug\n",
        # these follow: the file's own rename is the unit's, or Where= holds no old name
        "systemd/pug.mount": "[Mount]\nWhat=/dev/sdd1\nWhere=/pug\n",
        "systemd/mnt-data.mount": "[Mount]\nWhat=pug.lab.lan:/data\nWhere=/mnt/data\n",
        "compose.yaml": "services:\n  a:\n    volumes: [/mnt/pug/x:/x]\n",  # the path's other uses
        "notes.conf": "[Service]\nWhere=/mnt/pug\n",  # no mount section: no unit name, a use of the point
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    held = {(f["path"], f["line"]) for f in json.loads(done.stdout)["findings"] if f.get("reason") == "unit-name"}
    assert held == {("systemd/mnt-pug.mount", 5), ("systemd/srv-pug-data.automount", 2),
                    ("systemd/mnt-rex.mount", 3), ("systemd/rex.mount", 3), ("systemd/rex.mount", 0),
                    ("templates/mnt-pug.mount.j2", 3), ("cloud-init.yaml", 5)}
    notes = "\n".join(f["note"] for f in json.loads(done.stdout)["findings"])
    assert "the unit must be named `mnt-wolf\\x2d2.mount`" in notes
    assert "the unit must be named `wolf\\x2d2.mount`, but the file would be `wolf-2.mount`" in notes
    assert run(root, "sweep", "--commit").exit_code == 1  # left for a decision
    assert (root / "systemd/mnt-pug.mount").read_text() == MOUNT.replace("What=pug.lab.lan", "What=wolf.lab.lan")
    assert (root / "systemd/srv-pug-data.automount").read_text() == files["systemd/srv-pug-data.automount"]
    assert (root / "systemd/rex.mount").read_text() == files["systemd/rex.mount"]
    assert (root / "cloud-init.yaml").read_text() == files["cloud-init.yaml"]
    assert not (root / "systemd/pug.mount").exists()
    assert (root / "systemd/wolf.mount").read_text() == "[Mount]\nWhat=/dev/sdd1\nWhere=/wolf\n"
    assert (root / "systemd/mnt-data.mount").read_text() == "[Mount]\nWhat=wolf.lab.lan:/data\nWhere=/mnt/data\n"
    # the mount point the held unit keeps is kept in its other uses too (held_paths.py): /mnt/wolf is
    # a folder nothing mounts
    assert (root / "compose.yaml").read_text() == files["compose.yaml"]
    assert (root / "notes.conf").read_text() == files["notes.conf"]  # held with the point, as compose.yaml
    # decided by hand: the unit renamed to its escaped new path, Where= with it
    (root / "allow.yaml").write_text(CURRENT_ALL + "keep:\n  - {name: later, path: 'systemd/*rex*', "
                                     "line_contains: rex, reason: moved next week}\n  - {name: tpl, path: "
                                     "'templates/**', line_contains: Where, reason: x}\n  - {name: ci, path: "
                                     "cloud-init.yaml, line_contains: Where, reason: x}\n"
                                     "keep_paths: [systemd/rex.mount]\n")
    for old, new, where in (("mnt-pug.mount", "mnt-wolf.mount", "/mnt/wolf"),
                            ("srv-pug-data.automount", "srv-wolf-data.automount", "/srv/wolf/data")):
        text = (root / "systemd" / old).read_text()
        (root / "systemd" / old).unlink()
        (root / "systemd" / new).write_text(text.replace(text.split("Where=")[1].split("\n")[0], where))
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout


GENERATED = {
    # break-it round 14, finding 9: fstab and NixOS make the unit from the point
    "nixos/storage.nix": '{ ... }: {\n  fileSystems."/mnt/pug" = { device = "10.0.40.11:/export"; fsType = "nfs"; };\n'
                         '  systemd.services.backup = {\n    requires = [ "mnt-pug.mount" ];\n'
                         '    after = [ "mnt-pug.mount" ];\n    script = "rsync -a /mnt/pug/ /backup/";\n  };\n}\n',
    "nixos/mounts.nix": '{ ... }: {\n  systemd.mounts = [{ what = "10.0.40.11:/export"; where = "/data/pug"; type = "nfs"; }];\n'
                        '  systemd.services.sync.requires = [ "data-pug.mount" ];\n}\n',
    "nixos/fstab": "10.0.40.11:/export /mnt/pug nfs defaults 0 0\n",
    "nixos/backup.service": "[Unit]\nRequires=mnt-pug.mount\nAfter=mnt-pug.mount\n[Service]\n"
                            "ExecStart=/usr/bin/rsync -a /mnt/pug/ /backup/\n",
    # variants: an escaped `-`, an automount, an attribute set, a template, an Ansible task
    "etc/fstab": "# <file system> <dir> <type> <options> <dump> <pass>\nUUID=1 / ext4 defaults 0 1\n"
                 "/dev/sdb1 /srv/pug/media-1 xfs defaults,x-systemd.automount 0 2\n"
                 "/dev/sdc1 /media/pug ext4 defaults 0 2\n",
    "bin/restart.sh": "systemctl restart 'srv-pug-media\\x2d1.automount'\n",
    "hosts/nas.nix": '{\n  fileSystems = {\n    "/" = { device = "/dev/sda1"; };\n'
                     '    "/backup/pug" = { device = "/dev/sdd1"; };\n  };\n'
                     '  systemd.automounts = [ { where = "/auto/pug"; } ];\n'
                     '  systemd.services.restic.after = [ "backup-pug.mount" "auto-pug.automount" ];\n}\n',
    "roles/nas/templates/fstab.j2": "{{ nas_ip }}:/export /net/pug nfs defaults 0 0\n",
    "roles/nas/templates/sync.service.j2": "[Unit]\nBindsTo=net-pug.mount\n",
    "roles/nas/tasks/main.yml": "- ansible.posix.mount:\n    path: /mnt/pug/tv-shows\n    src: 10.0.40.11:/media\n"
                                "    fstype: nfs\n    state: mounted\n"
                                "- lineinfile:\n    path: /etc/fstab\n    line: \"10.0.40.11:/x /opt/pug nfs defaults 0 0\"\n"
                                "- copy:\n    content: \"[Unit]\\nWants=mnt-pug-tv\\\\x2dshows.mount opt-pug.mount\\n\"\n"
                                "    dest: /etc/systemd/system/x.service\n",
    # these follow: nothing names the unit (`/media/pug`), or only a record does
    "notes/2024-05.md": "media-pug.mount and var-pug.mount failed after the upgrade\n",
    "storage/var.nix": '{ fileSystems."/var/pug".device = "/dev/sde1"; }\n',
}
MOVE = CONFIG.replace("allowlist:", "  addresses: {10.0.40.11: 10.0.50.21}\nallowlist:")
RECORDS = CURRENT_ALL + "records:\n  - {name: notes, paths: ['notes/**'], reason: history}\n"


def test_a_generated_mount_point_whose_unit_is_named_is_held(repo: Repo, run: Run) -> None:
    """fstab, an fstab template or `lineinfile`, an Ansible `mount` task, NixOS `fileSystems` and
    `systemd.mounts`/`automounts`: systemd makes `mnt-pug.mount` from the point. Where the repo
    names that unit, the point rewritten alone leaves `Requires=mnt-pug.mount` naming a unit that
    does not exist: held `unit-name`, the unit and where it is named in the note; the point's other
    uses are held with it. A point whose unit nothing live names follows (its unit follows it)."""
    root = repo(GENERATED, config=MOVE, allowlist=RECORDS)
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    findings = json.loads(done.stdout)["findings"]
    held = {(f["path"], f["line"]) for f in findings if f.get("reason") == "unit-name"}
    assert held == {("nixos/storage.nix", 2), ("nixos/mounts.nix", 2), ("nixos/fstab", 1), ("etc/fstab", 3),
                    ("hosts/nas.nix", 4), ("hosts/nas.nix", 6), ("roles/nas/templates/fstab.j2", 1),
                    ("roles/nas/tasks/main.yml", 2), ("roles/nas/tasks/main.yml", 8)}
    notes = {(f["path"], f["line"]): f["note"] for f in findings if f.get("reason") == "unit-name"}
    assert notes[("nixos/mounts.nix", 2)].startswith(
        "NixOS `systemd.mounts` `where` `/data/pug` makes systemd generate the unit `data-pug.mount`, which "
        "nixos/mounts.nix:3 names; rewritten to `/data/wolf`, the unit would be `data-wolf.mount`")
    assert "the unit `srv-pug-media\\x2d1.automount`, which bin/restart.sh:1 names" in notes[("etc/fstab", 3)]
    assert "`mnt-pug-tv\\x2dshows.mount`, which roles/nas/tasks/main.yml:10 names" in notes[("roles/nas/tasks/main.yml", 2)]
    # the unit names in the notes are systemd's own
    for note in notes.values():
        named = re.search(r"`(/[^`]*)` makes systemd generate the unit `([^`]+)`", note)
        assert named is not None, note
        point, unit = named.groups()
        suffix = unit.rpartition(".")[2]
        escaped = subprocess.run(["systemd-escape", "-p", f"--suffix={suffix}", point], capture_output=True,
                                 text=True, check=True).stdout.strip()
        assert escaped == unit, (point, unit)
    uses = {(f["path"], f["line"]) for f in findings if f.get("reason") == "held-path"}
    assert uses == {("nixos/storage.nix", 6), ("nixos/backup.service", 5)}  # rsync -a /mnt/pug/
    assert run(root, "sweep", "--commit").exit_code == 1  # left for a decision
    for rel in ("nixos/storage.nix", "nixos/mounts.nix", "nixos/fstab", "nixos/backup.service",
                "roles/nas/templates/fstab.j2", "roles/nas/tasks/main.yml", "bin/restart.sh", "hosts/nas.nix"):
        assert (root / rel).read_text() == GENERATED[rel].replace("10.0.40.11", "10.0.50.21"), rel
    assert (root / "etc/fstab").read_text() == GENERATED["etc/fstab"].replace("/media/pug", "/media/wolf")
    assert (root / "storage/var.nix").read_text() == GENERATED["storage/var.nix"].replace("pug", "wolf")
    assert (root / "notes/2024-05.md").read_text() == GENERATED["notes/2024-05.md"]
    # decided by hand: each point moved with every name of its unit (systemd's escaping of the new
    # point), the record left as written
    for rel, text in GENERATED.items():
        if not rel.startswith("notes/"):
            (root / rel).write_text(text.replace("pug", "wolf").replace("10.0.40.11", "10.0.50.21"))
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout


def test_generated_points_are_read_from_each_spelling_and_nothing_else() -> None:
    def points(rel: str, text: str) -> list[tuple[str, tuple[str, ...]]]:
        data = text.encode()
        return [(data[s:e].decode(), suffixes) for s, e, suffixes, _ in generated_points(rel, data)]

    both = (".mount", ".automount")
    assert points("etc/fstab", "# 10.0.40.11:/e /mnt/x nfs defaults 0 0\n/swapfile none swap sw 0 0\n"
                               "LABEL=d\t/srv/pug  xfs\n{{ nas }}:/e /net/pug nfs defaults 0 0\n") == [
        ("/srv/pug", both), ("/net/pug", both)]
    assert points("run.sh", 'echo "10.0.40.11:/e /mnt/pug nfs defaults 0 0" >> /etc/fstab\n'
                            "rsync -a /mnt/pug/ /b/ 0 0\nmount -t nfs 10.0.40.11:/e /mnt/pug\n") == [("/mnt/pug", both)]
    assert points("compose.yaml", "services:\n  a:\n    volumes: [/mnt/pug:/data]\n    mount: /x\n") == []
    assert points("play.yml", "- mount: path=/srv/pug src=/dev/sdb fstype=ext4 state=mounted\n"
                              "- ansible.posix.mount:\n    name: /mnt/pug\n    src: x\n- copy:\n    dest: /mnt/y\n") == [
        ("/srv/pug", both), ("/mnt/pug", both)]
    assert points("hw.nix", '{\n  fileSystems = {\n    "/" = { device = "/dev/sda1"; label = "/x"; };\n'
                            '    "/mnt/pug" = lib.mkForce { options = [ "/y" ]; };\n  };\n'
                            '  systemd.automounts = [ { where = "/auto/pug"; } ];\n'
                            '  systemd.mounts = [ { where = "/m/pug"; } ];\n}\n') == [
        ("/", both), ("/mnt/pug", both), ("/auto/pug", (".automount",)), ("/m/pug", (".mount",))]
    assert points("old.nix", '{ fileSystems = [ { mountPoint = "/mnt/pug"; } ]; }\n') == [("/mnt/pug", both)]


def test_a_unit_is_named_by_a_live_file_only_and_as_a_whole_name(repo: Repo, run: Run) -> None:
    root = repo({"a.service": "[Unit]\nRequires=xmnt-pug.mount mnt-pug.mounted\n",
                 "notes/2024.md": "mnt-pug.mount failed\n",
                 "b.nix": '{ requires = [ "srv-pug\\\\x2d1.mount" ]; }\n'}, config=MOVE, allowlist=RECORDS)
    live = {"a.service", "b.nix"}
    mentions = UnitMentions(root, lambda rel: rel in live)
    assert mentions.named("mnt-pug.mount") is None
    assert mentions.named("srv-pug\\x2d1.mount") == "b.nix:1"  # written doubled in a Nix string
    (root / "c.sh").write_text("systemctl start mnt-pug.mount\n")  # untracked: the sweep reads it too
    live.add("c.sh")
    assert UnitMentions(root, lambda rel: rel in live).named("mnt-pug.mount") == "c.sh:1"
    # a path names it too: a drop-in folder, a `.wants/` link
    (root / "systemd/srv-pug.mount.d").mkdir(parents=True)
    (root / "systemd/srv-pug.mount.d/timeout.conf").write_text("[Mount]\nTimeoutSec=30\n")
    (root / "systemd/multi-user.target.wants").mkdir()
    (root / "systemd/multi-user.target.wants/data-pug.automount").symlink_to("/etc/systemd/system/x")
    live |= {"systemd/srv-pug.mount.d/timeout.conf", "systemd/multi-user.target.wants/data-pug.automount"}
    mentions = UnitMentions(root, lambda rel: rel in live)
    assert mentions.named("srv-pug.mount") == "systemd/srv-pug.mount.d/timeout.conf"
    assert mentions.named("data-pug.automount") == "systemd/multi-user.target.wants/data-pug.automount"
    assert mentions.named("data-pug.mount") is None


# Break-it round 16, finding 13: ZFS's `mountpoint` property, which zfs-mount-generator (disko: NixOS
# `fileSystems`) makes a unit of, in each spelling; the unit named by a service.
ZFS = {
    "mkpool.sh": "#!/bin/sh\nzfs create -o mountpoint=/mnt/pug tank/data1\nzfs set mountpoint=/tank/pug tank/p\n"
                 "zpool create -O mountpoint='/pool/pug' pool /dev/sdb\nmountpoint -q /data/pug || exit 1\n",
    "roles/zfs/tasks/main.yml": "- community.general.zfs:\n    name: tank/data2\n    state: present\n"
                                "    extra_zfs_properties:\n      mountpoint: /srv/pug\n",
    "disko.nix": '{ disko.devices.zpool.tank.datasets.pug = { type = "zfs_fs"; mountpoint = "/vm/pug"; }; }\n',
    "units/app.service": "[Unit]\nRequires=mnt-pug.mount tank-pug.mount pool-pug.mount\n"
                         "After=srv-pug.mount vm-pug.mount data-pug.mount\n",
    # nothing names its unit: follows
    "other.sh": "zfs create -o mountpoint=/media/pug tank/m\n",
}


def test_round16_a_zfs_mountpoint_whose_unit_is_named_is_held(repo: Repo, run: Run) -> None:
    root = repo(ZFS, config=MOVE, allowlist=RECORDS)
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    held = {(f["path"], f["line"]) for f in findings if f.get("reason") == "unit-name"}
    assert held == {("mkpool.sh", 2), ("mkpool.sh", 3), ("mkpool.sh", 4), ("roles/zfs/tasks/main.yml", 5),
                    ("disko.nix", 1)}
    for note in (f["note"] for f in findings if f.get("reason") == "unit-name"):
        named = re.search(r"`(/[^`]*)` makes systemd generate the unit `([^`]+)`", note)
        assert named is not None, note
        point, unit = named.groups()
        escaped = subprocess.run(["systemd-escape", "-p", "--suffix=mount", point], capture_output=True,
                                 text=True, check=True).stdout.strip()
        assert escaped == unit
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel in ("mkpool.sh", "roles/zfs/tasks/main.yml", "disko.nix"):
        text = (root / rel).read_text()
        assert all(f"/{d}/pug" in text for d in ("mnt", "tank", "pool", "srv", "vm") if f"/{d}/pug" in ZFS[rel])
    assert "/data/wolf" in (root / "mkpool.sh").read_text()  # the `mountpoint` command: a path, no property
    assert (root / "other.sh").read_text() == ZFS["other.sh"].replace("pug", "wolf")
