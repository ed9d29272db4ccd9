"""renamer campaign end to end through the CLI, on real git: bare repositories on the local disk as the
remotes, a user's checkout cloned from one, the campaign's own clones in work_dir."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.campaigns import BRANCH, CAMPAIGN, GATEWAY, INFRA, World, build_world, fingerprint
from tests.testing.repos import CONFIG, Run, git

BLOCKED_GATEWAY = {**GATEWAY, "notes/todo.md": "check the gateway on ana-ml2\n"}


def campaign(run: Run, world: World, *args: str) -> Result:
    return run(world.campaign.parent, "campaign", args[0], "campaign.yaml", *args[1:])


def _branch_log(clone: Path) -> list[str]:
    """The bodies of the move's commits on its branch, oldest first."""
    out = git(clone, "log", "--reverse", "--format=%B%x00", f"origin/main..{BRANCH}")
    return [body.strip() for body in out.split("\0") if body.strip()]


def test_an_unclassified_file_blocks_every_repo_until_skipped(tmp_path: Path, run: Run) -> None:
    world = build_world(tmp_path, gateway=BLOCKED_GATEWAY)
    remotes = {name: world.refs(name) for name in ("infra", "gateway", "apps")}
    checkout = fingerprint(world.checkout)

    planned = campaign(run, world, "plan")
    assert planned.exit_code == 1, planned.stderr
    assert "  gateway  blocked  1 unclassified file (notes/todo.md)" in planned.stdout
    assert "  gateway: unclassified notes/todo.md" in planned.stdout
    assert "blocked: 1 repo (gateway): nothing is written anywhere" in planned.stdout
    lines = {line.split()[0]: line.split()[1] for line in planned.stdout.splitlines()[1:4]}
    assert lines == {"infra": "ready", "gateway": "blocked", "apps": "ready"}

    refused = campaign(run, world, "apply")
    assert refused.exit_code == 3
    assert refused.stderr == ("renamer: error: campaign refused: gateway blocked (see the plan above); nothing "
                              "written in any repo; fix it or --skip gateway\n")
    for name in ("infra", "gateway", "apps"):  # no branch, no commit, no file changed, in any clone
        clone = world.clone(name)
        assert git(clone, "branch", "--list", BRANCH) == ""
        assert git(clone, "status", "--porcelain", "--ignored") == ""
        assert git(clone, "rev-parse", "HEAD") == git(clone, "rev-parse", "origin/main")  # detached there
    status = campaign(run, world, "status")
    assert status.exit_code == 0
    assert status.stdout.splitlines()[0] == "campaign fv-ml1-move: 0 of 3 repos done, 6 references left"
    assert "  gateway  blocked  2 references left; 1 unclassified file (notes/todo.md)" in status.stdout

    applied = campaign(run, world, "apply", "--skip", "gateway")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    outcome = {line.split()[0]: line.split()[1] for line in applied.stdout.splitlines()[1:4]}
    assert outcome == {"infra": "applied", "gateway": "skipped", "apps": "applied"}
    assert applied.stdout.splitlines()[-1] == "applied 2, already 0, nothing 0, failed 0, skipped 1"

    infra = world.clone("infra")
    bodies = _branch_log(infra)
    assert [b.splitlines()[0] for b in bodies] == [
        "fv-ml1-move: rename files (ana-ml2 -> fv-ml1, 10.250.50.54 -> 10.251.50.54)",
        "fv-ml1-move: ana-ml2 -> fv-ml1, 10.250.50.54 -> 10.251.50.54"]
    assert all("Renamer-Move: fv-ml1-move" in b for b in bodies)
    assert "Renamer-Commit: renames" in bodies[0] and "Renamer-Commit: rewrite" in bodies[1]
    assert git(infra, "show", f"{BRANCH}:stacks/fv-ml1.env") == "HOST=fv-ml1\nADDR=10.251.50.54\n"
    assert git(infra, "show", f"{BRANCH}:runbook.md") == "ssh root@fv-ml1\n"
    assert git(infra, "show", f"{BRANCH}:persistent-memory.d/2026-09-01-kv.md") == "moved kv cache off ana-ml2\n"
    apps = world.clone("apps")
    assert git(apps, "show", f"{BRANCH}:stacks/web/app.env") == "API=http://fv-ml1:8000\n"
    assert git(world.clone("gateway"), "branch", "--list", BRANCH) == ""

    status = campaign(run, world, "status")
    rows = {line.split()[0]: line.split()[1] for line in status.stdout.splitlines()[1:]}
    assert rows == {"infra": "applied", "gateway": "skipped", "apps": "applied"}
    assert status.stdout.splitlines()[0] == "campaign fv-ml1-move: 2 of 3 repos done, 2 references left"

    # Again: the done repos are left alone, the same commits, nothing new.
    heads = {name: git(world.clone(name), "rev-parse", BRANCH).strip() for name in ("infra", "apps")}
    again = campaign(run, world, "apply", "--skip", "gateway")
    assert again.exit_code == 0
    assert {line.split()[0]: line.split()[1] for line in again.stdout.splitlines()[1:4]} == {
        "infra": "already", "gateway": "skipped", "apps": "already"}
    assert {name: git(world.clone(name), "rev-parse", BRANCH).strip() for name in ("infra", "apps")} == heads

    # Nothing reached a remote before the push, and the user's checkout is as it was.
    assert {name: world.refs(name) for name in ("infra", "gateway", "apps")} == remotes
    assert fingerprint(world.checkout) == checkout

    pushed = campaign(run, world, "push", "--forge", "none", "--skip", "gateway")
    assert pushed.exit_code == 0, pushed.stdout
    assert f"  infra    pushed   {BRANCH} -> {world.remote('infra')}; no forge CLI" in pushed.stdout
    assert "  gateway  skipped  --skip" in pushed.stdout
    for name in ("infra", "apps"):
        refs = world.refs(name)
        assert refs[f"refs/heads/{BRANCH}"] == heads[name]
        assert refs["refs/heads/main"] == remotes[name]["refs/heads/main"]  # the default branch never moved
    assert world.refs("gateway") == remotes["gateway"]
    assert fingerprint(world.checkout) == checkout  # pushed to the checkout's origin, not into it

    status = campaign(run, world, "status", "--format", "json")
    data = json.loads(status.stdout)
    assert [(r["name"], r["state"], r["pushed"]) for r in data["repos"]] == [
        ("infra", "pushed", True), ("gateway", "skipped", False), ("apps", "pushed", True)]
    assert data["repos"][0]["changed"] == "2 files, 3 replacements, 1 renamed"

    twice = campaign(run, world, "push", "--forge", "none")
    assert twice.exit_code == 1  # gateway, not skipped this time, is still not applied
    assert "  gateway  not-applied  no renamer/fv-ml1-move with the move's commits" in twice.stdout
    assert "  infra    already" in twice.stdout and "  apps     already" in twice.stdout
    assert {name: world.refs(name) for name in ("infra", "apps")} == {
        name: {**remotes[name], f"refs/heads/{BRANCH}": heads[name]} for name in ("infra", "apps")}


def test_a_repo_whose_commit_fails_is_rolled_back_and_its_dependants_skipped(tmp_path: Path, run: Run) -> None:
    world = build_world(tmp_path)
    assert campaign(run, world, "plan").exit_code == 0
    infra = world.clone("infra")
    hook = infra / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'lint: refused by policy' >&2\nexit 1\n")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    before = (git(infra, "rev-parse", "HEAD"), fingerprint(infra / "stacks"), git(infra, "status", "--porcelain"))

    applied = campaign(run, world, "apply")
    assert applied.exit_code == 1
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in applied.stdout.splitlines()[1:4]}
    assert rows["infra"][0] == "failed" and "lint: refused by policy" in rows["infra"][1]
    assert rows["infra"][1].endswith("; rolled back")
    assert "sweep --commit" not in rows["infra"][1]  # break-it finding 19: the rollback removed that journal
    assert rows["gateway"] == ["applied", rows["gateway"][1]]
    assert rows["apps"] == ["skipped", "depends on infra, failed"]
    after = (git(infra, "rev-parse", "HEAD"), fingerprint(infra / "stacks"), git(infra, "status", "--porcelain"))
    assert after == before
    assert git(infra, "branch", "--list", BRANCH) == ""
    assert not (infra / ".git" / "renamer-journal.json").exists()
    assert git(world.clone("apps"), "branch", "--list", BRANCH) == ""

    status = campaign(run, world, "status").stdout.splitlines()
    assert status[0] == "campaign fv-ml1-move: 1 of 3 repos done, 4 references left"
    assert status[1].split()[:2] == ["infra", "failed"]

    hook.unlink()  # the cause fixed: the next run applies what is left, and leaves gateway alone
    gateway_head = git(world.clone("gateway"), "rev-parse", BRANCH)
    again = campaign(run, world, "apply")
    assert again.exit_code == 0
    assert {line.split()[0]: line.split()[1] for line in again.stdout.splitlines()[1:4]} == {
        "infra": "applied", "gateway": "already", "apps": "applied"}
    assert git(world.clone("gateway"), "rev-parse", BRANCH) == gateway_head


@pytest.mark.parametrize("infra", [
    {"runbook.md": "ssh root@ana-ml2; the rack also holds ana-ml1-ana-ml3\n"},  # a residual beside a change
    {"runbook.md": "the rack holds ana-ml1-ana-ml3\n"},  # the residual alone (finding 18)
], ids=["with-changes", "residual-only"])
def test_a_repo_that_verify_would_fail_blocks_the_plan(tmp_path: Path, run: Run, infra: dict[str, str]) -> None:
    """Break-it findings 12 and 18: a residual the sweep cannot rewrite makes verify fail after the
    sweep; the plan (phase 1, check all) blocks on it instead of "ready"/"nothing", exit 0."""
    world = build_world(tmp_path, infra=infra)
    planned = campaign(run, world, "plan")
    assert planned.exit_code == 1, planned.stdout
    line = next(line for line in planned.stdout.splitlines() if line.startswith("  infra "))
    assert line.split(None, 2)[1:] == ["blocked", "1 residual (runbook.md:1): a reference the sweep cannot "
                                       "rewrite, on which verify after the sweep would fail; fix it by hand in "
                                       "the repo"]
    clone = world.clone("infra")
    before = git(clone, "rev-parse", "HEAD")

    applied = campaign(run, world, "apply")
    assert applied.exit_code == 3
    assert applied.stderr.startswith("renamer: error: campaign refused: infra blocked")
    assert git(clone, "rev-parse", "HEAD") == before
    assert git(clone, "status", "--porcelain", "--ignored") == ""
    assert (clone / "runbook.md").read_text() == infra["runbook.md"]
    assert git(clone, "branch", "--list", BRANCH) == ""
    status = campaign(run, world, "status").stdout.splitlines()
    assert status[0].startswith("campaign fv-ml1-move: 0 of 3 repos done")
    assert status[1].split()[:2] == ["infra", "blocked"]


def test_pull_requests_through_gh(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    world = build_world(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "gh-calls"
    fake = bin_dir / "gh"  # records its argv, and the body file's text, as gh would read them
    fake.write_text('#!/bin/sh\nprintf "%s\\n" "$@" >> "$GH_CALLS"\n'
                    'while [ $# -gt 0 ]; do if [ "$1" = --body-file ]; then cat "$2" >> "$GH_CALLS"; fi; shift; done\n'
                    'echo "https://forge.invalid/pull/1"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GH_CALLS", str(calls))
    assert campaign(run, world, "apply").exit_code == 0

    pushed = campaign(run, world, "push")
    assert pushed.exit_code == 0, pushed.stdout
    assert pushed.stdout.splitlines()[0] == "campaign fv-ml1-move: push (forge gh)"
    assert f"  gateway  pushed  {BRANCH} -> {world.remote('gateway')}; pull request: https://forge.invalid/pull/1" \
        in pushed.stdout
    recorded = calls.read_text()
    assert recorded.count("pr\ncreate\n--head\nrenamer/fv-ml1-move\n--base\nmain\n--title\n") == 3
    assert "fv-ml1-move: ana-ml2 -> fv-ml1, 10.250.50.54 -> 10.251.50.54\n--body-file\n" in recorded
    assert "## renamer audit: fv-ml1-move" in recorded
    assert "| persistent-memory | 1 |" in recorded  # infra's record, kept and said why

    again = campaign(run, world, "push")  # pushed already: no second pull request
    assert again.exit_code == 0
    assert calls.read_text() == recorded


def test_a_fresh_work_dir_finds_what_was_pushed_and_changes_nothing(tmp_path: Path, run: Run) -> None:
    world = build_world(tmp_path)
    assert campaign(run, world, "apply").exit_code == 0
    assert campaign(run, world, "push", "--forge", "none").exit_code == 0
    remotes = {name: world.refs(name) for name in ("infra", "gateway", "apps")}
    checkout = fingerprint(world.checkout)
    shutil.rmtree(world.campaign.parent / ".campaign")

    again = campaign(run, world, "apply")
    assert again.exit_code == 0, again.stdout
    assert {line.split()[0]: line.split()[1] for line in again.stdout.splitlines()[1:4]} == {
        "infra": "already", "gateway": "already", "apps": "already"}
    status = campaign(run, world, "status").stdout.splitlines()
    assert status[0] == "campaign fv-ml1-move: 3 of 3 repos done, 0 references left"
    assert [line.split()[1] for line in status[1:]] == ["pushed", "pushed", "pushed"]
    pushed = campaign(run, world, "push", "--forge", "none")
    assert pushed.exit_code == 0
    assert [line.split()[1] for line in pushed.stdout.splitlines()[1:]] == ["already", "already", "already"]
    assert {name: world.refs(name) for name in ("infra", "gateway", "apps")} == remotes
    assert fingerprint(world.checkout) == checkout


def test_a_remote_whose_default_branch_is_the_move_s_is_never_pushed_to(tmp_path: Path, run: Run) -> None:
    world = build_world(tmp_path)
    gateway = world.remote("gateway")
    git(gateway, "branch", BRANCH, "main")
    git(gateway, "symbolic-ref", "HEAD", f"refs/heads/{BRANCH}")
    before = world.refs("gateway")
    refused = campaign(run, world, "apply")
    assert refused.exit_code == 3
    line = next(line for line in refused.stdout.splitlines() if line.startswith("  gateway "))
    assert line.split(None, 2)[1:] == [
        "blocked", f"{BRANCH} is the remote's default branch: a campaign never pushes to one"]
    assert campaign(run, world, "apply", "--skip", "gateway").exit_code == 0

    pushed = campaign(run, world, "push", "--forge", "none")
    assert pushed.exit_code == 1
    line = next(line for line in pushed.stdout.splitlines() if line.startswith("  gateway "))
    assert line.split()[1] == "not-applied"
    assert world.refs("gateway") == before
    assert world.refs("infra")[f"refs/heads/{BRANCH}"]  # the others went


def test_a_repo_with_nothing_to_change_and_one_that_cannot_be_cloned(tmp_path: Path, run: Run) -> None:
    text = CAMPAIGN + "  - name: offline\n    url: https://127.0.0.1:9/offline.git\n"
    world = build_world(tmp_path, gateway={"litellm/config.yaml": "api_base: http://10.251.50.54:8016/v1\n"},
                        campaign=text)
    planned = campaign(run, world, "plan")
    assert planned.exit_code == 1
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in planned.stdout.splitlines()[1:5]}
    assert rows["gateway"][0] == "nothing"
    assert rows["offline"][0] == "blocked"
    assert rows["offline"][1].startswith("offline: git clone https://127.0.0.1:9/offline.git: fatal: ")
    assert not (world.campaign.parent / ".campaign" / "offline").exists()
    assert not list((world.campaign.parent / ".campaign").glob(".*cloning"))

    applied = campaign(run, world, "apply", "--skip", "offline")
    assert applied.exit_code == 0
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in applied.stdout.splitlines()[1:5]}
    assert rows["gateway"] == ["nothing", "nothing to change"]
    assert git(world.clone("gateway"), "branch", "--list", BRANCH) == ""
    pushed = campaign(run, world, "push", "--forge", "none", "--skip", "offline")
    assert pushed.exit_code == 0
    assert "  gateway  nothing  the last plan found nothing to change" in pushed.stdout
    status = campaign(run, world, "status").stdout.splitlines()
    assert status[0] == "campaign fv-ml1-move: 3 of 4 repos done, references left unknown (plan first)"
    assert status[-1].split(None, 2)[1:] == ["skipped", "--skip"]


def test_ctrl_c_during_a_repo_rolls_its_clone_back_and_stops(tmp_path: Path, run: Run) -> None:
    world = build_world(tmp_path)
    assert campaign(run, world, "plan").exit_code == 0
    infra = world.clone("infra")
    hook = infra / ".git" / "hooks" / "pre-commit"  # Ctrl-C to renamer (git's parent) while git commits
    hook.write_text('#!/bin/sh\nkill -INT "$(ps -o ppid= -p "$PPID" | tr -d " ")"\nsleep 1\nexit 0\n')
    hook.chmod(0o755)
    before = git(infra, "rev-parse", "HEAD")
    done = subprocess.run([sys.executable, "-m", "renamer", "campaign", "apply", "campaign.yaml"],
                          cwd=world.campaign.parent, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 130, done.stderr
    assert done.stderr.splitlines()[-1] == (
        "renamer: interrupted during infra: its clone is rolled back to where it was; the repos before it are "
        "done; `renamer campaign apply` again goes on")
    assert git(infra, "rev-parse", "HEAD") == before
    assert git(infra, "status", "--porcelain", "--ignored") == ""
    for name in ("infra", "gateway", "apps"):  # infra comes first: nothing applied anywhere
        assert git(world.clone(name), "branch", "--list", BRANCH) == ""
    hook.unlink()
    assert campaign(run, world, "apply").exit_code == 0  # and the next run goes on


def test_a_repo_s_own_config_reads_nothing_outside_its_clone(tmp_path: Path, run: Run) -> None:
    escaping = CONFIG.replace("allowlist: allow.yaml", "allowlist: ../../shared-allow.yaml")
    world = build_world(tmp_path, gateway={**GATEWAY, "renamer.yaml": escaping})
    planned = campaign(run, world, "plan")
    assert planned.exit_code == 1
    line = next(line for line in planned.stdout.splitlines() if line.startswith("  gateway "))
    shared = (world.campaign.parent / "shared-allow.yaml").resolve()
    assert line.split(None, 2)[1:] == ["blocked", f"renamer.yaml names {shared}, outside the repository: a "
                                       "campaign reads nothing of a repo's outside its clone"]


def test_a_repo_s_renamer_yaml_that_is_a_link_is_not_followed(tmp_path: Path, run: Run) -> None:
    world = build_world(tmp_path, gateway={**GATEWAY, "renamer.yaml": "placeholder"})
    seed = tmp_path / "seeds" / "gateway"
    (seed / "renamer.yaml").unlink()
    (seed / "renamer.yaml").symlink_to("/etc/hostname")
    git(seed, "commit", "-qam", "a link")
    git(seed, "push", "-q", str(world.remote("gateway")), "main")
    planned = campaign(run, world, "plan")
    line = next(line for line in planned.stdout.splitlines() if line.startswith("  gateway "))
    assert line.split(None, 2)[1:] == ["blocked", "renamer.yaml is a link (to /etc/hostname): a campaign reads "
                                       "nothing of a repo's outside its clone"]


def test_one_campaign_at_a_time_and_a_default_branch_that_moved_on(tmp_path: Path, run: Run) -> None:
    world = build_world(tmp_path)
    assert campaign(run, world, "apply").exit_code == 0
    with open(world.campaign.parent / ".campaign" / "campaign.lock", "a+b") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        busy = campaign(run, world, "apply")
    assert busy.exit_code == 3
    assert busy.stderr == (f"renamer: error: {(world.campaign.parent / '.campaign').resolve()}: another renamer "
                           "campaign runs on these clones\n")

    # Someone adds a line naming the old host on gateway's main after the branch was made.
    seed = tmp_path / "late"
    git(tmp_path, "clone", "-q", str(world.remote("gateway")), str(seed))
    (seed / "litellm" / "late.yaml").write_text("fallback: ana-ml2\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-qm", "late")
    git(seed, "push", "-q", "origin", "main")
    planned = campaign(run, world, "plan")
    line = next(line for line in planned.stdout.splitlines() if line.startswith("  gateway "))
    assert line.split(None, 2)[1:2] == ["done"]
    assert ("renamer/fv-ml1-move is there; main has 1 commit since, not swept (1 reference to rewrite after the "
            "merge): verify them after the merge") in line
    # Break-it finding 07: the burndown counts what the merge would bring, and status says the branch is behind.
    assert planned.stdout.splitlines()[-1] == "ready: 0 repos to apply, 1 reference left"
    status = campaign(run, world, "status").stdout.splitlines()
    assert status[0] == "campaign fv-ml1-move: 3 of 3 repos done, 1 reference left"
    assert status[2].startswith("  gateway  applied  renamer/fv-ml1-move: ")
    assert status[2].endswith("; main has 1 commit since, not swept")
    assert git(world.clone("gateway"), "status", "--porcelain", "--ignored") == ""  # the trial merge undone


def test_merge_requests_through_glab(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    world = build_world(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "glab-calls"
    fake = bin_dir / "glab"  # records its argv
    fake.write_text('#!/bin/sh\nprintf "%s\\n" "$@" >> "$GLAB_CALLS"\necho "https://forge.invalid/mr/7"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GLAB_CALLS", str(calls))
    assert campaign(run, world, "apply").exit_code == 0
    pushed = campaign(run, world, "push", "--forge", "glab", "--skip", "infra", "--skip", "apps")
    assert pushed.exit_code == 0, pushed.stdout
    assert "pull request: https://forge.invalid/mr/7" in pushed.stdout
    recorded = calls.read_text()
    assert recorded.startswith("mr\ncreate\n--source-branch\nrenamer/fv-ml1-move\n--target-branch\nmain\n--title\n"
                               "fv-ml1-move: ana-ml2 -> fv-ml1, 10.250.50.54 -> 10.251.50.54\n--description\n")
    assert "## renamer audit: fv-ml1-move" in recorded and recorded.endswith("--yes\n")
    assert world.refs("infra").get(f"refs/heads/{BRANCH}") is None  # skipped: not pushed


def test_renames_a_repo_s_own_options_would_apply_twice_block_that_repo(tmp_path: Path, run: Run) -> None:
    text = CAMPAIGN.replace("hosts: {ana-ml2: fv-ml1}", "hosts: {ana-ml2: fv-ml1, fv-ml1-bmc: fv-ml9-bmc}")
    derived = CONFIG + "options: {derived_names: true}\n"
    world = build_world(tmp_path, gateway={**GATEWAY, "renamer.yaml": derived}, campaign=text)
    planned = campaign(run, world, "plan")
    assert planned.exit_code == 1
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in planned.stdout.splitlines()[1:4]}
    assert rows["infra"][0] == "ready" and rows["apps"][0] == "ready"
    assert rows["gateway"] == ["blocked", "campaign.yaml: renames.hosts.ana-ml2: not idempotent: 'ana-ml2-bmc' "
                               "becomes 'fv-ml1-bmc', and a second sweep makes it 'fv-ml9-bmc'; rename the longer "
                               "names directly, or drop one rule (with the options of the repo's renamer.yaml)"]


def test_what_a_repo_holds_reaches_the_terminal_escaped(tmp_path: Path, run: Run) -> None:
    hostile = "notes/\x1b[2J\x1b]0;pwned\x07todo.md"
    world = build_world(tmp_path, gateway={**GATEWAY, hostile: "ana-ml2\n"})
    for fmt in ("text", "json"):
        planned = campaign(run, world, "plan", "--format", fmt)
        assert planned.exit_code == 1
        assert "\x1b" not in planned.stdout and "\x07" not in planned.stdout
        assert "notes/\\x1b[2J\\x1b]0;pwned\\x07todo.md" in planned.stdout or fmt == "json"
    data = json.loads(campaign(run, world, "plan", "--format", "json").stdout)
    assert data["blocked"] == ["gateway"]
    assert data["repos"][1]["unclassified"] == [hostile]  # exact, once read as JSON


def test_the_python_example_of_the_campaigns_page_runs_as_written(tmp_path: Path, run: Run) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "campaigns.md").read_text()
    block = page.split("```python\n", 1)[1].split("```", 1)[0]
    world = build_world(tmp_path)
    done = subprocess.run([sys.executable, "-c", block], cwd=world.campaign.parent, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[('infra', 'applied'), ('gateway', 'applied'), ('apps', 'applied')]\n"
    assert git(world.clone("apps"), "show", f"{BRANCH}:stacks/web/app.env") == "API=http://fv-ml1:8000\n"


@pytest.mark.parametrize("command", ["plan", "apply", "push"])
def test_skip_names_a_repo_of_the_campaign(tmp_path: Path, run: Run, command: str) -> None:
    world = build_world(tmp_path)
    done = campaign(run, world, command, "--skip", "infra", "--skip", "nope")
    assert done.exit_code == 2
    assert done.stderr == "renamer: error: --skip nope: no repo of that name in campaign.yaml\n"
    assert not (world.campaign.parent / ".campaign").exists()  # nothing cloned, no lock taken


def test_a_checkout_with_no_remote_is_never_pushed_into(tmp_path: Path, run: Run) -> None:
    world = build_world(tmp_path)
    git(world.checkout, "remote", "remove", "origin")
    checkout = fingerprint(world.checkout)
    assert campaign(run, world, "apply").exit_code == 0
    pushed = campaign(run, world, "push", "--forge", "none")
    assert pushed.exit_code == 1
    line = next(line for line in pushed.stdout.splitlines() if line.startswith("  infra "))
    assert line.split(None, 2)[1:] == ["failed", "infra: ../checkouts/infra is a checkout with no origin remote: "
                                       "the campaign pushes to a checkout's remote, never into the checkout itself"]
    assert fingerprint(world.checkout) == checkout
    assert git(world.checkout, "branch", "--list", BRANCH) == ""


def test_a_repo_s_allowlist_named_in_the_campaign_wins_over_its_renamer_yaml_s(tmp_path: Path, run: Run) -> None:
    text = CAMPAIGN.replace("    url: ../remotes/gateway.git\n",
                            "    url: ../remotes/gateway.git\n    allowlist: moves/campaign-allow.yaml\n")
    files = {**BLOCKED_GATEWAY, "moves/campaign-allow.yaml": 'version: 1\ncurrent: ["litellm/**", "notes/**"]\n'}
    world = build_world(tmp_path, gateway=files, campaign=text)
    applied = campaign(run, world, "apply")
    assert applied.exit_code == 0, applied.stdout
    clone = world.clone("gateway")
    assert git(clone, "show", f"{BRANCH}:notes/todo.md") == "check the gateway on fv-ml1\n"

    missing = text.replace("moves/campaign-allow.yaml", "moves/nothing.yaml")
    world.campaign.write_text(missing.replace("name: fv-ml1-move", "name: fv-ml1-move-2"))
    planned = campaign(run, world, "plan")
    line = next(line for line in planned.stdout.splitlines() if line.startswith("  gateway "))
    assert line.split(None, 2)[1:] == ["blocked", "campaign.yaml:13: repos.gateway.allowlist: moves/nothing.yaml "
                                       "is no file of the repo"]


def _apply_killed(world: World, after: int) -> subprocess.CompletedProcess[str]:
    """campaign apply, SIGKILLed (a power cut, an OOM kill) right after infra's commit number `after`."""
    hook = world.clone("infra") / ".git" / "hooks" / "post-commit"  # git's parent is renamer
    hook.write_text(f'#!/bin/sh\nn=$(($(cat .git/n 2>/dev/null || echo 0) + 1)); echo $n > .git/n\n'
                    f'[ $n -eq {after} ] && kill -9 "$(ps -o ppid= -p "$PPID" | tr -d " ")"\nexit 0\n')
    hook.chmod(0o755)
    done = subprocess.run([sys.executable, "-m", "renamer", "campaign", "apply", "campaign.yaml"],
                          cwd=world.campaign.parent, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    hook.unlink()
    return done


@pytest.mark.parametrize("after", [1, 2], ids=["between-the-commits", "before-verify"])
def test_a_branch_cut_short_is_never_already_and_is_made_again(tmp_path: Path, run: Run, after: int) -> None:
    """Break-it findings 01 and 02: killed between the sweep's two commits, or after both and before
    verify, the branch is not done: status does not count it, push does not push it, apply makes it
    again (both commits, verify, the Renamer-Verified trailer)."""
    world = build_world(tmp_path)
    assert campaign(run, world, "plan").exit_code == 0
    killed = _apply_killed(world, after)
    assert killed.returncode == -9, killed.stdout + killed.stderr
    infra = world.clone("infra")
    assert len(_branch_log(infra)) == after  # the half (or unverified) branch is there
    assert "Renamer-Verified" not in "".join(_branch_log(infra))

    status = campaign(run, world, "status").stdout.splitlines()
    assert status[1].split()[:2] == ["infra", "ready"], status
    pushed = campaign(run, world, "push", "--forge", "none", "--skip", "gateway", "--skip", "apps")
    assert pushed.exit_code == 1
    assert "  infra    not-applied  no renamer/fv-ml1-move with the move's commits, verified (a sweep cut short " \
           "or never verified (no Renamer-Verified trailer)): run campaign apply" in pushed.stdout
    assert world.refs("infra").get(f"refs/heads/{BRANCH}") is None

    planned = campaign(run, world, "plan")
    line = next(line for line in planned.stdout.splitlines() if line.startswith("  infra "))
    assert line.split()[1] == "ready"
    assert line.endswith("renamer/fv-ml1-move in the clone is not done (a sweep cut short or never verified "
                         "(no Renamer-Verified trailer)): apply makes it again")
    again = campaign(run, world, "apply")
    assert again.exit_code == 0, again.stdout
    assert again.stdout.splitlines()[1].split()[:2] == ["infra", "applied"]
    bodies = _branch_log(infra)
    assert [b.split("Renamer-Commit: ")[1].split()[0] for b in bodies] == ["renames", "rewrite"]
    assert "Renamer-Verified: " in bodies[1]
    assert git(infra, "show", f"{BRANCH}:runbook.md") == "ssh root@fv-ml1\n"
    assert git(infra, "status", "--porcelain", "--ignored") == ""
    assert campaign(run, world, "apply").stdout.splitlines()[1].split()[:2] == ["infra", "already"]


def test_a_move_whose_renames_changed_is_made_again_or_refused_once_pushed(tmp_path: Path, run: Run) -> None:
    """Break-it finding 09: the branch records the digest of the renames it was made with; other renames
    under the same move name redo an unpushed branch, and refuse (exit 3) over a pushed one."""
    typo = CAMPAIGN.replace("hosts: {ana-ml2: fv-ml1}", "hosts: {ana-ml2: fv-m11}")
    world = build_world(tmp_path, campaign=typo)
    assert campaign(run, world, "apply").exit_code == 0
    apps = world.clone("apps")
    assert git(apps, "show", f"{BRANCH}:stacks/web/app.env") == "API=http://fv-m11:8000\n"

    world.campaign.write_text(CAMPAIGN)  # the typo fixed, the same move name
    fixed = campaign(run, world, "apply")
    assert fixed.exit_code == 0, fixed.stdout
    assert [line.split()[1] for line in fixed.stdout.splitlines()[1:4]] == ["applied", "applied", "applied"]
    assert git(apps, "show", f"{BRANCH}:stacks/web/app.env") == "API=http://fv-ml1:8000\n"
    assert campaign(run, world, "push", "--forge", "none").exit_code == 0

    more = CAMPAIGN.replace("hosts: {ana-ml2: fv-ml1}", "hosts: {ana-ml2: fv-ml1, ana-ml3: fv-ml3}")
    world.campaign.write_text(more)  # pushed, then the renames change again
    planned = campaign(run, world, "plan")
    assert planned.exit_code == 1
    line = next(line for line in planned.stdout.splitlines() if line.startswith("  apps "))
    assert line.split(None, 2)[1:] == ["blocked", "renamer/fv-ml1-move on the remote is not this campaign's: "
                                       "made with other renames than campaign.yaml's (its Renamer-Verified "
                                       "digest differs); a push would not go: look at it, delete it there, or "
                                       "give the move another name"]
    refused = campaign(run, world, "apply")
    assert refused.exit_code == 3
    status = campaign(run, world, "status").stdout.splitlines()
    assert status[0].startswith("campaign fv-ml1-move: 0 of 3 repos done"), status


def test_a_clone_folder_the_campaign_did_not_make_is_never_worked_in(tmp_path: Path, run: Run) -> None:
    """Break-it finding 03: work_dir/<name> a link to the user's checkout (or a clone somebody else
    made there): no checkout --force, no clean, no commit in it; plan, apply, push and status say so."""
    world = build_world(tmp_path)
    git(world.checkout, "checkout", "-q", "-b", "my-feature")
    (world.checkout / "runbook.md").write_text("my uncommitted work\n")
    (world.checkout / "NOTES.txt").write_text("untracked\n")
    work = world.campaign.parent / ".campaign"
    work.mkdir()
    (work / "infra").symlink_to(world.checkout)
    git(tmp_path, "clone", "-q", str(world.remote("gateway")), str(work / "gateway"))  # made by hand
    checkout, by_hand = fingerprint(world.checkout), fingerprint(work / "gateway")

    planned = campaign(run, world, "plan")
    assert planned.exit_code == 1
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in planned.stdout.splitlines()[1:4]}
    assert rows["infra"] == ["blocked", f"infra: {work.resolve() / 'infra'} is a link (to {world.checkout}): the "
                             "campaign's clones live in work_dir, and it never works in a folder it did not make; "
                             "move it away"]
    assert rows["gateway"][0] == "blocked"
    assert rows["gateway"][1].startswith(f"gateway: {work.resolve() / 'gateway'} is there and is no clone the "
                                         "campaign made")
    assert campaign(run, world, "apply").exit_code == 3
    pushed = campaign(run, world, "push", "--forge", "none")
    assert pushed.exit_code == 1
    assert [line.split()[1] for line in pushed.stdout.splitlines()[1:3]] == ["failed", "failed"]
    status = campaign(run, world, "status")
    assert [line.split()[1] for line in status.stdout.splitlines()[1:3]] == ["blocked", "blocked"]
    assert fingerprint(world.checkout) == checkout and fingerprint(work / "gateway") == by_hand
    assert git(world.checkout, "rev-parse", "--abbrev-ref", "HEAD").strip() == "my-feature"


def test_a_pull_request_not_opened_is_owed_until_it_is(tmp_path: Path, run: Run,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Break-it finding 04: gh fails once; the next push (the branch already there) opens it; status
    says "pushed, no pull request" meanwhile and does not count the repo done."""
    world = build_world(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "gh-calls"
    fake = bin_dir / "gh"  # fails while $GH_DOWN exists
    fake.write_text('#!/bin/sh\necho call >> "$GH_CALLS"\n'
                    'if [ -e "$GH_DOWN" ]; then echo "error connecting to api.github.com" >&2; exit 1; fi\n'
                    'echo "https://forge.invalid/pull/1"\n')
    fake.chmod(0o755)
    down = tmp_path / "down"
    down.touch()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GH_CALLS", str(calls))
    monkeypatch.setenv("GH_DOWN", str(down))
    assert campaign(run, world, "apply").exit_code == 0
    only = ("--skip", "infra", "--skip", "apps")

    failed = campaign(run, world, "push", *only)
    assert failed.exit_code == 1
    assert "pull request: failed: gh exited 1: error connecting to api.github.com" in failed.stdout
    status = campaign(run, world, "status").stdout.splitlines()
    assert status[0].startswith("campaign fv-ml1-move: 2 of 3 repos done")
    assert status[2].startswith(f"  gateway  pushed, no pull request  {BRANCH}: ")
    assert status[2].endswith("; campaign push again opens it")

    down.unlink()
    owed = campaign(run, world, "push", *only)
    assert owed.exit_code == 0, owed.stdout
    assert f"  gateway  already  {BRANCH} -> {world.remote('gateway')}; pull request: " \
           "https://forge.invalid/pull/1" in owed.stdout
    assert calls.read_text() == "call\ncall\n"
    assert campaign(run, world, "status").stdout.splitlines()[2].split()[:2] == ["gateway", "pushed"]
    assert campaign(run, world, "push", *only).exit_code == 0
    assert calls.read_text() == "call\ncall\n"  # opened: not asked again


def test_push_goes_where_git_push_origin_goes(tmp_path: Path, run: Run) -> None:
    """Break-it finding 06: a checkout of a read-only mirror whose origin has a pushurl: the branch goes
    to the pushurl, as `git push origin` would, the mirror (fetch URL) untouched."""
    world = build_world(tmp_path)
    primary = tmp_path / "remotes" / "infra-primary.git"
    git(tmp_path, "clone", "-q", "--bare", str(world.remote("infra")), str(primary))
    git(world.checkout, "remote", "set-url", "--push", "origin", str(primary))
    mirror = world.refs("infra")
    assert campaign(run, world, "apply").exit_code == 0
    pushed = campaign(run, world, "push", "--forge", "none", "--skip", "gateway", "--skip", "apps")
    assert pushed.exit_code == 0, pushed.stdout
    assert f"  infra    pushed   {BRANCH} -> {primary}; no forge CLI" in pushed.stdout
    assert git(primary, "rev-parse", BRANCH).strip() == git(world.clone("infra"), "rev-parse", BRANCH).strip()
    assert world.refs("infra") == mirror


def test_a_repo_whose_clone_is_gone_is_not_done(tmp_path: Path, run: Run) -> None:
    """Break-it finding 16: applied, not pushed, the clone removed: the branch is nowhere; status says
    not cloned and does not count it."""
    world = build_world(tmp_path)
    assert campaign(run, world, "apply").exit_code == 0
    shutil.rmtree(world.clone("gateway"))
    status = campaign(run, world, "status", "--format", "json")
    data = json.loads(status.stdout)
    assert data["done"] == 2
    assert [(r["name"], r["state"]) for r in data["repos"]] == [
        ("infra", "applied"), ("gateway", "not cloned"), ("apps", "applied")]


def test_a_checkout_s_git_folder_is_the_checkout_never_pushed_into(tmp_path: Path, run: Run) -> None:
    """Break-it finding 17: url naming a checkout's .git folder (core.bare false) is the checkout: the
    branch goes to its origin, never into it."""
    text = CAMPAIGN.replace("url: ../checkouts/infra\n", "url: ../checkouts/infra/.git\n")
    world = build_world(tmp_path, campaign=text)
    checkout = fingerprint(world.checkout)
    assert campaign(run, world, "apply").exit_code == 0
    pushed = campaign(run, world, "push", "--forge", "none", "--skip", "gateway", "--skip", "apps")
    assert pushed.exit_code == 0, pushed.stdout
    assert f"  infra    pushed   {BRANCH} -> {world.remote('infra')}" in pushed.stdout
    assert git(world.checkout, "branch", "--list", BRANCH) == ""
    assert fingerprint(world.checkout) == checkout
    assert world.refs("infra")[f"refs/heads/{BRANCH}"] == git(world.clone("infra"), "rev-parse", BRANCH).strip()


def test_a_checkout_s_own_move_branch_is_not_taken_as_pushed(tmp_path: Path, run: Run) -> None:
    """Break-it finding 22: the user tried the move in the checkout (a local renamer/<move> with the
    move's trailer, never pushed): not adopted, not "pushed"; the campaign makes and pushes its own."""
    world = build_world(tmp_path)
    git(world.checkout, "checkout", "-q", "-b", BRANCH)
    (world.checkout / "runbook.md").write_text("ssh root@fv-ml1\n")
    git(world.checkout, "commit", "-qam", "half\n\nRenamer-Move: fv-ml1-move\nRenamer-Commit: rewrite")
    git(world.checkout, "checkout", "-q", "main")
    checkout = fingerprint(world.checkout)

    planned = campaign(run, world, "plan")
    assert planned.exit_code == 0
    line = next(line for line in planned.stdout.splitlines() if line.startswith("  infra "))
    assert line.split()[1] == "ready"
    assert line.endswith("the checkout's own renamer/fv-ml1-move (not pushed) is not the campaign's: left alone")
    applied = campaign(run, world, "apply")
    assert applied.stdout.splitlines()[1].split()[:2] == ["infra", "applied"]
    assert campaign(run, world, "status").stdout.splitlines()[1].split()[:2] == ["infra", "applied"]
    assert git(world.clone("infra"), "show", f"{BRANCH}:stacks/fv-ml1.env") == "HOST=fv-ml1\nADDR=10.251.50.54\n"
    pushed = campaign(run, world, "push", "--forge", "none", "--skip", "gateway", "--skip", "apps")
    assert pushed.exit_code == 0
    assert world.refs("infra")[f"refs/heads/{BRANCH}"] == git(world.clone("infra"), "rev-parse", BRANCH).strip()
    assert fingerprint(world.checkout) == checkout


def test_ctrl_c_while_a_later_repo_commits_stops_the_campaign(tmp_path: Path, run: Run) -> None:
    """Break-it finding 11: a Ctrl-C the sweep defers (it lands while git commits gateway) is exit
    130 and stops the campaign: gateway rolled back, apps (after it) never touched."""
    world = build_world(tmp_path)
    assert campaign(run, world, "plan").exit_code == 0
    gateway = world.clone("gateway")
    hook = gateway / ".git" / "hooks" / "pre-commit"
    hook.write_text('#!/bin/sh\nkill -INT "$(ps -o ppid= -p "$PPID" | tr -d " ")"\nsleep 1\nexit 0\n')
    hook.chmod(0o755)
    before = git(gateway, "rev-parse", "HEAD")
    done = subprocess.run([sys.executable, "-m", "renamer", "campaign", "apply", "campaign.yaml"],
                          cwd=world.campaign.parent, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"}, start_new_session=True)
    assert done.returncode == 130, done.stdout + done.stderr
    assert done.stderr.splitlines()[-1].startswith("renamer: interrupted during gateway: its clone is rolled back")
    assert git(gateway, "rev-parse", "HEAD") == before
    assert git(gateway, "branch", "--list", BRANCH) == ""
    assert git(world.clone("apps"), "branch", "--list", BRANCH) == ""  # after gateway: never reached


def test_a_big_audit_is_cut_to_fit_the_forge(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """Break-it finding 21: glab takes the description as one argv string (128 KiB at most on Linux);
    a big audit is cut at a line, with a pointer to `renamer audit`, and the merge request opens."""
    logs = "".join(f"2025-01-01 line {j}: moved job {j} off ana-ml2 (10.250.50.54) after the incident\n"
                   for j in range(4000))
    world = build_world(tmp_path, infra={**INFRA, "persistent-memory.d/2025-01-01-log.md": logs})
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "glab-calls"
    fake = bin_dir / "glab"
    fake.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$GLAB_CALLS"\necho "https://forge.invalid/mr/7"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GLAB_CALLS", str(calls))
    assert campaign(run, world, "apply").exit_code == 0
    pushed = campaign(run, world, "push", "--forge", "glab", "--skip", "gateway", "--skip", "apps")
    assert pushed.exit_code == 0, pushed.stdout
    assert "pull request: https://forge.invalid/mr/7" in pushed.stdout
    body = calls.read_text().split("--description\n", 1)[1].rsplit("\n--yes\n", 1)[0]
    assert 50_000 < len(body.encode()) <= 100_000
    assert body.endswith("*(The audit is cut here to fit the forge's limit: `renamer audit` on the branch "
                         "gives all of it.)*\n")
    assert "## renamer audit: fv-ml1-move" in body


def test_depends_on_orders_the_push_and_a_skipped_repo_s_dependants_are_skipped(tmp_path: Path, run: Run) -> None:
    """Break-it findings 08, 10 and 14: apps depends on infra. --skip infra skips apps in plan and apply
    (its own problems block nothing); a push infra's remote refuses skips apps (nothing pushed, no pull
    request), and the remote's reason is printed."""
    world = build_world(tmp_path, gateway=BLOCKED_GATEWAY)
    skipped = campaign(run, world, "plan", "--skip", "infra", "--skip", "gateway")
    assert skipped.exit_code == 0, skipped.stdout
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in skipped.stdout.splitlines()[1:4]}
    assert rows["apps"] == ["skipped", "depends on infra, skipped"]
    assert not world.clone("apps").exists()  # not even cloned

    world.campaign.write_text(CAMPAIGN)
    (tmp_path / "seeds" / "gateway" / "notes" / "todo.md").unlink()
    git(tmp_path / "seeds" / "gateway", "commit", "-qam", "classified")
    git(tmp_path / "seeds" / "gateway", "push", "-q", "-f", str(world.remote("gateway")), "main")
    assert campaign(run, world, "apply").exit_code == 0
    hook = world.remote("infra") / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'pushes frozen until Monday (change freeze)' >&2\nexit 1\n")
    hook.chmod(0o755)
    pushed = campaign(run, world, "push", "--forge", "none")
    assert pushed.exit_code == 1
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in pushed.stdout.splitlines()[1:4]}
    assert rows["infra"] == ["failed", "infra: git push: the remote refused: pushes frozen until Monday (change "
                             "freeze)"]
    assert rows["apps"] == ["skipped", "depends on infra, failed"]
    assert rows["gateway"][0] == "pushed"
    assert world.refs("apps").get(f"refs/heads/{BRANCH}") is None


def test_a_file_localhost_url_is_the_folder_git_reads(tmp_path: Path, run: Run) -> None:
    """Break-it finding 20: `file://localhost/PATH` is a valid git URL for /PATH, not a relative folder."""
    text = CAMPAIGN.replace("url: ../remotes/gateway.git", f"url: file://localhost{tmp_path}/remotes/gateway.git")
    world = build_world(tmp_path, campaign=text)
    planned = campaign(run, world, "plan")
    assert planned.exit_code == 0, planned.stdout + planned.stderr
    assert planned.stdout.splitlines()[2].split()[:2] == ["gateway", "ready"]


def test_the_forge_is_told_the_repository_the_branch_was_pushed_to(tmp_path: Path, run: Run,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Break-it finding 05: the clone's only remote is the checkout (a folder), so gh run there cannot
    know the repository; it gets `--repo URL`, the push target's URL (a folder gets none)."""
    world = build_world(tmp_path)
    url = f"file://{world.remote('infra')}"
    git(world.checkout, "remote", "set-url", "origin", url)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "gh-calls"
    fake = bin_dir / "gh"
    fake.write_text('#!/bin/sh\nprintf "%s " "$@" >> "$GH_CALLS"\necho >> "$GH_CALLS"\necho https://forge.invalid/1\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GH_CALLS", str(calls))
    assert campaign(run, world, "apply").exit_code == 0
    pushed = campaign(run, world, "push", "--forge", "gh", "--skip", "apps")
    assert pushed.exit_code == 0, pushed.stdout
    infra, gateway = calls.read_text().splitlines()
    assert infra.endswith(f"--repo {url} ")
    assert "--repo" not in gateway  # a bare repository's folder: no forge repository to name


def test_a_checkout_s_unpushed_commits_are_never_published_unsaid(tmp_path: Path, run: Run) -> None:
    """Break-it finding 15: the move's branch starts from the checkout's branch; commits of it the push
    target lacks (or the whole branch) would be published with the move: plan blocks, naming them."""
    world = build_world(tmp_path)
    (world.checkout / "secret.txt").write_text("not for the remote\n")
    git(world.checkout, "add", "secret.txt")
    git(world.checkout, "commit", "-qm", "local only")
    planned = campaign(run, world, "plan")
    assert planned.exit_code == 1
    line = next(line for line in planned.stdout.splitlines() if line.startswith("  infra "))
    assert line.split(None, 2)[1:] == ["blocked", f"the checkout's main has 1 commit {world.remote('infra')} does "
                                       "not have: the push would publish them with the move; push them first, or "
                                       "name the remote in url:"]
    git(world.checkout, "checkout", "-q", "-b", "wip")
    line = next(line for line in campaign(run, world, "plan").stdout.splitlines() if line.startswith("  infra "))
    assert line.split(None, 2)[1:] == ["blocked", f"{world.remote('infra')} has no branch wip (the checkout's): the "
                                       "pull request would have no base; push it first, or name the remote in url:"]
    assert campaign(run, world, "apply").exit_code == 3
    assert world.refs("infra").get("refs/heads/wip") is None and "secret.txt" not in git(
        world.remote("infra"), "ls-tree", "-r", "--name-only", "main")


def test_a_remote_head_naming_no_branch_or_an_empty_remote_is_said_as_it_is(tmp_path: Path, run: Run) -> None:
    """Break-it finding 13: a remote whose HEAD names a branch it lacks is not called empty; an empty
    one is."""
    world = build_world(tmp_path)
    git(world.remote("gateway"), "branch", "-m", "main", "trunk")
    git(world.remote("gateway"), "symbolic-ref", "HEAD", "refs/heads/main")  # HEAD names a branch it lacks
    empty = tmp_path / "remotes" / "empty.git"
    git(tmp_path, "init", "-q", "--bare", str(empty))
    world.campaign.write_text(CAMPAIGN + "  - name: empty\n    url: ../remotes/empty.git\n")
    planned = campaign(run, world, "plan")
    assert planned.exit_code == 1
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in planned.stdout.splitlines()[1:5]}
    assert rows["gateway"] == ["blocked", "gateway: the remote's HEAD points at no branch it has (it has trunk): "
                               "its default branch is unknown; fix the remote's HEAD"]
    assert rows["empty"] == ["blocked", "empty: the remote has no branch at all (an empty repository): nothing to "
                             "move; leave it out with --skip"]
