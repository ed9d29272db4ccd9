#!/bin/bash
# Builds .device/ (excluded from git: echo /.device/ >> .git/info/exclude) for the 16-core device,
# which reaches no package registry: wheels for Python 3.11-3.13 (manylinux x86_64), renamer's
# wheel (main) and a BASE commit's, ripgrep and its PCRE2 library. Then, on the device (run tool,
# carry [".device"]): `bash .device/devrun.sh SHAPES CLEAN SIZE RUNS` or `bash .device/prof.sh`.
# Usage (repo root, its .venv installed): bash benchmarks/device/prepare.sh BASE_WORKTREE
set -euo pipefail
base=${1:?a worktree of the commit to compare with}
dest=.device
mkdir -p $dest/wh $dest/bin $dest/lib
for v in 3.11 3.12 3.13; do
  .venv/bin/pip download -q --only-binary=:all: --python-version $v --platform manylinux2014_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 -d $dest/wh/$v \
    ruamel.yaml ruamel.yaml.clib GitPython libcst dnspython pathspec python-hcl2 lark hyperscan click pyyaml
done
rm -rf $dest/wh/renamer-main $dest/wh/renamer-base
.venv/bin/pip wheel -q --no-deps -w $dest/wh/renamer-main .
.venv/bin/pip wheel -q --no-deps -w $dest/wh/renamer-base "$base"
cp "$(command -v rg)" $dest/bin/ && cp -L /lib/x86_64-linux-gnu/libpcre2-8.so.0 $dest/lib/
cp benchmarks/device/install.sh benchmarks/device/devrun.sh benchmarks/device/prof.sh $dest/
du -sh $dest
