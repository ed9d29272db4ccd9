#!/bin/bash
# Finding: the `version` residual covers `"version":`, AssemblyVersion, <Version>, pip `==`, `~>`, but a
# four-part version inside a moved network is still renumbered, silently, in its neighbours: a Windows
# resource's VALUE "FileVersion", "..." / "ProductVersion", Arch PKGBUILD pkgver=, a Gemfile/gemspec
# pinned version (`gem 'x', '10.0.0.12'`, gemspec add_dependency), a container image tag (`agent:10.0.0.12`).
# Controls: Chart.yaml appVersion and a nuspec <version> are residuals; a gateway is rewritten.
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r06; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  networks: {10.0.0.0/24: 10.0.9.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
printf 'BEGIN\n  BLOCK "040904b0"\n  BEGIN\n    VALUE "FileVersion", "10.0.0.12"\n    VALUE "ProductVersion", "10.0.0.12"\n  END\nEND\n' > agent.rc
printf 'pkgname=contoso-agent\npkgver=10.0.0.12\npkgrel=1\n' > PKGBUILD
printf "source 'https://rubygems.org'\ngem 'contoso-agent', '10.0.0.12'\n" > Gemfile
printf 'spec.add_dependency "contoso-agent", "10.0.0.12"\n' > tool.gemspec
printf 'services:\n  agent:\n    image: registry.lab/contoso/agent:10.0.0.12\n' > compose.yaml
printf '<?xml version="1.0"?>\n<package><metadata><id>Contoso.Agent</id><version>10.0.0.12</version></metadata></package>\n' > Contoso.Agent.nuspec
printf 'appVersion: 10.0.0.12\n' > Chart.yaml    # control: a residual
printf 'gateway: 10.0.0.1\n' > net.yaml           # control: rewritten
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^  [A-Za-z].*\((version)' | cut -c1-90; echo "sweep rc=${PIPESTATUS[0]}"
echo "--- renumbered (each a version, expected a 'version' residual, never rewritten):"
git diff -U0 | grep '^[-+][^-+]'
