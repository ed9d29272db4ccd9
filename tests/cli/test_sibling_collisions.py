"""Issue 27 item 7: what the dry run reports as a collision of two siblings' names, the commit
refuses (exit 3, nothing written, file and line named): block heads (nginx, Caddy, BIND,
keepalived), HAProxy sections, a list item's identifying field (Prometheus `job_name`, a
Kubernetes container's `name`), inventory host lines, and a folder renamed into an existing one.
Break-it round 8 #2: each was warned, then committed, and `verify --strict` said OK."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.testing.repos import PUG_ALLOW, PUG_CONFIG, git

# pug -> wolf, pug.ana.lan -> wolf.fv.lan, 10.0.0.5 -> 10.1.0.5, beside a `wolf` already there.
COLLIDING = {
    "prometheus.yml": ("scrape_configs:\n  - job_name: pug\n    static_configs: [{targets: ['pug:9100']}]\n"
                       "  - job_name: wolf\n    static_configs: [{targets: ['other:9100']}]\n", 4),
    "haproxy.cfg": ("backend pug\n  server s1 pug:80\nbackend wolf\n  server s1 other:80\n", 3),
    "nginx/nginx.conf": ("http {\n  upstream pug { server 10.0.0.5:80; }\n"
                         "  upstream wolf { server 10.1.0.99:80; }\n}\n", 3),
    "Caddyfile": ("pug.ana.lan {\n  reverse_proxy 10.0.0.5:80\n}\n"
                  "wolf.fv.lan {\n  reverse_proxy 10.1.0.99:80\n}\n", 4),
}
VARIANTS = {
    "bind/named.conf": ('zone "pug.ana.lan" {\n  type master;\n  file "db.a";\n};\n'
                        'zone "wolf.fv.lan" {\n  type master;\n  file "db.b";\n};\n', 5),
    "keepalived.conf": ("vrrp_instance pug {\n  state MASTER\n}\nvrrp_instance wolf {\n  state BACKUP\n}\n", 4),
    "k8s/deploy.yaml": ("spec:\n  containers:\n  - name: pug\n    image: a\n  - name: wolf\n    image: b\n", 5),
    "alertmanager.yml": ("receivers:\n  - name: pug\n    email_configs: [{to: a@b}]\n"
                         "  - name: wolf\n    email_configs: [{to: c@d}]\n", 4),
    "inventory/hosts": ("[web]\npug ansible_host=10.0.0.5\nwolf ansible_host=10.1.0.99\n", 3),
    "nginx/site.conf": ("server {\n  location /pug/ { proxy_pass http://a; }\n"
                        "  location /wolf/ { proxy_pass http://b; }\n}\n", 3),
    "nagios/hosts.cfg": ("define host {\n  host_name pug\n  address 10.0.0.5\n}\n"
                         "define host {\n  host_name wolf\n  address 10.1.0.99\n}\n", 6),
    "compose.yaml": ('services:\n  app:\n    image: x\n    labels:\n      - "pug=db"\n      - "wolf=web"\n', 6),
    "smb.conf": ("[pug]\n  path = /srv/a\n[wolf]\n  path = /srv/b\n", 3),
}


def _files(cases: dict[str, tuple[str, int]]) -> dict[str, str | bytes]:
    return {"renamer.yaml": PUG_CONFIG, "allow.yaml": PUG_ALLOW, **{p: t for p, (t, _) in cases.items()}}


@pytest.mark.parametrize("cases", [COLLIDING, VARIANTS], ids=["report", "variants"])
def test_the_dry_run_lists_each_as_refused_and_the_commit_writes_nothing(repo, run, cases) -> None:
    root = repo(_files(cases), config=None, allowlist=None)
    head = git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert dry.exit_code == 0
    refused = dry.stdout[dry.stdout.index("Refused:"):]
    for path, (_, line) in cases.items():
        listed = [row for row in refused.splitlines() if row.startswith(f"  {path}:{line}: ")]
        assert listed and "after the rename" in listed[0], path
        assert "would collide with an existing one" in listed[0], listed
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    for path, (_, line) in cases.items():
        assert f"{path}:{line}: " in done.stderr, path
    assert "nothing written" in done.stderr
    assert git(root, "rev-parse", "HEAD") == head
    assert git(root, "status", "--porcelain") == ""
    for path, (text, _) in cases.items():
        assert (root / path).read_text() == text
    # verify keeps the promise: the old names are still there, each a residual
    assert run(root, "verify", "--strict").exit_code == 1


def test_bind_itself_refuses_what_the_sweep_refused(repo, run, tmp_path) -> None:
    """named-checkconf reads the refused edit as two definitions of one zone."""
    if shutil.which("named-checkconf") is None:
        raise AssertionError("named-checkconf is part of the test tools (bind9-utils)")
    text = VARIANTS["bind/named.conf"][0]
    written = tmp_path / "named.conf"
    written.write_text(text.replace("pug.ana.lan", "wolf.fv.lan"))
    checked = subprocess.run(["named-checkconf", str(written)], capture_output=True, text=True)
    assert checked.returncode == 1 and "already exists" in checked.stdout + checked.stderr
    root = repo(_files({"bind/named.conf": VARIANTS["bind/named.conf"]}), config=None, allowlist=None)
    assert run(root, "sweep", "--commit").exit_code == 3


def test_siblings_that_stay_apart_are_swept(repo, run) -> None:
    """Free labels (an Ansible task's name), blocks under different parents, one host listed in two
    inventory groups, a list of plain values: rewritten and committed as before. (Another host of
    the new name in another group was here: it is one identity with it, refused since break-it
    round 16 #8.)"""
    files = {
        "play.yml": "- name: restart pug\n  service: {name: x}\n- name: restart wolf\n  service: {name: y}\n",
        "nginx.conf": ("http {\n  server {\n    location /pug/ { }\n  }\n"
                       "  server {\n    location /wolf/ { }\n  }\n}\n"),
        "inventory/hosts": "[web]\npug\n[db]\npug\n",  # one host in two groups stays one (round 16 #8)
        "upstreams.yaml": "upstreams:\n  - pug\n  - wolf\n",
        "haproxy.cfg": "backend pug\n  server s1 pug:80\nbackend rex\n  server s1 rex:80\n",
    }
    root = repo({"renamer.yaml": PUG_CONFIG, "allow.yaml": PUG_ALLOW, **files}, config=None, allowlist=None)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stderr
    assert (root / "inventory/hosts").read_text() == "[web]\nwolf\n[db]\nwolf\n"
    assert (root / "haproxy.cfg").read_text().startswith("backend wolf\n")
    assert git(root, "status", "--porcelain") == ""


@pytest.mark.parametrize(("files", "folder", "target", "held"), [
    ({"stacks/pug/compose.yaml": "services:\n  app: {image: a}\n",
      "stacks/wolf/compose.override.yaml": "services:\n  app: {image: b}\n"},
     "stacks/pug", "stacks/wolf", "stacks/wolf/compose.override.yaml"),
    ({"host_vars/pug/net.yml": "ansible_host: 10.0.0.5\n", "host_vars/wolf/main.yml": "role: db\n"},
     "host_vars/pug", "host_vars/wolf", "host_vars/wolf/main.yml"),
    ({"roles/web/files/pug/site.conf": "x\n", "roles/web/files/wolf/site.conf.orig": "y\n"},
     "roles/web/files/pug", "roles/web/files/wolf", "roles/web/files/wolf/site.conf.orig"),
])
def test_a_folder_renamed_into_an_existing_folder_is_refused(repo, run, files, folder, target, held) -> None:
    root = repo({"renamer.yaml": PUG_CONFIG, "allow.yaml": PUG_ALLOW, **files}, config=None, allowlist=None)
    head = git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert (f"  {folder}/: renaming it to {target}/ would merge it into that existing folder, which holds "
            f"{held}: two folders would become one (merge them by hand, or keep the folder's name with "
            f"`keep_paths: [{folder}]`)") in dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert f"{folder}/: renaming it to {target}/" in done.stderr and "nothing written" in done.stderr
    assert git(root, "rev-parse", "HEAD") == head and git(root, "status", "--porcelain") == ""
    assert all((root / path).exists() for path in files)


def test_a_folder_merge_kept_by_keep_paths_sweeps_the_rest(repo, run) -> None:
    files = {"stacks/pug/compose.yaml": "services:\n  app: {image: a, hostname: pug}\n",
             "stacks/wolf/compose.override.yaml": "services:\n  app: {image: b}\n", "a.txt": "x pug\n"}
    allow = PUG_ALLOW + "keep_paths: [stacks/pug]\n"
    root = repo({"renamer.yaml": PUG_CONFIG, "allow.yaml": allow, **files}, config=None, allowlist=None)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stderr
    assert (root / "stacks/pug/compose.yaml").read_text().endswith("hostname: wolf}\n")
    assert (root / "a.txt").read_text() == "x wolf\n"


def test_a_folder_renamed_where_nothing_stands_still_moves(repo, run) -> None:
    files = {"stacks/pug/compose.yaml": "services:\n  app: {image: a}\n", "stacks/rex/compose.yaml": "x: 1\n"}
    root = repo({"renamer.yaml": PUG_CONFIG, "allow.yaml": PUG_ALLOW, **files}, config=None, allowlist=None)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "stacks/wolf/compose.yaml").exists() and not (root / "stacks/pug").exists()


def test_verify_strict_fails_on_siblings_a_move_already_made_one(repo, run) -> None:
    """A move committed before the sweep refused these (renamer before round 8, or by hand):
    `verify --strict` compares each current file with the commit before the move's first one."""
    config = PUG_CONFIG.replace("version: 1\n", "version: 1\nname: pug-move\n")
    before = {p: t for p, (t, _) in COLLIDING.items()}
    before.update({"host_vars/pug/net.yml": "ansible_host: 10.0.0.5\n", "host_vars/wolf/main.yml": "role: db\n",
                   "inventory/hosts": "[web]\npug\nwolf\n"})
    root = repo({"renamer.yaml": config, "allow.yaml": PUG_ALLOW, **before}, config=None, allowlist=None)
    for path, text in before.items():  # the move, written as the sweep on main wrote it
        (root / path).write_text(text.replace("pug.ana.lan", "wolf.fv.lan").replace("pug", "wolf")
                                 .replace("10.0.0.5", "10.1.0.5"))
    (root / "host_vars/wolf/net.yml").write_text((root / "host_vars/pug/net.yml").read_text())
    git(root, "rm", "-qf", "host_vars/pug/net.yml")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "pug-move: pug -> wolf\n\nRenamer-Move: pug-move\nRenamer-Commit: rewrite")
    assert run(root, "verify").exit_code == 0  # warnings only
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    errors = [line for line in strict.stdout.splitlines() if ": error: collision: " in line]
    assert [line.split(": error:")[0] for line in errors] == [
        "Caddyfile:4:1", "haproxy.cfg:3:1", "inventory/hosts:3:1", "nginx/nginx.conf:3:1", "prometheus.yml:4:1",
        "host_vars/wolf/"]
    assert ("haproxy.cfg:3:1: error: collision: the section 'backend wolf' stands twice among its siblings "
            "(lines 1, 3): the move turned pug into wolf beside the wolf that stood here before its first "
            "commit") in strict.stdout
    assert "host_vars/wolf/ now holds what host_vars/pug/ held (net.yml) beside its own main.yml" in strict.stdout
    # one of them renamed by hand: that file has nothing left to fail on
    (root / "haproxy.cfg").write_text(COLLIDING["haproxy.cfg"][0].replace("pug", "rex"))
    git(root, "commit", "-qam", "rex")
    assert "haproxy.cfg" not in run(root, "verify", "--strict").stdout
