"""campaign.yaml read strictly: every problem one `renamer: error: campaign.yaml:LINE: key: ...` line,
exit 2, nothing cloned; the valid file's repos in depends_on order."""

from __future__ import annotations

from pathlib import Path

import pytest

from renamer.campaign.config import load_campaign
from tests.testing.repos import Run, make_repo

HEAD = "version: 1\nname: fv-ml1-move\nrenames:\n  hosts: {ana-ml2: fv-ml1}\n"
ONE = "repos:\n  - name: infra\n    url: ../infra\n"


def _world(tmp_path: Path, text: str) -> Path:
    make_repo(tmp_path / "infra", {"runbook.md": "ssh ana-ml2\n"})
    make_repo(tmp_path / "apps", {"a.env": "H=ana-ml2\n"})
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "campaign.yaml").write_text(text)
    return folder


@pytest.mark.parametrize(("text", "error"), [
    pytest.param(HEAD + ONE + "colour: blue\n",
                 "campaign.yaml:8: colour: unknown key (known: allowlist, config, cutover, name, renames, repos, "
                 "version, work_dir)", id="unknown-key"),
    pytest.param(HEAD + "repos:\n  - name: infra\n    url: ../infra\n    branch: main\n",
                 "campaign.yaml:8: repos[0].branch: unknown key (known: allowlist, depends_on, name, url)",
                 id="unknown-repo-key"),
    pytest.param("version: 1\nname: fv-ml1-move\nrenames: [ana-ml2]\n" + ONE,
                 "campaign.yaml:3: renames: expected a mapping, got a list", id="renames-a-list"),
    pytest.param(HEAD + "repos:\n  - name: infra\n    url: ../infra\n    depends_on: apps\n",
                 "campaign.yaml:8: repos[0].depends_on: expected a list of repo names, got a string",
                 id="depends-on-a-string"),
    pytest.param(HEAD + ONE + "  - name: infra\n    url: ../apps\n",
                 "campaign.yaml:8: repos[1].name: 'infra' is named twice (first at line 6)", id="name-twice"),
    pytest.param(HEAD + "repos:\n  - name: campaign.lock\n    url: ../infra\n",  # break-it finding 13
                 "campaign.yaml:6: repos[0].name: 'campaign.lock' is the name of the campaign's own file in "
                 "work_dir: name the repo otherwise", id="name-reserved"),
    pytest.param(HEAD + "repos:\n  - name: ../etc\n    url: ../infra\n",
                 "campaign.yaml:6: repos[0].name: expected a plain folder name (letters, digits, '.', '_', '-'; "
                 "not a path), got '../etc'", id="name-a-path"),
    pytest.param(HEAD + "repos:\n  - name: infra\n    url: ../infra\n    depends_on: [apps]\n"
                 "  - name: apps\n    url: ../apps\n    depends_on: [infra]\n",
                 "campaign.yaml:8: repos[0].depends_on: a cycle: infra -> apps -> infra", id="cycle"),
    pytest.param(HEAD + "repos:\n  - name: infra\n    url: ../infra\n    depends_on: [dns]\n",
                 "campaign.yaml:8: repos[0].depends_on: 'dns' is no repo of this campaign", id="unknown-dependency"),
    pytest.param(HEAD + "repos:\n  - name: infra\n    url: 'ext::sh -c touch% /tmp/pwned'\n",
                 "campaign.yaml:7: repos[0].url: 'ext::sh -c touch% /tmp/pwned' is neither a path nor a git URL "
                 "renamer clones (https://, ssh://, git://, file://, user@host:path, or a folder)", id="ext-url"),
    pytest.param(HEAD + "repos:\n  - name: infra\n    url: --upload-pack=touch\n",
                 "campaign.yaml:7: repos[0].url: '--upload-pack=touch' is neither a path nor a git URL",
                 id="option-url"),
    pytest.param(HEAD + "repos:\n  - name: infra\n    url: ../nowhere\n",
                 "campaign.yaml:7: repos[0].url: '../nowhere': no such folder ({tmp}/nowhere)", id="no-folder"),
    pytest.param(HEAD + "work_dir: ../elsewhere\n" + ONE,
                 "campaign.yaml:5: work_dir: '../elsewhere' is outside {tmp}/c, campaign.yaml's folder: the "
                 "clones live in a folder of it", id="work-dir-escapes"),
    pytest.param(HEAD + "work_dir: .\n" + ONE,
                 "campaign.yaml:5: work_dir: '.' is outside {tmp}/c, campaign.yaml's folder: the clones live in "
                 "a folder of it", id="work-dir-is-the-folder"),
    pytest.param("version: 1\nname: fv-ml1-move\n" + ONE,
                 "campaign.yaml:1: renames: give the move's renames, or config: naming a renamer.yaml, not both "
                 "and not neither", id="no-renames"),
    pytest.param("version: 1\nname: 'fv ml1/../x'\nrenames:\n  hosts: {ana-ml2: fv-ml1}\n" + ONE,
                 "campaign.yaml:2: name: expected the move's name, letters, digits, '.', '_' or '-' (it names the "
                 "branch renamer/<name>), got 'fv ml1/../x'", id="name-not-a-branch"),
    pytest.param("version: 1\nname: fv-ml1-move\nrenames:\n  hosts: {ana-ml2: fv-ml1, fv-ml1: ana-ml2}\n" + ONE,
                 "campaign.yaml:4: renames.hosts.ana-ml2:", id="swap"),
    pytest.param(HEAD + "repos:\n  - name: infra\n    url: ../infra\n    allowlist: ../../etc/allow.yaml\n",
                 "campaign.yaml:8: repos[0].allowlist: expected a path inside the repo, got '../../etc/allow.yaml'",
                 id="allowlist-outside-the-repo"),
])
def test_a_bad_campaign_file_is_one_line_naming_file_line_and_key(tmp_path: Path, run: Run, text: str,
                                                                   error: str) -> None:
    folder = _world(tmp_path, text)
    done = run(folder, "campaign", "plan", "campaign.yaml")
    assert done.exit_code == 2
    first = done.stderr.splitlines()[0]
    assert first.startswith("renamer: error: " + error.format(tmp=tmp_path)), done.stderr
    assert "Traceback" not in done.stderr
    assert not (folder / ".campaign").exists()  # nothing cloned


def test_a_work_dir_inside_a_repo_it_clones_is_refused(tmp_path: Path, run: Run) -> None:
    folder = _world(tmp_path, HEAD + "work_dir: ../c/inner\n" + ONE)
    (tmp_path / "infra" / "campaign.yaml").write_text(HEAD + "work_dir: .campaign\nrepos:\n  - name: infra\n"
                                                      "    url: .\n")
    done = run(tmp_path / "infra", "campaign", "plan", "campaign.yaml")
    assert done.exit_code == 2
    assert done.stderr == (f"renamer: error: campaign.yaml:5: work_dir: {tmp_path}/infra/.campaign is inside repo "
                           f"infra's folder {tmp_path}/infra: the campaign never writes a repository it clones\n")
    assert not (tmp_path / "infra" / ".campaign").exists()
    assert (folder / "campaign.yaml").is_file()


def test_the_repos_come_in_depends_on_order_and_config_names_a_renamer_yaml(tmp_path: Path) -> None:
    folder = _world(tmp_path, "version: 1\nname: fv-ml1-move\nconfig: ../infra/renamer.yaml\n"
                              "repos:\n  - name: apps\n    url: ../apps\n    depends_on: [infra]\n"
                              "  - name: infra\n    url: file://" + str(tmp_path / "infra") + "\n")
    loaded = load_campaign(folder / "campaign.yaml")
    assert [r.name for r in loaded.repos] == ["infra", "apps"]
    assert loaded.renames.hosts == (("ana-ml2", "fv-ml1"), ("ana-ml2-bmc", "fv-ml1-bmc"),
                                    ("ana-ml2.ana.lan", "fv-ml1.fv.lan"))
    assert loaded.work_dir == folder.resolve() / ".campaign"
    assert loaded.repo("infra").local == (tmp_path / "infra").resolve()
    assert loaded.branch == "renamer/fv-ml1-move"
