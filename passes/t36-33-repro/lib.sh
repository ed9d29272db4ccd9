# shared helper: mkrepo DIR "OLD: NEW" ... ; files are written by caller after mkrepo; then swp DIR
R=${RENAMER:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.venv/bin/renamer}  # the repo's .venv unless RENAMER names one
mkrepo() {
  d=$1; shift
  rm -rf "$d"; mkdir -p "$d"; cd "$d"; git init -q; git config user.email t@t; git config user.name t
  { echo "version: 1"; echo "name: t36"; echo "cutover: 2026-10-05"; echo "renames:"; echo "  networks:";
    for m in "$@"; do echo "    $m"; done; echo "allowlist: allow.yaml"; } > renamer.yaml
  printf "version: 1\ncurrent:\n  - \"**\"\n" > allow.yaml
}
commit() { git add -A; git commit -qm init; }
swp() {
  echo "=== sweep --dry-run"; $R sweep --dry-run --color never 2>&1 | tail -n 60; echo "rc=$?"
  echo "=== sweep --commit"; $R sweep --commit --color never >/tmp/t36-33/sweep.out 2>&1; echo "rc=$?"; tail -n 30 /tmp/t36-33/sweep.out
  echo "=== verify"; $R verify --color never 2>&1 | tail -n 20; echo "verify rc=${PIPESTATUS[0]}"
  echo "=== files after"; git --no-pager diff HEAD~1 --stat 2>/dev/null | tail -3
}
