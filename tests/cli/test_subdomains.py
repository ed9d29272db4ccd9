"""Names under a renamed host's name (break-it round 10, finding 8, found on adrienkohlbecker/homelab):
`*.pug.lab.lan`, `grafana.pug.lab.lan` and a zone's `*.pug` stayed with near-miss warnings and plain
verify exited 0, while the host itself moved. Where the parent is provably the host's DNS name (an
FQDN key, the short name under an FQDN key's domain, a zone's own name), such a name is a residual
`subdomain`; `options.subdomains: follow` renames it with the host. `sub.pug` with no domain, and
names under a domain nothing ties to the host, stay other names (DESIGN)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"


def _config(hosts: str, options: str = "") -> str:
    return (f"version: 1\ncutover: 2026-10-05\nrenames:\n  hosts: {hosts}\n"
            f"  addresses: {{10.0.40.11: 10.0.50.21}}\n{options}allowlist: allow.yaml\n")


FQDN = "{pug: wolf, pug.lab.lan: wolf.lab.lan}"
ZONE = ("$ORIGIN lab.lan.\n$TTL 300\n@ IN SOA ns.lab.lan. admin.lab.lan. ( 2026010101 3600 600 86400 300 )\n"
        "pug IN A 10.0.40.11\n*.pug IN CNAME pug\ngrafana.pug IN CNAME pug\n")
FILES = {
    "dns.tf": 'resource "cloudflare_record" "w" {\n  name    = "*.pug.lab.lan"\n  content = "pug.lab.lan"\n}\n',
    "grafana.conf": "server {\n  server_name grafana.pug.lab.lan;\n  location / { proxy_pass http://pug.lab.lan:3000; }\n}\n",
    "db.lab.lan": ZONE,
    "vhost.yml": 'server_name: "{{ svc }}.pug.lab.lan"\nhost: pug\n',
}


def _residuals(run: Run, root: Path) -> set[tuple[str, int, str]]:
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    return {(r["path"], r["line"], r["old"]) for r in audit["references"]
            if r["status"] == "residual" and r["reason"] == "subdomain"}


def test_names_under_a_renamed_fqdn_are_residuals_and_the_host_still_moves(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=_config(FQDN), allowlist=ALLOW)
    sweep = run(root, "sweep", "--commit")
    assert sweep.exit_code == 1, sweep.stdout
    assert (root / "dns.tf").read_text() == FILES["dns.tf"].replace('"pug.lab.lan"', '"wolf.lab.lan"')
    assert (root / "grafana.conf").read_text() == FILES["grafana.conf"].replace("http://pug", "http://wolf")
    zone = (root / "db.lab.lan").read_text()
    assert "wolf IN A 10.0.50.21\n*.pug IN CNAME wolf\ngrafana.pug IN CNAME wolf\n" in zone
    assert (root / "vhost.yml").read_text() == 'server_name: "{{ svc }}.pug.lab.lan"\nhost: wolf\n'
    verify = run(root, "verify")
    assert verify.exit_code == 1
    assert ("grafana.conf:2:23: residual (subdomain): pug.lab.lan -> wolf.lab.lan: `grafana.pug.lab.lan` is a "
            "name under `pug.lab.lan`, which this sweep renames to `wolf.lab.lan`") in verify.stdout
    assert "`{{ svc }}.pug.lab.lan` is a name under `pug.lab.lan`" in verify.stdout
    assert _residuals(run, root) == {("dns.tf", 2, "pug.lab.lan"), ("grafana.conf", 2, "pug.lab.lan"),
                                     ("db.lab.lan", 5, "pug"), ("db.lab.lan", 6, "pug"),
                                     ("vhost.yml", 1, "pug.lab.lan")}


def test_the_short_name_under_an_fqdn_keys_domain_is_the_host_too(repo: Repo, run: Run) -> None:
    files = {"grafana.conf": "server_name grafana.pug.lab.lan *.pug.lab.lan;\n"}
    root = repo(files, config=_config("{pug: wolf, nas.lab.lan: store.lab.lan}"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "grafana.conf").read_text() == files["grafana.conf"]
    assert _residuals(run, root) == {("grafana.conf", 1, "pug.lab.lan")}
    assert run(root, "verify").exit_code == 1


def test_names_nothing_ties_to_the_host_stay_other_names(repo: Repo, run: Run) -> None:
    """DESIGN: `sub.ana-ml2` is another name; so is a name under a domain no key names, or a
    longer name that merely holds the FQDN (`pug.lab.lan.example.com`)."""
    files = {"notes.conf": ("alias sub.pug\nserver_name grafana.pug.example.com;\n"
                            "upstream x.pug.lab.lan.example.com;\n")}
    root = repo(files, config=_config("{pug: wolf}"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "notes.conf").read_text() == files["notes.conf"]
    assert _residuals(run, root) == set()
    assert run(root, "verify").exit_code == 0


def test_subdomains_follow_renames_them_with_the_host(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=_config(FQDN, "options:\n  subdomains: follow\n"), allowlist=ALLOW)
    sweep = run(root, "sweep", "--commit")
    assert sweep.exit_code == 0, sweep.stdout
    assert (root / "dns.tf").read_text() == FILES["dns.tf"].replace("pug.lab.lan", "wolf.lab.lan")
    assert (root / "grafana.conf").read_text() == FILES["grafana.conf"].replace("pug.lab.lan", "wolf.lab.lan")
    zone = (root / "db.lab.lan").read_text()
    assert "wolf IN A 10.0.50.21\n*.wolf IN CNAME wolf\ngrafana.wolf IN CNAME wolf\n" in zone
    assert (root / "vhost.yml").read_text() == 'server_name: "{{ svc }}.wolf.lab.lan"\nhost: wolf\n'
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_subdomains_option_other_than_residual_or_follow_is_refused(repo: Repo, run: Run) -> None:
    root = repo({"a.txt": "pug\n"}, config=_config(FQDN, "options:\n  subdomains: yes-please\n"),
                allowlist=ALLOW)
    result = run(root, "verify")
    assert result.exit_code == 2
    assert "options.subdomains: expected residual or follow, got 'yes-please'" in result.stderr


RELATIVE = {
    # Terraform hashicorp/dns: `name` relative to the record's literal `zone` (ChristianLempa/homelab)
    "dns/server.tf": ('resource "dns_a_record_set" "pug_wildcard" {\n  zone      = "lab.lan."\n  name      = "*.pug"\n'
                      '  addresses = ["10.0.40.11"]\n}\n'
                      'resource "dns_txt_record_set" "acme" {\n  zone = "lab.lan."\n  name = "_acme-challenge.pug"\n'
                      '  txt  = ["x"]\n}\n'),
    # OctoDNS: the keys of config/<zone>.yaml are names in that zone, quoted or not
    "octodns/config/lab.lan.yaml": ("---\n'*.pug':\n  type: CNAME\n  value: pug.lab.lan.\n"
                                    "_acme-challenge.pug:\n  type: TXT\n  value: x\n"
                                    "\"grafana.pug\":\n  type: CNAME\n  value: pug.lab.lan.\n"),
}


def test_round15_a_name_under_the_host_written_relative_to_a_zone_is_a_subdomain_residual(
        repo: Repo, run: Run) -> None:
    """Break-it round 15, finding 1(b): `name = "*.pug"` in zone lab.lan. is `*.pug.lab.lan`, a name
    under the renamed host, as the same name written whole is; it was a near-miss."""
    root = repo(RELATIVE, config=_config(FQDN), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert _residuals(run, root) == {("dns/server.tf", 3, "pug"), ("dns/server.tf", 8, "pug"),
                                     ("octodns/config/lab.lan.yaml", 2, "pug"),
                                     ("octodns/config/lab.lan.yaml", 5, "pug"),
                                     ("octodns/config/lab.lan.yaml", 8, "pug")}
    tf = (root / "dns/server.tf").read_text()
    assert 'name      = "*.pug"' in tf and 'name = "_acme-challenge.pug"' in tf
    octo = (root / "octodns/config/lab.lan.yaml").read_text()
    assert "'*.pug':" in octo and "value: wolf.lab.lan." in octo
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    near = {(n["path"], n["line"]) for n in verify["near_misses"]}
    assert not verify["ok"] and near == {("dns/server.tf", 1)}  # the label `pug_wildcard`: another word


def test_round15_relative_names_follow_with_the_option_and_stay_other_names_elsewhere(repo: Repo, run: Run) -> None:
    root = repo(RELATIVE, config=_config(FQDN, "options: {subdomains: follow}\n"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    tf = (root / "dns/server.tf").read_text()
    assert 'name      = "*.wolf"' in tf and 'name = "_acme-challenge.wolf"' in tf
    octo = (root / "octodns/config/lab.lan.yaml").read_text()
    assert "'*.wolf':" in octo and "_acme-challenge.wolf:" in octo and '"grafana.wolf":' in octo
    assert run(root, "verify").exit_code == 0


def test_round15_relative_names_nothing_ties_to_the_host_stay_other_names(repo: Repo, run: Run) -> None:
    """Not a DNS record (no dns_ resource), not an OctoDNS zone file, another host."""
    others = {"app.tf": 'resource "aws_thing" "x" {\n  zone = "lab.lan."\n  name = "*.pug"\n}\n',
              "config/vars.yaml": "'*.pug':\n  enabled: true\n",
              "dns.tf": 'resource "dns_a_record_set" "r" {\n  zone = "lab.lan."\n  name = "*.rex"\n'
                        '  addresses = ["10.0.40.12"]\n}\n'}
    root = repo(others, config=_config(FQDN), allowlist=ALLOW)
    assert run(root, "sweep", "--dry-run").exit_code == 0
    assert _residuals(run, root) == set()
