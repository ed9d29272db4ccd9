"""What the sweep says of git-ignored files is true (break-it round 10, finding 11).

`hosts/pug/.env` holding `POSTGRES_PASSWORD=x` was listed as "Ignored by git ... holding old
values": only its folder's path held `pug`, and the folder, moved whole, took it along. A file
is said to hold old values when its content does; one whose path alone holds one is listed apart,
and a sweep leaves out those a folder it moves whole takes along (their new path holds none).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW, PUG_CONFIG, make_repo, snapshot

COMPOSE = "services:\n  db:\n    env_file: .env\n    hostname: pug\n"
HOLDING = "Ignored by git but covered by `current`, holding old values"
PATH_ONLY = "Ignored by git but covered by `current`, an old value in their path only"


def _line(out: str, start: str) -> str:
    return next((line for line in out.splitlines() if line.startswith(start)), "")


def test_a_clean_file_moved_with_its_folder_is_not_said_to_hold_old_values(
        tmp_path: Path, run: Callable[..., Result]) -> None:
    root = make_repo(tmp_path / "r", {".gitignore": ".env\n", "hosts/pug/compose.yaml": COMPOSE},
                     config=PUG_CONFIG, allowlist=PUG_ALLOW)
    (root / "hosts/pug/.env").write_text("POSTGRES_PASSWORD=x\n")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stderr
    assert "Ignored by git" not in done.stdout
    files = snapshot(root)
    assert files["hosts/wolf/.env"] == b"POSTGRES_PASSWORD=x\n"
    assert files["hosts/wolf/compose.yaml"] == COMPOSE.replace("pug", "wolf").encode()
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 0 and "Ignored by git" not in checked.stdout


def test_content_and_path_are_told_apart(tmp_path: Path, run: Callable[..., Result]) -> None:
    root = make_repo(tmp_path / "r", {".gitignore": "*.env\nsecrets/\n", "hosts/pug/compose.yaml": COMPOSE},
                     config=PUG_CONFIG, allowlist=PUG_ALLOW)
    ignored = {"hosts/pug/.env": "X=1\n", "pug.env": "X=1\n", "secrets/pug/key": "k\n",
               "live.env": "HOST=pug\n", "clean.env": "X=1\n"}
    for rel, text in ignored.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    planned = run(root, "sweep", "--dry-run")
    assert planned.exit_code == 0, planned.stderr
    # the content holder; the names a sweep leaves behind (hosts/pug/.env moves with its folder)
    assert _line(planned.stdout, HOLDING).endswith(": live.env")
    assert _line(planned.stdout, PATH_ONLY).endswith(": pug.env, secrets/pug/key")
    assert "clean.env" not in planned.stdout
    found = json.loads(run(root, "verify", "--format", "json").stdout)
    assert found["ignored_with_references"] == ["live.env"]
    assert found["ignored_with_old_paths"] == ["hosts/pug/.env", "pug.env", "secrets/pug/key"]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stderr
    files = snapshot(root)
    assert files["hosts/wolf/.env"] == b"X=1\n" and files["live.env"] == b"HOST=pug\n"
    assert files["pug.env"] == b"X=1\n" and files["secrets/pug/key"] == b"k\n"
    after = run(root, "verify")
    assert after.exit_code == 0  # ignored files are not checked without --include-ignored: said, not failed
    assert _line(after.stdout, PATH_ONLY).endswith(": pug.env, secrets/pug/key")
    assert _line(after.stdout, HOLDING).endswith(": live.env")
