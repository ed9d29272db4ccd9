#!/bin/bash
# 17 (sev 1): .mailmap maps the identities recorded in past commits (`<root@web01.lab.example>`)
# to a proper name. The sweep rewrites the commit-side address, so git no longer maps the
# history's commits: `git check-mailmap` / `git shortlog -se` split the author again.
# exit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 17; cfg '{web01: app01, web01.lab.example: app01.lab.example}' '{10.0.0.70: 10.0.1.90}'
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > hosts.ini
printf 'Ops Team <ops@example.org> <root@web01.lab.example>\n' > .mailmap
commit
GIT_AUTHOR_NAME=root GIT_AUTHOR_EMAIL=root@web01.lab.example git commit -q --allow-empty -m "a commit made on web01 in 2025"
echo "before: $(git check-mailmap 'root <root@web01.lab.example>')"
run_all
echo "after:  $(git check-mailmap 'root <root@web01.lab.example>')   (no longer mapped)"
git log -1 --skip=1 --format='history still says: %an <%ae> -> mailmapped: %aN <%aE>' 
