"""Image references and software folders, end to end (break-it round 9, finding 10).

A host named after its software (`pihole -> dns1`, geerlingguy/internet-pi): `image:
pihole/pihole` names a registry repository, so it is kept (`image`); only a registry part
(`pug.lab.lan:5000/app`) is a host. `/etc/pihole/` beside such an image, or a well-known
package's folder, is a residual `software-path`, never a silent rewrite. Host-named paths that
are not the software's stay rewritten.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.testing.repos import CURRENT_ALL, Repo, Run

PIHOLE = """\
version: 1
renames:
  hosts: {pihole: dns1, pug: wolf, pug.lab.lan: wolf.lab.lan}
  addresses: {10.0.40.11: 10.0.50.21}
allowlist: allow.yaml
"""


def _findings(run: Run, root: Path) -> tuple[int, set[tuple[str, int, str]]]:
    done = run(root, "verify", "--format", "json")
    return done.exit_code, {(f["path"], f["line"], f["reason"]) for f in json.loads(done.stdout)["findings"]
                            if f.get("status", "residual") == "residual" or f["reason"] == "software-path"}


def test_images_are_kept_in_every_dialect_and_registries_follow(repo: Repo, run: Run) -> None:
    files = {
        "compose.yaml": "services:\n  pihole:\n    container_name: pihole\n"
                        "    image: pihole/pihole:2024.07.0\n    hostname: pihole\n",
        "k8s.yaml": "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                    "    - name: c\n      image: \"docker.io/pihole/pihole@sha256:abcd\"\n"
                    "    - name: d\n      image: pug.lab.lan:5000/pug/app:pug\n",
        "job.nomad": 'job "j" {\n  task "t" {\n    config {\n      image = "pihole/pihole:latest"\n    }\n  }\n}\n',
        "Dockerfile": "FROM --platform=linux/amd64 pihole/pihole:2024.07.0\nRUN echo pug\n",
        "values.yaml": "image:\n  repository: pihole/pihole\n  tag: v5\nserver: pug.lab.lan\n",
        "Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\ndependencies:\n"
                      "  - {name: a, version: 1.0.0, repository: https://pug.lab.lan/charts}\n"
                      "  - {name: b, version: 1.0.0, repository: oci://pug.lab.lan:5000/pihole}\n",
        "run.sh": "#!/bin/sh\ndocker pull pihole/pihole:latest\n"
                  "docker run -d --name pihole -e TZ=UTC pihole/pihole:latest\n"
                  "docker pull localhost/pihole\nssh pug uptime\n",
    }
    root = repo(files, config=PIHOLE, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    text = {p: (root / p).read_text() for p in files}
    assert "image: pihole/pihole:2024.07.0" in text["compose.yaml"]
    assert "container_name: dns1" in text["compose.yaml"] and "hostname: dns1" in text["compose.yaml"]
    assert "docker.io/pihole/pihole@sha256" in text["k8s.yaml"]
    assert "image: wolf.lab.lan:5000/pug/app:pug" in text["k8s.yaml"]  # the registry is a host; the rest not
    assert 'image = "pihole/pihole:latest"' in text["job.nomad"]
    assert text["Dockerfile"] == "FROM --platform=linux/amd64 pihole/pihole:2024.07.0\nRUN echo wolf\n"
    assert "repository: https://wolf.lab.lan/charts}" in text["Chart.yaml"]  # a URL: no image
    assert "repository: oci://wolf.lab.lan:5000/pihole}" in text["Chart.yaml"]  # OCI: its registry only
    assert "repository: pihole/pihole" in text["values.yaml"] and "server: wolf.lab.lan" in text["values.yaml"]
    assert text["run.sh"] == ("#!/bin/sh\ndocker pull pihole/pihole:latest\n"
                              "docker run -d --name dns1 -e TZ=UTC pihole/pihole:latest\n"
                              "docker pull localhost/pihole\nssh wolf uptime\n")
    assert run(root, "verify").exit_code == 0
    assert "\nimage (" in run(root, "audit").stdout  # the reason, listed by audit


def test_software_folders_are_residuals_and_host_named_paths_still_move(repo: Repo, run: Run) -> None:
    compose = ("services:\n  pihole:\n    image: pihole/pihole:2024.07.0\n    volumes:\n"
               "      - \"./etc-pihole/:/etc/pihole/\"\n      - /var/lib/pihole:/data\n")
    files = {"compose.yaml": compose,
             "mon.yml": "- copy: {src: a, dest: /etc/grafana/grafana.ini}\n",
             # (a host-named folder in a backup repository's path is a `state-name` residual since round
             # 23, finding 13: tests/cli/test_state_locations.py; here it is read by `du`)
             "backup.sh": "#!/bin/sh\ndu -sh /srv/backups/pug/ && ssh pug true\n"
                          "curl http://pihole/admin\nls host_vars/pug/\n"}
    config = PIHOLE.replace("pug: wolf,", "pug: wolf, grafana: metrics1,")
    root = repo(files, config=config, allowlist=CURRENT_ALL)
    code, found = _findings(run, root)
    assert code == 1
    assert {f for f in found if f[2] == "software-path"} == {
        ("compose.yaml", 5, "software-path"), ("compose.yaml", 6, "software-path"),
        ("mon.yml", 1, "software-path")}
    assert run(root, "sweep", "--commit").exit_code == 1  # left for a decision
    assert "/etc/pihole/" in (root / "compose.yaml").read_text()
    assert "/etc/grafana/" in (root / "mon.yml").read_text()
    # negatives: a host-named backup folder, a URL's host, a relative host_vars path: rewritten
    assert (root / "backup.sh").read_text() == ("#!/bin/sh\ndu -sh /srv/backups/wolf/ && ssh wolf true\n"
                                                "curl http://dns1/admin\nls host_vars/wolf/\n")
    # decided by a keep rule: verify OK
    (root / "allow.yaml").write_text(
        CURRENT_ALL + "keep:\n"
        "  - {name: software, path: compose.yaml, line_contains: /pihole, reason: the image's folder}\n"
        "  - {name: package, path: mon.yml, line_contains: /etc/grafana/, reason: the package's folder}\n")
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout
