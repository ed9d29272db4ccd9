"""A dated file name against a live read of its folder (break-it round 24, finding 20).

With `dated.filenames: true` (what `renamer init` writes), `apps/backup/cronjob-2024-05-01.yaml`
applied by a Flux Kustomization's `path: ./apps/backup` (no kustomization.yaml there: Flux applies
every manifest) or by `kubectl apply -f apps/backup/`, and `inventories/hosts-2025-01-15.ini` read
through ansible.cfg's `inventory = inventories/`, were `dated-file` records: web01 kept, verify OK.
Round 21 #33 fixed includes naming the file; now a live directive reading the file's folder whole
makes it current (rewritten), and one in a file no rule classes leaves it undecided, naming the
place, so verify fails until a person decides. A folder named by no directive, a commented-out
one, or another folder, leaves the dated name to decide.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.conftest import Result

CONFIG = "version: 1\nname: m\ncutover: 2026-12-06\nrenames: {hosts: {pug: wolf}}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\ndated:\n  filenames: true\n"
CRONJOB = ("apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: backup}\nspec:\n  jobTemplate:\n    spec:\n"
           "      template:\n        spec:\n          nodeSelector:\n            kubernetes.io/hostname: pug\n")
FLUX = ("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: backup}\nspec:\n"
        "  path: ./apps/backup\n  sourceRef: {kind: GitRepository, name: flux-system}\n")
ARGO = ("apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: backup}\nspec:\n  source:\n"
        "    repoURL: https://git.example/infra.git\n    path: apps\n")
DATED = "apps/backup/cronjob-2024-05-01.yaml"
INVENTORY = "inventories/hosts-2025-01-15.ini"

# name: (files beside the dated one, the dated file's path)
LIVE: dict[str, tuple[dict[str, str | bytes], str]] = {
    "flux-path": ({"clusters/main/backup.yaml": FLUX}, DATED),
    "argo-path-above": ({"argocd/backup.yaml": ARGO}, DATED),  # Argo CD reads `apps` and below
    "kubectl-apply-dir": ({"deploy.sh": "#!/bin/sh\nkubectl apply -f apps/backup/\n"}, DATED),
    "kubectl-recursive": ({"Makefile": "deploy:\n\tkubectl apply -R -f ./apps\n"}, DATED),
    "kustomize-build": ({"ci.sh": "#!/bin/sh\nkustomize build apps/backup | kubectl apply -f -\n"}, DATED),
    "ansible-cfg": ({"ansible.cfg": "[defaults]\ninventory = inventories/\n"}, INVENTORY),
    "ansible-cfg-crlf": ({"ansible.cfg": b"[defaults]\r\ninventory = ./inventories\r\n"}, INVENTORY),
    "ansible-playbook-i": ({"run.sh": "#!/bin/sh\nansible-playbook -i inventories site.yml\n"}, INVENTORY),
}
# the dated name decides: nothing reads the folder whole
KEPT: dict[str, tuple[dict[str, str | bytes], str]] = {
    "plain-yaml-path": ({"notes.yaml": "backup:\n  path: ./apps/backup\n"}, DATED),
    "commented-out": ({"deploy.sh": "#!/bin/sh\n# kubectl apply -f apps/backup/\n"}, DATED),
    "another-folder": ({"deploy.sh": "#!/bin/sh\nkubectl apply -f apps/web/\n"}, DATED),
    "below-without-recursion": ({"deploy.sh": "#!/bin/sh\nkubectl apply -f apps/\n"}, DATED),
    # kustomize applies what its kustomization lists, not the folder: the dated file is not listed
    "flux-path-kustomized": ({"clusters/main/backup.yaml": FLUX,
                              "apps/backup/kustomization.yaml": "resources: [cronjob.yaml]\n",
                              "apps/backup/cronjob.yaml": "kind: CronJob\n"}, DATED),
    "argo-kustomized-between": ({"argocd/backup.yaml": ARGO, "apps/backup/kustomization.yaml": "resources: []\n"},
                                DATED),
}


def _content(path: str) -> str:
    return CRONJOB if path == DATED else "[web]\npug\n"


@pytest.mark.parametrize("case", sorted(LIVE))
def test_round24_a_live_read_of_its_folder_beats_a_dated_name(case: str, repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    files, dated = LIVE[case]
    root = repo({**files, dated: _content(dated)}, config=CONFIG, allowlist=ALLOW)
    explained = run(root, "explain", dated)
    assert f"{dated}: current" in explained.stdout and "live:" in explained.stdout, explained.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = (root / dated).read_text()
    assert "pug" not in after and "wolf" in after, after
    if dated == DATED:
        assert yaml.safe_load(after)["spec"]["jobTemplate"]["spec"]["template"]["spec"]["nodeSelector"] == {
            "kubernetes.io/hostname": "wolf"}
    elif shutil.which("ansible-inventory") or (Path(".venv/bin/ansible-inventory")).exists():
        tool = shutil.which("ansible-inventory") or str(Path(".venv/bin/ansible-inventory").resolve())
        listed = subprocess.run([tool, "-i", str(root / dated), "--list"], capture_output=True, text=True,
                                check=True)
        assert '"wolf"' in listed.stdout
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("case", sorted(KEPT))
def test_round24_a_folder_nothing_reads_whole_leaves_the_dated_name(case: str, repo: Callable[..., Path],
                                                                    run: Callable[..., Result]) -> None:
    files, dated = KEPT[case]
    root = repo({**files, dated: _content(dated)}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / dated).read_text() == _content(dated)
    assert "dated-file" in run(root, "audit").stdout


def test_round24_read_by_a_file_no_rule_classes_is_undecided(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    """With the allowlist `renamer init` writes, ansible.cfg (no old value) is unclassified: the
    inventory it reads is left undecided naming ansible.cfg:2, verify fails, nothing written."""
    root = repo({"ansible.cfg": "[defaults]\ninventory = inventories/\n", INVENTORY: "[web]\npug\n"},
                config=CONFIG, allowlist="version: 1\ncurrent: ['*.ini', 'inventories/**']\ndated:\n"
                                          "  filenames: true\n")
    verified = run(root, "verify")
    assert verified.exit_code == 1
    assert "ansible.cfg:2" in run(root, "explain", INVENTORY).stdout
    run(root, "sweep", "--commit")
    assert (root / INVENTORY).read_text() == "[web]\npug\n"
