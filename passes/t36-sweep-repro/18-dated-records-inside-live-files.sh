#!/bin/bash
# 18 (sev 1): records inside current files, the neighbours of t35 findings 13-15's `dated-row` and
# `spec-changelog`: dated rows are kept only when half a file's lines start with a date. These
# common shapes are rewritten into a past that never happened:
#  - a Markdown table of dated changes in a live README (`| 2025-03-01 | web01 moved to rack 4 |`);
#  - dated change comments at the top of a live config (`# 2025-03-01 jdoe: web01 got the new
#    disk`), the way many shops annotate /etc files;
#  - a Helm chart's `artifacthub.io/changes` annotation and a YAML `changelog:` list in a live file.
# (A dated bullet list under `## History` in the same README is kept.) sweep --commit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 18; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p nginx chart
cat > README.md <<'EOT'
# Web tier

Served by web01 (10.0.0.70).

## Change log

| Date | Change |
| --- | --- |
| 2025-03-01 | web01 moved to rack 4, 10.0.0.70 kept |
| 2025-06-12 | web01 got a second disk |

## History

- 2025-02-11: web01 rebuilt after the RAID failure
- 2025-04-02: 10.0.0.70 briefly given to the printer by mistake
EOT
cat > nginx/upstream.conf <<'EOT'
# 2025-03-01 jdoe: web01 back in the pool after the disk swap
# 2025-05-20 jdoe: web01 drained for the kernel upgrade, then restored
upstream app { server 10.0.0.70:8080; }
EOT
cat > chart/Chart.yaml <<'EOT'
apiVersion: v2
name: web
version: 1.4.0
annotations:
  artifacthub.io/changes: |
    - kind: fixed
      description: 2025-03-01 web01 health check path
EOT
commit
run_all 2>&1 | grep -E '^(rc|==|verify|diff --git|[-+][^-+])'
