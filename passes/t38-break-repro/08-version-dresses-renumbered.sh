#!/bin/bash
# Finding: t37-break 04's fix makes a version's neighbour dresses `version` residuals, but the family's
# next members are still renumbered silently under 10.0.0.0/24 -> 10.0.9.0/24: Gemfile.lock's
# `agent (10.0.0.12)` (while the Gemfile's pin beside it is held: Bundler then finds them apart), Chef's
# Berksfile `cookbook` and metadata.rb `depends` (the gem requirement's twin), Cargo.toml dependencies,
# conan `agent/10.0.0.12`, package-manager pins (apt `agent=V`, yum/dnf `agent-V`, npm `agent@V`,
# `gem install -v V`, Ansible `apt: name=agent=V`), Puppet `ensure => 'V'`, a Terraform variable
# `agent_version`'s default. Expected: each a `version` residual (never renumbered). Control: ntp server.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r06; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  networks: {10.0.0.0/24: 10.0.9.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
printf "gem 'agent', '= 10.0.0.12'\n" > Gemfile
printf 'GEM\n  specs:\n    agent (10.0.0.12)\n\nDEPENDENCIES\n  agent (= 10.0.0.12)\n' > Gemfile.lock
printf "source 'https://supermarket.chef.io'\ncookbook 'agent', '= 10.0.0.12'\n" > Berksfile
printf "name 'site'\ndepends 'agent', '= 10.0.0.12'\n" > metadata.rb
printf '[dependencies]\nagent = "10.0.0.12"\n' > Cargo.toml
printf '[requires]\nagent/10.0.0.12\n' > conanfile.txt
printf 'apt-get install -y agent=10.0.0.12\ndnf install -y agent-10.0.0.12-1.el9\nnpm install agent@10.0.0.12\ngem install agent -v 10.0.0.12\n' > setup.sh
printf -- '- name: agent\n  apt:\n    name: agent=10.0.0.12\n' > tasks.yml
printf "package { 'agent':\n  ensure => '10.0.0.12',\n}\n" > init.pp
printf 'variable "agent_version" {\n  default = "10.0.0.12"\n}\n' > vars.tf
printf 'server 10.0.0.7\n' > ntp.conf
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^Summary|^  [^ ].*\(version'; echo "sweep rc=${PIPESTATUS[0]}"
echo "--- renumbered (expected: only ntp.conf):"; git diff -U0 | grep '^+[^+]'
