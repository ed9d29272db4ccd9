#!/bin/bash
# 20 (sev 1): a git repository, a Go module, an npm package and a Grafana dashboard that happen to
# be called like the host. The sweep holds the repository in `git clone git@github.com:acme/web01.git`,
# an Ansible Galaxy `src:`, `pip install git+https://git.lab.example/ops/web01.git` and an Argo CD
# `repoURL` (right: the repository keeps its name). But it rewrites, for the same repository:
#  - go.mod's `module git.lab.example/ops/web01` (the module path is where `go get` finds it: the
#    repository is still ops/web01), and the .go file's import of it;
#  - package.json's `"name": "web01"` (the published package's identity);
#  - a Grafana link `https://grafana.lab.example/d/web01/overview` (`web01` is the dashboard's UID,
#    kept by Grafana: the link now 404s).
# sweep --commit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 20; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p scripts cmd docs
printf '#!/bin/sh\ngit clone git@github.com:acme/web01.git /srv/site\npip install git+https://git.lab.example/ops/web01.git@v1\n' > scripts/setup.sh
printf 'module git.lab.example/ops/web01\n\ngo 1.22\n' > go.mod
printf 'package main\n\nimport "git.lab.example/ops/web01/internal/health"\n\nfunc main() { health.Serve("10.0.0.70:8080") }\n' > cmd/main.go
printf '{"name": "web01", "version": "1.0.0", "private": false}\n' > package.json
printf 'Dashboard: https://grafana.lab.example/d/web01/overview\n' > docs/links.md
commit
run_all 2>&1 | grep -E '^(rc|==|verify|diff --git|[-+][^-+])'
