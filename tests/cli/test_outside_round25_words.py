"""Outside tester round 25 (issue 27, /work/t32-sweep): the sweep's word rules decided by the name
and its grammar, not by the word before it (findings 01, 18, and the others of n27-words below).

Each test builds a real git repo, runs the CLI, and reads the swept files (and where the tool
that reads them is here, runs it: kubectl offline, yq, bash -n).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _config(hosts: str) -> str:
    return f"version: 1\nrenames:\n  hosts: {{{hosts}}}\nallowlist: allow.yaml\n"


def _kept(run: Callable[..., Result], root: Path) -> list[tuple[str, int, str]]:
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    return [(r["path"], r["line"], r["reason"]) for r in audit["references"] if r["status"] == "kept"]


KUBECONFIG = (b"apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://hermes:6443\n  name: hermes\n"
              b"contexts:\n- context:\n    cluster: hermes\n    user: hermes\n  name: hermes\n"
              b"- context: {cluster: hermes, user: \"hermes\", namespace: apps}\n  name: flow\n"
              b"current-context: hermes\nusers:\n- name: hermes\n  user:\n    token: x\n")

# finding 01: a host that is no software, and a host that IS a software's name (vault, grafana), in
# the host's place of a command or a kubeconfig, or as a playbook's variable named `user`
HOST_PLACES: dict[str, bytes] = {
    "notes.md": b"- **Tailscale** runs as a systemd service directly on hermes (not in a container).\n"
                b"The backup service is scheduled on vault every night.\n",
    "deploy.sh": b"#!/bin/sh\npip install --trusted-host hermes -i http://hermes:3141/root/pypi/+simple/ mypkg\n"
                 b"systemctl restart nginx -H vault\njournalctl -u nginx -M grafana\n"
                 b"pip3 install --trusted-host vault --index-url http://vault:3141/simple/ x\n",
    "ops.ps1": b"\xef\xbb\xbfsystemctl --no-pager status nginx -H hermes\r\n",
    "kubeconfig.yaml": KUBECONFIG,
    "gatus.yaml": b"endpoints:\n  - name: nomad-agent\n    group: hermes\n    url: \"http://hermes:4646/v1/agent/health\"\n",
    "site.yml": b"- hosts: all\n  become: true\n  vars:\n    user:\n      name: hermes\n      port: 22\n"
                b"    group:\n      name: vault\n  tasks:\n    - ansible.builtin.debug: msg=\"{{ user.name }}\"\n",
}


def test_round25_01_a_host_in_a_commands_or_a_kubeconfigs_host_place_follows(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(HOST_PLACES, config=_config("hermes: apollo, vault: secrets, grafana: dash01"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    for path, before in HOST_PLACES.items():
        after = (root / path).read_bytes()
        expected = before.replace(b"hermes", b"apollo").replace(b"vault", b"secrets").replace(b"grafana", b"dash01")
        assert after == expected, (path, after)
    assert _kept(run, root) == []
    subprocess.run(["bash", "-n", str(root / "deploy.sh")], check=True)
    if shutil.which("kubectl"):
        for context in ("apollo", "flow"):
            view = subprocess.run(["kubectl", "--kubeconfig", str(root / "kubeconfig.yaml"), "config", "view",
                                   "--minify", "--context", context, "-o", "jsonpath={.users[0].name}"],
                                  capture_output=True, text=True, check=True)
            assert view.stdout == "apollo"
    if shutil.which("yq"):
        for path in ("gatus.yaml", "site.yml"):
            subprocess.run(["yq", ".", str(root / path)], check=True, capture_output=True)


def test_round25_01_the_softwares_own_unit_user_and_task_stay_kept(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The control: the same words in the software's own grammar are still the software's."""
    files = {
        "ops.sh": b"#!/bin/sh\nservice vault restart\nsudo service grafana status\nsystemctl restart vault\n",
        "site.yml": b"- hosts: all\n  tasks:\n    - name: the account\n      user:\n        name: vault\n"
                    b"    - ansible.builtin.user: {name: grafana}\n",
        "kube.yaml": b"apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    username: vault\n",
    }
    root = repo(files, config=_config("vault: secrets, grafana: dash01"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    for path, before in files.items():
        assert (root / path).read_bytes() == before, path
    assert sorted(_kept(run, root)) == [("kube.yaml", 6, "account"), ("ops.sh", 2, "software"),
                                        ("ops.sh", 3, "software"), ("ops.sh", 4, "software"),
                                        ("site.yml", 5, "software"), ("site.yml", 6, "software")]


# finding 18: the record type `A` before the name, in each resolver's grammar
QUERIES: dict[str, bytes] = {
    "check.sh": b"#!/bin/sh\ndig +short A hermes @127.0.0.1\nhost -t A vault\nnslookup -type=A hermes\n"
                b"dig a vault +short\ndrill A hermes\nkdig -t AN hermes\n",
    "check.ps1": b"\xef\xbb\xbfResolve-DnsName -Type A vault -Server 127.0.0.1\r\n"
                 b"Resolve-DnsName -Name hermes -Type A\r\n",
    "health.yaml": b"checks:\n  - cmd: \"dig +short A vault\"\n",
}


def test_round25_18_a_record_type_before_the_name_is_no_article(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(QUERIES, config=_config("hermes: apollo, vault: secrets"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    for path, before in QUERIES.items():
        assert (root / path).read_bytes() == before.replace(b"hermes", b"apollo").replace(b"vault", b"secrets"), path
    assert _kept(run, root) == []
    subprocess.run(["bash", "-n", str(root / "check.sh")], check=True)
    assert run(root, "verify", "--strict").exit_code == 0


def test_round25_18_an_article_in_prose_still_keeps_the_noun(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The control: `a vault` in prose (and `A vault` opening a sentence) is still the noun."""
    text = b"Secrets come from a vault here. A vault keeps them; see also dig.\nEach host a vault serves is listed.\n"
    root = repo({"README.md": text}, config=_config("vault: secrets"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "README.md").read_bytes() == text
    assert _kept(run, root) == [("README.md", 1, "prose-noun"), ("README.md", 1, "prose-noun"),
                                ("README.md", 2, "prose-noun")]


@pytest.mark.parametrize("line", [b"dig +short A vault\n", b"nslookup -type=A vault\n"])
def test_round25_18_spans_keeps_nothing_at_a_record_types_name(line: bytes) -> None:
    """Unit of the pure rule: software_refs.spans finds nothing at a record type's name."""
    from renamer import software_refs
    assert software_refs.spans(line, ["vault"]) == []


# finding 06: a public domain whose top-level label reads as a file's (`.sh`, `.ai`) without a scheme
PUBLIC_BARE: dict[str, bytes] = {
    "notify.sh": b"#!/bin/sh\ncurl -d \"Backup done\" ntfy.sh/homelab-backups\n"
                 b"wget -qO- ollama.ai/install.sh | sh\ncurl -s http://ntfy:8080/homelab-backups\n",
    "c.yml": b"upstream: ntfy.sh\nmodel_src: ollama.ai/library/llama3\nbase: http://ollama:11434\n",
    "app.toml": b"[push]\r\nserver = \"ntfy.sh\"\r\nlocal = \"http://ntfy:8080\"\r\n",
    "app.json": b"{\"upstream\": \"ntfy.sh\", \"models\": \"ollama.ai/library\"}\n",
    ".env": b"\xef\xbb\xbfNTFY_URL=ntfy.sh\nOLLAMA_HOST=ollama:11434\n",
    "send.py": b"import urllib.request\nurllib.request.urlopen(\"https://\" + \"ntfy.sh/alerts\")\n",
}


def test_round25_06_a_public_domain_in_a_hosts_place_without_a_scheme_is_kept(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(PUBLIC_BARE, config=_config("ntfy: push01, ollama: llm01"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    after = {path: (root / path).read_bytes() for path in PUBLIC_BARE}
    for path, before in PUBLIC_BARE.items():  # only the lab's own `ntfy:8080`, `ollama:11434` follow
        expected = before.replace(b"ntfy:8080", b"push01:8080").replace(b"ollama:11434", b"llm01:11434")
        assert after[path] == expected, (path, after[path])
    kept = _kept(run, root)
    assert {reason for _, _, reason in kept} == {"public-domain"}
    assert len(kept) == 9, kept
    subprocess.run(["bash", "-n", str(root / "notify.sh")], check=True)
    json.loads(after["app.json"])
    if shutil.which("yq"):
        subprocess.run(["yq", ".", str(root / "c.yml")], check=True, capture_output=True)


def test_round25_06_a_script_named_after_the_host_still_follows(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The control: `ntfy.sh` as a file (run, sourced, copied) is the host's script, no domain."""
    text = b"#!/bin/sh\n. ./ntfy.sh\nbash ntfy.sh --check\ncp ntfy.sh /tmp/\n"
    root = repo({"run.sh": text}, config=_config("ntfy: push01"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "run.sh").read_bytes() == text.replace(b"ntfy", b"push01")


# finding 05: the old name's start and a number composed at run time, in template and code spellings
COMPOSED: dict[str, bytes] = {
    "templates/upstream.conf.erb": b"upstream app {\r\n  server web0<%= @index %>.lab.example:8080;\r\n}\r\n",
    "templates/upstream.conf.epp": b"server web0<%= $index %>.lab.example:8080;\n",
    "templates/hosts.erb": b"<% [1, 2].each do |i| -%>\nweb0<%= i %> ansible_user=deploy\n<% end -%>\n",
    "play.yml": b"- debug: msg=\"{{ 'web0%d' | format(item) }}\"\n  loop: [1, 2]\n"
                b"- debug: msg=\"{{ 'web0' ~ item }}\"\n  loop: [1, 2]\n",
    "gen.py": b"names = [\"web0%d.lab.example\" % i for i in (1, 2)]\nfirst = \"web0\" + str(1) + \".lab.example\"\n"
              b"other = \"web0{}\".format(n)\n",
    "gen.js": b"const host = \"web0\" + String(i) + \".lab.example\";\nconst b = 'web0' + i;\n",
    "init.lua": b"local h = \"web0\" .. i\n",
}


def test_round25_05_a_name_composed_from_its_start_and_a_number_is_a_residual(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"hosts": b"web01 ansible_host=10.0.0.70\nweb02 ansible_host=10.0.0.71\n", **COMPOSED}
    root = repo(files, config=_config("web01: app01, web02: app02"), allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    places = sorted({(f["path"], f["line"]) for f in found if f["reason"] == "composed-name"})
    assert places == [("gen.js", 1), ("gen.js", 2), ("gen.py", 1), ("gen.py", 2), ("gen.py", 3),
                      ("init.lua", 1), ("play.yml", 1), ("play.yml", 3), ("templates/hosts.erb", 2),
                      ("templates/upstream.conf.epp", 1), ("templates/upstream.conf.erb", 2)], places
    assert run(root, "sweep", "--commit").exit_code == 1  # the residuals left as they are, listed
    for path, before in COMPOSED.items():
        assert (root / path).read_bytes() == before, path
    assert (root / "hosts").read_bytes().startswith(b"app01 ")
    assert run(root, "verify", "--strict").exit_code == 1
    if shutil.which("node"):
        subprocess.run(["node", "--check", str(root / "gen.js")], check=True)


def test_round25_05_a_join_that_makes_no_old_name_is_silent(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The control: a literal number joined that makes no old name (`str(3)`: web03), and a
    stem no old name starts with, are no residual; the sweep writes and the code still compiles."""
    text = b"third = \"web0\" + str(3)\nother = \"db0%d\" % 1\nname = \"web01\"\n"
    root = repo({"gen.py": text}, config=_config("web01: app01"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "gen.py").read_bytes() == text.replace(b"\"web01\"", b"\"app01\"")
    subprocess.run(["python3", "-m", "py_compile", str(root / "gen.py")], check=True)


# finding 09: prefix tests in Nix, Lua patterns and Java
PREFIX_TESTS: dict[str, bytes] = {
    "role.nix": b"{ name, lib, config, ... }: {\n  isWeb = builtins.substring 0 4 name == \"web0\";\n"
                b"  isWeb2 = \"web0\" == lib.substring 0 4 config.networking.hostName;\n}\n",
    "role.lua": b"if string.find(h, \"^web0\") then role = \"web\" end\r\nif h:match(\"^web0%d\") then role = \"web\" end\r\n"
                b"local ok = string.match(h, '^web0')\r\n",
    "Role.java": b"class Role {\n  boolean isWeb(String h) { return h.regionMatches(0, \"web0\", 0, 4); }\n"
                 b"  boolean isWebAnyCase(String h) { return h.regionMatches(true, 0, \"web0\", 0, 4); }\n}\n",
}


def test_round25_09_prefix_tests_in_nix_lua_and_java_are_pattern_residuals(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"hosts": b"web01 ansible_host=10.0.0.70\nweb02 ansible_host=10.0.0.71\n", **PREFIX_TESTS}
    root = repo(files, config=_config("web01: app01, web02: app02"), allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    places = sorted({(f["path"], f["line"]) for f in found if f["reason"] == "pattern"})
    assert places == [("Role.java", 2), ("Role.java", 3), ("role.lua", 1), ("role.lua", 2), ("role.lua", 3),
                      ("role.nix", 2), ("role.nix", 3)], places
    assert run(root, "sweep", "--commit").exit_code == 1
    for path, before in PREFIX_TESTS.items():
        assert (root / path).read_bytes() == before, path
    assert run(root, "verify", "--strict").exit_code == 1


def test_round25_09_a_test_that_selects_no_old_name_is_silent(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The control: the same tests of a prefix no old name has (`db0`), and a region past the
    start of another literal, are no residual."""
    files = {"role.lua": b"if h:match(\"^db0\") then x = 1 end\n",
             "Role.java": b"class R { boolean b(String h) { return h.regionMatches(0, \"db0\", 0, 3); } }\n",
             "role.nix": b"{ name }: { isDb = builtins.substring 0 3 name == \"db0\"; }\n"}
    root = repo(files, config=_config("web01: app01"), allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert found == []


# finding 10: Markdown emphasis opened words before a host name and closing right after it
EMPHASIS = (b"Postgres runs as a **primary on hermes** with a **streaming replica on zeus**.\n"
            b"The proxy runs __on hermes__ and *on zeus*, _then zeus_.\r\n"
            b"The **Ansible control node2** runs the playbooks; ***all on hermes***.\n"
            b"Control: **hermes** advertises the subnet route.\n")


def test_round25_10_emphasis_closing_at_a_name_is_markup_no_glob(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"Immich.md": EMPHASIS}, config=_config("hermes: apollo, zeus: kronos, node2: node9"),
                allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [f for f in found if f["reason"] == "pattern"] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "Immich.md").read_bytes() == (
        EMPHASIS.replace(b"hermes", b"apollo").replace(b"zeus", b"kronos").replace(b"node2", b"node9"))
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 0, verified.stdout


def test_round25_10_a_glob_after_a_name_is_still_a_pattern(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The control: a wildcard that closes nothing (`ls hermes*`, `hermes**/x`, a dunder-like
    identifier `hermes__` with no opener) is no emphasis."""
    text = b"#!/bin/sh\nls /srv/hermes* /data/**/hermes**/x\nhermes__=1\n"
    root = repo({"run.sh": text}, config=_config("hermes: apollo"), allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert sorted((f["line"], f["reason"]) for f in found if f["reason"] == "pattern") == [(2, "pattern"),
                                                                                             (2, "pattern")]
    run(root, "sweep", "--commit")
    assert (root / "run.sh").read_bytes() == text


def test_round25_10_a_near_miss_says_what_sets_its_spelling_apart(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The near-miss of a spelling equal to the old value names the neighbour, never "'x' looks like 'x'"."""
    root = repo({"notes.md": b"see hermes__ now\n"}, config=_config("hermes: apollo"), allowlist=ALLOW)
    out = run(root, "verify").stdout
    assert "'hermes' looks like 'hermes'" not in out
    assert "'hermes' is spelled as the old value, but a letter or `_` right after it joins it" in out, out


# finding 14: the English possessive of a name ending in `s`
POSSESSIVE = (b"# 2. tailscale.yaml has been run against it so it holds hermes' 192.168.0.0/24\n"
              b"- name: \"Check hermes' routes\"\n  msg: 'on hermes'\n")


def test_round25_14_a_possessive_apostrophe_follows_the_new_name(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"play.yml": POSSESSIVE, "notes.md": b"ares' disks and hermes'\r\n", "ok.md": b"hermes's fans\n"}
    root = repo(files, config=_config("hermes: apollo, zeus: kronos, ares: mars"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    # the comment's possessive becomes `apollo's`; inside a string (`"Check hermes' routes"`, whose
    # apostrophe stands inside double quotes) and a quoted `'on hermes'` only the name follows
    assert (root / "play.yml").read_bytes() == (
        b"# 2. tailscale.yaml has been run against it so it holds apollo's 192.168.0.0/24\n"
        b"- name: \"Check apollo' routes\"\n  msg: 'on apollo'\n")
    assert (root / "notes.md").read_bytes() == b"mars' disks and apollo's\r\n"  # mars ends in s too
    assert (root / "ok.md").read_bytes() == b"apollo's fans\n"
    if shutil.which("yq"):
        subprocess.run(["yq", ".", str(root / "play.yml")], check=True, capture_output=True)
    assert run(root, "verify", "--strict").exit_code == 0
    move = run(root, "log").stdout.split()[1]
    assert run(root, "undo", move).exit_code == 0
    for path, before in files.items():
        assert (root / path).read_bytes() == before, path


# finding 11: Fabio's route tag `urlprefix-<host>/`, the host glued to a prefix Fabio strips
FABIO: dict[str, bytes] = {
    "vaultwarden.nomad": b"job \"vaultwarden\" {\n  group \"g\" {\n    service {\n      tags = [\n"
                         b"        \"urlprefix-warden.qkroode.nl/\",\n"
                         b"        \"urlprefix-warden.qkroode.nl/notifications/hub\"\n      ]\n    }\n"
                         b"    task \"t\" {\n      env {\n        DOMAIN = \"https://warden.qkroode.nl\"\n      }\n"
                         b"    }\n  }\n}\n",
    "consul/registry.json": b"{\"service\": {\"name\": \"registry\", \"tags\": [\"urlprefix-oci/ proto=https\"]}}\n",
    "compose.yaml": b"services:\r\n  app:\r\n    labels:\r\n      - \"urlprefix-warden.qkroode.nl/api strip=/api\"\r\n",
}


def test_round25_11_the_host_after_fabios_urlprefix_follows(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(FABIO, config=_config("warden.qkroode.nl: pass.qkroode.nl, oci: registry01"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    for path, before in FABIO.items():
        expected = before.replace(b"warden.qkroode.nl", b"pass.qkroode.nl").replace(b"urlprefix-oci/",
                                                                                    b"urlprefix-registry01/")
        assert (root / path).read_bytes() == expected, path
    json.loads((root / "consul/registry.json").read_bytes())
    if shutil.which("yq"):
        subprocess.run(["yq", ".", str(root / "compose.yaml")], check=True, capture_output=True)
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 0, verified.stdout


def test_round25_11_a_longer_prefix_is_another_name(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The control: `myurlprefix-oci` and `oci-urlprefix-x` are other words; `urlprefix-:3306` no host."""
    text = b"tags = [\"myurlprefix-oci/\", \"urlprefix-:3306 proto=tcp\"]\n"
    root = repo({"a.hcl": text}, config=_config("oci: registry01"), allowlist=ALLOW)
    run(root, "sweep", "--commit")
    assert (root / "a.hcl").read_bytes() == text
