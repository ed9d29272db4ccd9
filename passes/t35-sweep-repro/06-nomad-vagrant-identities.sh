#!/bin/bash
# 06 (sev 1): a Kubernetes object's name is held as an identity (residual `identity`), but the
# same idea in other schedulers is rewritten: a Nomad `job "web01"` (the job ID: `nomad job run`
# then starts job app01 beside the still-running web01, both on the same static ports) and a
# Vagrant `config.vm.define "web01"` (the machine's state is .vagrant/machines/web01: `vagrant up`
# builds a second VM, the first is orphaned). exit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 06; cfg '{web01: app01}' '{}'
mkdir -p nomad
printf 'job "web01" {\n  datacenters = ["dc1"]\n  group "g" {\n    network { port "http" { static = 8080 } }\n    task "t" {\n      driver = "docker"\n      config { image = "nginx" }\n    }\n  }\n}\n' > nomad/web.nomad.hcl
printf 'Vagrant.configure("2") do |c|\n  c.vm.define "web01" do |m|\n    m.vm.box = "debian/bookworm64"\n    m.vm.hostname = "web01"\n  end\nend\n' > Vagrantfile
commit
run_all
