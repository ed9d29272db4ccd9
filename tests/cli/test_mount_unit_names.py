"""systemd units named after their path, end to end (break-it round 10, finding 3).

`mnt-pug.mount` must be `systemd-escape -p --suffix=mount` of its `Where=`: a rewritten `Where=`
whose unit name would not follow is held (residual `unit-name`, with the new unit name spelled
out); a unit whose own file rename is its new escaped name (`pug.mount`, `Where=/pug`) moves.
"""

from __future__ import annotations

import json

from renamer.unit_names import escape_path
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
