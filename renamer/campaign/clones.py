"""The campaign's own clones, in work_dir: clone or fetch, the default branch, the move's branch and
its commits, the state before an apply and the way back to it, and the push. Every command is plain
git with an argv list (`--` before any URL or path), and only ever runs in a clone: the repository a
campaign.yaml names (the user's checkout, a remote) is read, never written, until the push of
renamer/<move> to the remote."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from renamer import lazy_re
from renamer.campaign.config import Campaign, RepoEntry
from renamer.errors import UnsafeError
from renamer.state import JOURNAL_NAME, LOCK_NAME, state_folder
from renamer.sweep.guard import exclusive
from renamer.sweep.uncommitted import RECORD_NAME
from renamer.vcs_command import git_error, git_run
from renamer.words import plural

# Never a transport that runs a command (`ext::`), whatever the user's git config allows; no prompt
# for a password (a campaign is not interactive: a remote that asks fails, and says so).
_SAFE = ["-c", "protocol.ext.allow=never", "-c", "protocol.fd.allow=never"]
_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_LITERAL_PATHSPECS": "1"}
LOCK_FILE = "campaign.lock"  # in work_dir
LOCK_WAIT = 30.0  # seconds a rollback waits for a git still committing in the clone
_TRAILER = lazy_re.compile(r"^Renamer-Move: (.+)$", re.M)
# The trailer the campaign adds to the branch's last commit once verify passed on it: the digest of
# the renames it was made with. A branch without it (a sweep cut short, a verify never run or
# failed, a hand-made branch) or with another digest (the move's renames changed) is not done.
VERIFIED = "Renamer-Verified"
MARK = "renamer-campaign.clone"  # git config in a clone the campaign made (never in anybody else's)


def git(root: Path, *args: str, check: bool = True) -> str:
    done = git_run(["git", *_SAFE, "-C", str(root), *args], capture_output=True, text=True,
                   env={**os.environ, **_ENV}, check=False)
    if check and done.returncode != 0:
        raise UnsafeError(f"{root.name}: git {args[0]}: {git_error(done.stderr)}")
    return done.stdout.strip() if done.returncode == 0 else ""


@contextlib.contextmanager
def campaign_lock(campaign: Campaign) -> Iterator[None]:
    """One plan, apply or push of a campaign at a time: two at once would check out, commit and
    roll back in the same clones."""
    campaign.work_dir.mkdir(parents=True, exist_ok=True)
    busy = f"{campaign.work_dir}: another renamer campaign runs on these clones"
    with exclusive(campaign.work_dir / LOCK_FILE, busy):
        yield


def source_of(repo: RepoEntry) -> str:
    """What git clones: the local folder (absolute), or the URL as written."""
    return str(repo.local) if repo.local is not None else repo.url


def own_clone(campaign: Campaign, repo: RepoEntry) -> Path | None:
    """The repo's clone in work_dir where the campaign made one, None where there is nothing; raises
    where the folder is anything else: a link (to a checkout, say), a `.git` that is a link or a
    file, a git whose work tree is elsewhere, a clone the campaign did not make. The campaign then
    runs no git there at all: its checkout --force and clean -ffdx would wipe somebody's work."""
    clone = campaign.clone_of(repo)
    if clone.is_symlink():
        raise UnsafeError(f"{repo.name}: {clone} is a link (to {os.readlink(clone)}): the campaign's clones "
                          "live in work_dir, and it never works in a folder it did not make; move it away")
    if not clone.exists():
        return None
    dot_git = clone / ".git"
    if not clone.is_dir() or dot_git.is_symlink() or not dot_git.is_dir():
        raise UnsafeError(f"{repo.name}: {clone} is there and is no clone the campaign made: move it away "
                          "or change work_dir")
    top = git(clone, "rev-parse", "--show-toplevel", check=False)
    inside = clone.resolve().parent == campaign.work_dir.resolve()
    if not top or Path(top).resolve() != clone.resolve() or not inside \
            or git(clone, "config", "--local", "--get", MARK, check=False) != "true":
        raise UnsafeError(f"{repo.name}: {clone} is there and is no clone the campaign made (its work tree "
                          f"{top or 'unknown'}): move it away or change work_dir")
    return clone


def ensure_clone(campaign: Campaign, repo: RepoEntry) -> tuple[Path, str]:
    """The repo's clone in work_dir, cloned or fetched now; (its folder, what happened)."""
    clone = own_clone(campaign, repo)
    if clone is not None:
        if git(clone, "remote", "get-url", "origin", check=False) != source_of(repo):
            raise UnsafeError(f"{repo.name}: {clone} is a clone of another repository "
                              f"(origin {git(clone, 'remote', 'get-url', 'origin', check=False)!r}); "
                              "move it away or change work_dir")
        git(clone, "fetch", "--quiet", "--prune", "origin")
        git(clone, "remote", "set-head", "origin", "--auto", check=False)
        return clone, "fetched"
    clone = campaign.clone_of(repo)
    campaign.work_dir.mkdir(parents=True, exist_ok=True)
    partial = clone.with_name(f".{clone.name}.cloning")
    if partial.is_symlink():
        partial.unlink()
    shutil.rmtree(partial, ignore_errors=True)
    # --no-hardlinks: the clone shares no file with the user's repository.
    done = git_run(["git", *_SAFE, "clone", "--quiet", "--no-hardlinks", "--no-checkout", "--",
                    source_of(repo), str(partial)], capture_output=True, text=True,
                   env={**os.environ, **_ENV}, check=False)
    if done.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        raise UnsafeError(f"{repo.name}: git clone {repo.url}: {git_error(done.stderr)}")
    git(partial, "config", "--local", MARK, "true")
    partial.rename(clone)
    for key, value in (("user.name", "renamer campaign"), ("user.email", "renamer@campaign.invalid")):
        if not git(clone, "config", key, check=False):
            git(clone, "config", "--local", key, value)
    return clone, "cloned"


def default_branch(clone: Path) -> str:
    """The branch the remote's HEAD names (origin/HEAD): what the move's branch starts from and a
    push never touches."""
    ref = git(clone, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD", check=False)
    if ref.startswith("refs/remotes/origin/"):
        return ref.removeprefix("refs/remotes/origin/")
    branches = git(clone, "for-each-ref", "--format=%(refname:lstrip=3)", "refs/remotes/origin/", check=False)
    has = sorted(b for b in branches.splitlines() if b and b != "HEAD")
    if not has:
        raise UnsafeError(f"{clone.name}: the remote has no branch at all (an empty repository): nothing to "
                          "move; leave it out with --skip")
    said = git(clone, "ls-remote", "--symref", "origin", "HEAD", check=False)
    named = re.search(r"^ref: (\S+)\tHEAD$", said, re.M)
    what = f"names {named.group(1)}, which it does not have" if named else "points at no branch it has"
    raise UnsafeError(f"{clone.name}: the remote's HEAD {what} (it has {', '.join(has[:5])}): its default "
                      "branch is unknown; fix the remote's HEAD")


def rev(clone: Path, ref: str) -> str | None:
    return git(clone, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False) or None


def move_commits(clone: Path, campaign: Campaign, base: str) -> list[tuple[str, str]]:
    """(sha, role) of the move's commits on its branch since `base`, oldest first."""
    if rev(clone, f"refs/heads/{campaign.branch}") is None:
        return []
    out = git(clone, "log", "--reverse", "--format=%H%x00%B%x01", f"{base}..refs/heads/{campaign.branch}")
    found = []
    for record in out.split("\x01"):
        if "\x00" not in record:
            continue
        sha, body = record.strip().split("\x00", 1)
        moves = _TRAILER.findall(body)
        if campaign.name in [m.strip() for m in moves]:
            role = re.search(r"^Renamer-Commit: (.+)$", body, re.M)
            found.append((sha, role.group(1).strip() if role else "?"))
    return found


def renames_digest(campaign: Campaign) -> str:
    """The move's renames, as one short digest: what the branch was made with."""
    r = campaign.renames
    data = {"hosts": r.hosts, "addresses": r.addresses, "networks": [(str(a), str(b)) for a, b in r.networks],
            "merges": r.merges}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def verified(clone: Path, campaign: Campaign, ref: str) -> str | None:
    """Why `ref` (the move's branch, here or as the remote has it) is not the campaign's finished
    work, or None where it is: its last commit carries the Renamer-Verified trailer with these
    renames' digest (the campaign writes it only after both commits and a verify that passed)."""
    if rev(clone, ref) is None:
        return "no such branch"
    body = git(clone, "log", "-1", "--format=%B", ref)
    digests = re.findall(rf"^{VERIFIED}: (\S+)$", body, re.M)
    if not digests and not re.search(rf"^Renamer-Move: {re.escape(campaign.name)}$", body, re.M):
        return f"its last commit is none of the move's (no Renamer-Move: {campaign.name})"
    if not digests:
        return "a sweep cut short or never verified (no Renamer-Verified trailer)"
    if digests[-1] != renames_digest(campaign):
        return "made with other renames than campaign.yaml's (its Renamer-Verified digest differs)"
    return None


def mark_verified(clone: Path, campaign: Campaign) -> str:
    """Add the Renamer-Verified trailer to the branch's last commit (the same tree, parents, author
    and date: a new message only, made with plumbing, so no hook runs); returns the new head."""
    head = git(clone, "rev-parse", "HEAD")
    body = git(clone, "log", "-1", "--format=%B", head)
    fields = git(clone, "log", "-1", "--format=%an%x00%ae%x00%aD%x00%cn%x00%ce%x00%cD%x00%T%x00%P", head)
    an, ae, ad, cn, ce, cd, tree, parents = fields.split("\x00")
    env = {**os.environ, **_ENV, "GIT_AUTHOR_NAME": an, "GIT_AUTHOR_EMAIL": ae, "GIT_AUTHOR_DATE": ad,
           "GIT_COMMITTER_NAME": cn, "GIT_COMMITTER_EMAIL": ce, "GIT_COMMITTER_DATE": cd}
    argv = ["git", *_SAFE, "-C", str(clone), "commit-tree", "--no-gpg-sign", tree]
    for parent in parents.split():
        argv += ["-p", parent]
    message = f"{body.rstrip()}\n{VERIFIED}: {renames_digest(campaign)}\n"
    done = git_run(argv, input=message, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise UnsafeError(f"{clone.name}: git commit-tree: {git_error(done.stderr)}")
    new = str(done.stdout).strip()
    git(clone, "update-ref", f"refs/heads/{campaign.branch}", new, head)
    git(clone, "checkout", "--quiet", campaign.branch)
    return new


def is_checkout(repo: RepoEntry) -> bool:
    """Whether the local repository the url names has a work tree (the user's checkout, or its
    `.git` folder, or a submodule's git folder): never pushed into, never its branches taken as
    pushed. Only a bare repository (core.bare true) is a remote."""
    if repo.local is None:
        return False
    done = git_run(["git", *_SAFE, "-C", str(repo.local), "rev-parse", "--is-bare-repository"],
                   capture_output=True, text=True, env={**os.environ, **_ENV}, check=False)
    return not (done.returncode == 0 and done.stdout.strip() == "true")


def remote_branch_ref(repo: RepoEntry, branch: str) -> str:
    """Where the clone keeps the move's branch as the push target has it: origin's, for a URL or a
    bare repository; for a checkout, what fetch_pushed brought from the checkout's own remote (the
    checkout's local branches, in refs/remotes/origin/, are nobody's pushed work)."""
    return f"refs/renamer-remote/{branch}" if is_checkout(repo) else f"refs/remotes/origin/{branch}"


def fetch_pushed(clone: Path, repo: RepoEntry, branch: str) -> None:
    """Where the url is a checkout, its branches are not where the campaign pushes (the checkout's
    origin): the move's branch is fetched from there, so that a fresh work_dir finds it pushed."""
    if not is_checkout(repo):
        return  # a URL or a bare repository: `fetch origin` brought it
    ref = remote_branch_ref(repo, branch)
    try:
        target = push_target(repo)
    except UnsafeError:
        git(clone, "update-ref", "-d", ref, check=False)
        return  # no remote to push to: push says so
    if remote_sha(clone, target.url, branch) is not None:
        git(clone, "fetch", "--quiet", "--", target.url, f"+refs/heads/{branch}:{ref}")
    else:
        git(clone, "update-ref", "-d", ref, check=False)


def unpublished(clone: Path, repo: RepoEntry, base: str) -> str | None:
    """Where the url is a checkout, the move's branch starts from the checkout's current branch, and
    its pull request goes into that branch of the push target: why that cannot go unsaid (the target
    has no such branch, or the checkout has commits the target lacks, which the push would publish
    with the move), or None."""
    if not is_checkout(repo):
        return None
    try:
        target = push_target(repo)
    except UnsafeError:
        return None  # no remote to push to: push says so
    there = remote_sha(clone, target.url, base)
    if there is None:
        return (f"{target.url} has no branch {base} (the checkout's): the pull request would have no base; "
                "push it first, or name the remote in url:")
    ref = f"refs/renamer-base/{base}"
    git(clone, "fetch", "--quiet", "--", target.url, f"+refs/heads/{base}:{ref}")
    ahead = int(git(clone, "rev-list", "--count", f"{ref}..refs/remotes/origin/{base}") or 0)
    if ahead:
        return (f"the checkout's {base} has {plural(ahead, 'commit')} {target.url} does not have: the push "
                "would publish them with the move; push them first, or name the remote in url:")
    return None


def behind(clone: Path, branch: str, base: str) -> int:
    """Commits of `base` (the default branch, as fetched) that the move's branch does not have."""
    return int(git(clone, "rev-list", "--count", f"refs/heads/{branch}..{base}") or 0)


def adopt_remote_branch(clone: Path, campaign: Campaign, repo: RepoEntry) -> str | None:
    """The move's branch as the push target has it (pushed by an earlier run, maybe from elsewhere).
    None where there is none, or where it is this campaign's verified work: remembered as pushed
    (status asks no remote) and taken as the local one where there is none or the local one is not
    done. Otherwise why it is not the campaign's: the caller refuses (a push would not go)."""
    ref = remote_branch_ref(repo, campaign.branch)
    remote = rev(clone, ref)
    if remote is None:
        return None
    why = verified(clone, campaign, ref)
    if why is not None:
        return f"{campaign.branch} on the remote is not this campaign's: {why}"
    git(clone, "update-ref", pushed_ref(campaign.branch), remote)
    local = rev(clone, f"refs/heads/{campaign.branch}")
    if local != remote and (local is None or verified(clone, campaign, f"refs/heads/{campaign.branch}")):
        git(clone, "checkout", "--quiet", "--force", "--detach", remote)
        git(clone, "branch", "--quiet", "--force", "--no-track", campaign.branch, remote)
    return None


def start_clean(clone: Path, base: str) -> None:
    """The clone's work tree at `base`, detached, nothing else in it: what a plan reads."""
    forget_state(clone)
    git(clone, "checkout", "--quiet", "--force", "--detach", base)
    git(clone, "clean", "--quiet", "-ffdx")


def start_branch(clone: Path, campaign: Campaign, base: str) -> None:
    git(clone, "checkout", "--quiet", "--force", "-B", campaign.branch, base)
    git(clone, "clean", "--quiet", "-ffdx")


def roll_back(clone: Path, campaign: Campaign, before: str) -> None:
    """Back to the state before the apply: HEAD detached at `before`, the tree as committed there,
    no branch of the move, no sweep journal left for the next run to complete. A git still
    committing (Ctrl-C reached renamer, not git and its hooks) is waited for, a while."""
    lock = clone / ".git" / "index.lock"
    deadline = time.monotonic() + LOCK_WAIT
    while lock.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    if lock.exists():
        raise UnsafeError(f"{clone.name}: not rolled back: {lock} is still held after {LOCK_WAIT:.0f} s "
                          "(a git still running?); once no git runs there, remove it and run apply again")
    forget_state(clone)
    git(clone, "checkout", "--quiet", "--force", "--detach", before)
    git(clone, "clean", "--quiet", "-ffdx")
    if rev(clone, f"refs/heads/{campaign.branch}") is not None:
        git(clone, "branch", "--quiet", "-D", campaign.branch)


def forget_state(clone: Path) -> None:
    """renamer's own state for the clone (in its .git): a failed sweep's journal, its record of an
    uncommitted rewrite, a lock."""
    folder = state_folder(clone)
    for name in (JOURNAL_NAME, RECORD_NAME, LOCK_NAME):
        (folder / name).unlink(missing_ok=True)


def is_clean(clone: Path) -> bool:
    return git(clone, "status", "--porcelain", "--untracked-files=all", "--ignored") == ""


@dataclass(frozen=True)
class PushTarget:
    url: str  # where the branch goes
    why: str  # how it was found (for the report)


def push_target(repo: RepoEntry) -> PushTarget:
    """Where renamer/<move> is pushed: the URL itself, or a bare repository's folder; for a
    checkout (a work tree), its own `origin` remote: the user's checkout is never written."""
    if repo.local is None:
        return PushTarget(repo.url, "the campaign's url")
    if not is_checkout(repo):
        return PushTarget(str(repo.local), "the bare repository at url")
    # --push: where `git push origin` goes (remote.origin.pushurl, pushInsteadOf), not the fetch URL
    done = git_run(["git", *_SAFE, "-C", str(repo.local), "remote", "get-url", "--push", "origin"],
                   capture_output=True, text=True, check=False, env={**os.environ, **_ENV})
    url = done.stdout.strip()
    if done.returncode != 0 or not url:
        raise UnsafeError(f"{repo.name}: {repo.url} is a checkout with no origin remote: the campaign "
                          "pushes to a checkout's remote, never into the checkout itself")
    if "::" in url:
        raise UnsafeError(f"{repo.name}: the checkout's origin {url!r} is no URL renamer pushes to")
    if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*://|[A-Za-z0-9._-]+@[^/:]+:", url):
        url = str((repo.local / url).resolve())  # a relative path is relative to the checkout
    return PushTarget(url, f"the origin of the checkout {repo.url}")


def forge_repo(url: str) -> str | None:
    """The repository a forge CLI is told (`--repo`): the push target's URL; None for a folder."""
    return url if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://|[A-Za-z0-9._-]+@[^/:]+:", url) else None


def remote_head(clone: Path, url: str) -> str | None:
    """The branch the remote's HEAD names, asked of the remote itself."""
    out = git(clone, "ls-remote", "--symref", "--", url, "HEAD", check=False)
    found = re.search(r"^ref: refs/heads/(\S+)\tHEAD$", out, re.M)
    return found.group(1) if found else None


def remote_sha(clone: Path, url: str, branch: str) -> str | None:
    out = git(clone, "ls-remote", "--", url, f"refs/heads/{branch}")
    return out.split("\t", 1)[0] if out else None


def push(clone: Path, url: str, branch: str) -> None:
    """Push renamer/<move> and nothing else, never forced: a remote branch of that name holding
    other commits refuses the push (git's own fast-forward rule)."""
    done = git_run(["git", *_SAFE, "-C", str(clone), "push", "--quiet", "--porcelain", "--", url,
                    f"refs/heads/{branch}:refs/heads/{branch}"], capture_output=True, text=True,
                   env={**os.environ, **_ENV}, check=False)
    if done.returncode != 0:  # the remote's own reason (a hook's `remote:` lines) before git's last line
        said = [line.removeprefix("remote:").strip() for line in str(done.stderr).splitlines()
                if line.startswith("remote:") and line.removeprefix("remote:").strip()]
        reason = "; ".join(said[:4]) + ("; ..." if len(said) > 4 else "")
        raise UnsafeError(f"{clone.name}: git push: " + (f"the remote refused: {reason}" if reason
                                                          else git_error(str(done.stderr))))
    git(clone, "update-ref", pushed_ref(branch), f"refs/heads/{branch}")


def pushed_ref(branch: str) -> str:
    """Where the clone remembers what it pushed (outside refs/remotes/: a fetch never prunes it)."""
    return f"refs/renamer-pushed/{branch}"
