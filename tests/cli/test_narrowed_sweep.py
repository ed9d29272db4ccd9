"""Break-it round 17, #19: `renamer sweep --commit hosts` moved `hosts/pug/` to `hosts/wolf/` and
committed with exit 0, leaving `compose.yaml`'s `include:` and `ci/deploy.sh`'s `-f` (outside
the paths swept) naming a folder that is gone; `verify hosts` said OK. A narrowed sweep now
refuses (exit 3, nothing written, each outside line named) where a current file outside its
paths names a path it moves, and sweeps as before where none does or the paths cover them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.testing.repos import PUG_ALLOW, PUG_CONFIG, git

APP = "services: {app: {image: nginx}}\n"

# case -> (files, the paths swept, the outside places the refusal names)
CASES: dict[str, tuple[dict[str, str], list[str], list[str]]] = {
    "report": ({"hosts/pug/compose.yaml": APP, "ci/deploy.sh": "#!/bin/sh\ndocker compose -f hosts/pug/compose.yaml up\n",
                "compose.yaml": "include:\n  - hosts/pug/compose.yaml\n"}, ["hosts"], ["ci/deploy.sh:2", "compose.yaml:2"]),
    # one file (not a folder) renamed, read by an nginx include from the folder above
    "a-file": ({"nginx/sites/pug.conf": "server { listen 80; }\n",
                "nginx/nginx.conf": "http {\n  include sites/pug.conf;\n}\n"}, ["nginx/sites"], ["nginx/nginx.conf:2"]),
    # one level deeper, read relative to the reader's folder and from a sibling with `../`
    "relative-and-deeper": ({"stacks/hosts/pug/app.env": "A=1\n",
                             "stacks/compose.yaml": "services:\n  app:\n    image: x\n    env_file: hosts/pug/app.env\n",
                             "tools/sync.sh": "rsync -a ../stacks/hosts/pug/ backup:/srv/\n"},
                            ["stacks/hosts"], ["stacks/compose.yaml:4", "tools/sync.sh:1"]),
    # a folder named with a trailing slash in a Makefile, the sweep given a file inside it
    "a-folder-by-a-file-inside": ({"hosts/pug/app.conf": "x=1\n", "Makefile": "sync:\n\trsync -a hosts/pug/ b:/srv\n"},
                                  ["hosts/pug/app.conf"], ["Makefile:2"]),
    # `cd hosts && ... -f pug/compose.yaml`: read from the folder the line changes into
    "cd-then-a-relative-path": ({"hosts/pug/compose.yaml": APP, "stacks/pug/compose.yaml": APP,
                                 "ci/up.sh": "cd hosts && docker compose -f pug/compose.yaml up -d\n"},
                                ["hosts"], ["ci/up.sh:1"]),
    # break-it round 19, #15: readers that join the path from parts or from a variable
    "joined-and-variables": ({"hosts/pug/compose.yaml": APP,
                              "py/load.py": 'import os\ng = os.path.join("hosts", "pug", "compose.yaml")\n',
                              "py/var.py": 'import os\nHOST = "pug"\nf = os.path.join("hosts", HOST, "compose.yaml")\n',
                              "ci/all.sh": 'HOSTS_DIR=hosts\nfor h in pug rex; do docker compose -f '
                                           '"$HOSTS_DIR/$h/compose.yaml" up -d; done\n'},
                             ["hosts"], ["py/load.py:2", "py/var.py:2", "ci/all.sh:2"]),
}


def _repo(repo, files: dict[str, str]) -> Path:
    root: Path = repo({"renamer.yaml": PUG_CONFIG, "allow.yaml": PUG_ALLOW, **files}, config=None, allowlist=None)
    return root


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_narrowed_sweep_moving_a_path_named_outside_it_is_refused(repo, run, case) -> None:
    files, paths, named = CASES[case]
    root = _repo(repo, files)
    head = git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run", "--format", "summary", *paths)
    refused = dry.stdout[dry.stdout.index("Refused:"):]
    for place in named:
        assert f"\n  {place}: names " in refused, dry.stdout
    for args in (["sweep", "--commit", *paths], ["sweep", *paths]):
        done = run(root, *args)
        assert done.exit_code == 3, done.stdout
        assert all(f"{place}: names " in done.stderr for place in named) and "nothing written" in done.stderr
        assert git(root, "rev-parse", "HEAD") == head and git(root, "status", "--porcelain") == ""
    assert all((root / path).read_text() == text for path, text in files.items())
    # the whole repo: the readers follow the move, and verify is OK
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert run(root, "verify").exit_code == 0


def test_a_narrowed_sweep_whose_paths_cover_the_readers_or_none_names_the_path_moves(repo, run) -> None:
    """The readers inside the paths swept, a bare host word and a machine's absolute path outside
    them: the narrowed sweep moves the folder with exit 0."""
    files = {"hosts/pug/compose.yaml": APP, "hosts/run.sh": "docker compose -f pug/compose.yaml up\n",
             "ci/deploy.sh": "#!/bin/sh\nssh pug 'ls /srv/hosts/pug/compose.yaml'\n"}
    root = _repo(repo, files)
    done = run(root, "sweep", "--commit", "hosts")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "hosts/wolf/compose.yaml").exists()
    assert (root / "hosts/run.sh").read_text() == "docker compose -f wolf/compose.yaml up\n"
    assert (root / "ci/deploy.sh").read_text() == files["ci/deploy.sh"]  # outside the paths: untouched


def test_a_narrowed_sweep_given_the_readers_too_moves_them_together(repo, run) -> None:
    report, _, _ = CASES["report"]
    other = _repo(repo, report)
    assert run(other, "sweep", "--commit", "hosts", "ci", "compose.yaml").exit_code == 0
    assert (other / "compose.yaml").read_text() == "include:\n  - hosts/wolf/compose.yaml\n"


def test_a_tail_that_names_another_existing_file_stops_nothing(repo, run) -> None:
    """Break-it round 19, #14: `cd stacks && docker compose -f pug/compose.yaml` names
    `stacks/pug/compose.yaml`, which exists and is not moved, yet refused the sweep of hosts/.
    Read from the folder its line changes into (`cd DIR &&`, `-C DIR`), or a tail that a listed
    file the sweep does not move ends with too, it names that file: the sweep moves hosts/ with
    exit 0."""
    files = {"hosts/pug/compose.yaml": APP, "stacks/pug/compose.yaml": APP.replace("nginx", "redis"),
             "ci/deploy.sh": "docker compose -f /srv/stacks/pug/compose.yaml up -d\n"
                             "cd stacks && docker compose -f pug/compose.yaml up -d\n",
             "ci/pack.sh": "tar -C stacks -czf stack.tgz pug/compose.yaml\n",
             "ci/either.sh": "docker compose -f pug/compose.yaml config\n"}
    root = _repo(repo, files)
    done = run(root, "sweep", "--commit", "hosts")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "hosts/wolf/compose.yaml").exists() and (root / "stacks/pug/compose.yaml").exists()
    for rel in ("ci/deploy.sh", "ci/pack.sh", "ci/either.sh"):
        assert (root / rel).read_text() == files[rel], rel
