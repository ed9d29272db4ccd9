"""A renamed key meeting a standing one in a lookup-table file (t32 round 25, finding 13): an HAProxy
map, a Postfix `transport`/`virtual` table, a sendmail mailertable, an nginx map include were written
under `web01 -> app01` with only a collision warning (two entries under one key: HAProxy serves one,
postmap warns "duplicate entry"), verify --strict OK. Each is refused now (exit 3, nothing written),
naming both lines; a rename that meets no standing key is written."""

from __future__ import annotations

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run, snapshot

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
HAPROXY_CFG = ("frontend fe\n  bind :80\n"
               "  use_backend %[req.hdr(host),lower,map(/etc/haproxy/hosts.map,pool_default)]\n")

TABLES: dict[str, tuple[bytes, str]] = {
    # the tester's repro (t32 repro/13.sh)
    "haproxy/hosts.map": (b"web01 pool_a\napp01 pool_b\n", "'app01' would stand twice in one lookup table (lines 1, 2)"),
    "postfix/transport": (b"web01.lab.example  smtp:[10.0.0.70]\napp01.lab.example  smtp:[10.0.0.80]\n",
                          "'app01.lab.example' would stand twice in one lookup table (lines 1, 2)"),
    # variants of our own: CRLF and tabs, case folded by postmap, a continuation line, Latin-1, sendmail
    "haproxy/backends.map": (b"# h\xf4tes (Latin-1)\r\nweb01.lab.example\tbk_a\r\napp01.lab.example\tbk_b\r\n",
                             "'app01.lab.example' would stand twice in one lookup table (lines 2, 3)"),
    "etc/postfix/virtual": (b"ops@web01.lab.example  ops\n  # continued\nOPS@App01.lab.example  ops2\n",
                            "'ops@app01.lab.example' would stand twice in one lookup table (lines 1, 3)"),
    "etc/mail/mailertable": (b"web01.lab.example esmtp:[10.0.0.70]\napp01.lab.example esmtp:[10.0.0.80]\n",
                             "'app01.lab.example' would stand twice in one lookup table (lines 1, 2)"),
    "nginx/upstreams.map": (b"web01.lab.example backend_a;\napp01.lab.example backend_b;\n",
                            "'app01.lab.example' would stand twice in one lookup table (lines 1, 2)"),
}


@pytest.mark.parametrize("rel", list(TABLES))
def test_a_renamed_key_meeting_a_standing_one_in_a_table_is_refused(rel: str, repo: Repo, run: Run) -> None:
    data, said = TABLES[rel]
    root = repo({rel: data, "haproxy.cfg": HAPROXY_CFG, "hosts.txt": "web01 up\n"}, config=CONFIG,
                allowlist=CURRENT_ALL)
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run")
    assert "Refused:" in dry.stdout and f"{rel}:" in dry.stdout and said in dry.stdout, dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith("renamer: error:") and f"{rel}:" in message and said in message, message
    assert snapshot(root) == before  # nothing written
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("rel", "text"), [
    pytest.param("haproxy/hosts.map", "web01 pool_a\ndb01 pool_b\n", id="no-standing-key"),
    pytest.param("postfix/transport", "web01.lab.example smtp:[app01.lab.example]\n", id="a-value-not-a-key"),
    pytest.param("dist/app.js.map", '{"version":3,"file":"web01.js","names":["app01"]}\n', id="a-source-map"),
])
def test_noop_a_table_where_no_second_entry_appears(rel: str, text: str, repo: Repo, run: Run) -> None:
    root = repo({rel: text}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / rel).read_text() == text.replace("web01", "app01")
