#!/bin/bash
# Finding: text framed by byte counts beside PDF/FDF/ar/cpio/DSC-PostScript is still rewritten as text,
# counts kept: a git fast-import stream (`data N`, git fast-import then refuses the stream), a
# Subversion dump (`Text-content-length`/`Content-length` + md5), and a PostScript job wrapped in a PJL
# header (a printer driver's .prn: `%!PS` not at byte 0, DSC `%%BeginData:` counts inside).
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r05; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  hosts: {web01: webserver01}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
mkdir -p seed
BODY='upstream: web01:8080
'
printf 'blob\nmark :1\ndata %d\n%s\ncommit refs/heads/main\nmark :2\ncommitter ops <ops@lab> 1700000000 +0000\ndata 5\nseed\nM 100644 :1 app.conf\n\n' ${#BODY} "$BODY" > seed/config.fi
MD5=$(printf '%s' "$BODY" | md5sum | cut -d' ' -f1)
cat > seed/config.svndump <<Y
SVN-fs-dump-format-version: 2

UUID: 0b7e7a4c-0000-4000-8000-000000000001

Revision-number: 1
Prop-content-length: 10
Content-length: 10

PROPS-END

Node-path: app.conf
Node-kind: file
Node-action: add
Text-content-length: ${#BODY}
Text-content-md5: $MD5
Content-length: ${#BODY}

$BODY
Y
DATA='(served by web01) show'
printf '\033%%-12345X@PJL JOB\r\n@PJL ENTER LANGUAGE=POSTSCRIPT\r\n%%!PS-Adobe-3.0\n%%%%BeginData: %d ASCII Bytes\n%s\n%%%%EndData\n\033%%-12345X' ${#DATA} "$DATA" > seed/banner.prn
git add -A; git commit -qm init
echo "before: git fast-import reads the stream:"; (rm -rf /tmp/t37-break/r05fi; git init -q /tmp/t37-break/r05fi; cd /tmp/t37-break/r05fi && git fast-import --quiet < $D/seed/config.fi && echo "  ok")
$R sweep; echo "sweep rc=$?"
git diff -U0 | grep '^[-+][^-+]'
echo "after: git fast-import reads the swept stream:"; (rm -rf /tmp/t37-break/r05fi; git init -q /tmp/t37-break/r05fi; cd /tmp/t37-break/r05fi && git fast-import --quiet < $D/seed/config.fi && echo "  ok")
$R verify --strict; echo "verify --strict rc=$? (expected: each file binary/'skipped, holding old values', or its counts follow; actual: counts kept, OK)"
