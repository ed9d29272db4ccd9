#!/bin/bash
# 21 (sev 2): a keep rule on a file the sweep renames. The sweep honours the rule
# ("Kept on purpose: previous-name 1"), then renames host_vars/web01.yml to host_vars/app01.yml
# and exits 0, but the allowlist's `path:` still says host_vars/web01.yml. Right after, verify
# fails with a residual whose advice is "current-state file: `renamer sweep` rewrites it", audit
# calls the rule stale ("matched nothing"), and the next sweep would rewrite the very line the
# operator asked to keep. Issue 27 item 18: a sweep exits 0 only when verify would pass.
. "$(dirname "$0")/lib.sh"
mkrepo 21; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p host_vars
printf 'ansible_host: 10.0.0.70\nprevious_name: web01\n' > host_vars/web01.yml
cat >> allowlists/a.yaml <<'EOC'
keep:
  - name: previous-name
    path: host_vars/web01.yml
    line_contains: previous_name
    reason: the CMDB sync matches the machine by its previous name
EOC
commit
run_all
echo "== audit"; renamer --color never audit | sed -n '/Stale/,$p'
echo "== a second sweep now:"; renamer --color never sweep --dry-run | grep -E '^[-+][^-+]'
