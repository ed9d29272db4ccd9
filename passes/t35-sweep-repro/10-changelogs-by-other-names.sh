#!/bin/bash
# 10 (sev 1): records-common keeps `**/CHANGELOG*`, `**/CHANGES*`, `**/HISTORY*` - case-sensitive
# gitignore patterns. Changelogs spelled otherwise are proposed current by `init` and
# rewritten: Debian's `debian/changelog`, `Changelog.md`, `changes.txt`, an RPM spec's
# `%changelog` section, release notes (`RELEASE_NOTES.md`, `docs/release-notes/1.2.md`).
# Each entry now says the 2025 release pointed at app01 / 10.0.1.90. exit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 10
mkdir -p debian pkg docs/release-notes
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > hosts.ini
printf 'mytool (1.2-1) bookworm; urgency=medium\n\n  * Point the updater at web01 (10.0.0.70).\n\n -- Ops <ops@example.org>  Sat, 01 Mar 2025 10:00:00 +0000\n' > debian/changelog
printf 'Name: mytool\nVersion: 1.2\nRelease: 1\nSummary: x\nLicense: MIT\n%%description\nx\n%%install\ninstall -m0644 conf %%{buildroot}/etc/mytool.conf\n%%changelog\n* Sat Mar 01 2025 Ops <ops@example.org> - 1.2-1\n- Point the updater at web01 (10.0.0.70)\n' > pkg/mytool.spec
printf '# Release notes 1.2\n\nThe updater now talks to web01 (10.0.0.70).\n' > docs/release-notes/1.2.md
printf '# v1.2 (2025-03-01)\n\n- moved the updater to web01\n' > RELEASE_NOTES.md
printf '## [1.2.0] - 2025-03-01\n- moved to web01\n' > Changelog.md
printf 'Version 1.2 (2025-03-01): moved to web01\n' > changes.txt
commit
echo "== renamer init"; renamer --color never init --from web01=app01 --from 10.0.0.70=10.0.1.90
commit cfg
run_all
