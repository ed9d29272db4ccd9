#!/bin/bash
# 02 (sev 1): an uncompressed PDF (qpdf --qdf, ps2pdf -dCompressPages=false) is swept as text.
# The rename changes the stream's length: /Length, the xref offsets and startxref no longer
# match; the sweep exits 0, verify --strict says OK, and a strict PDF reader refuses the file.
. "$(dirname "$0")/lib.sh"
mkrepo 02; cfg '{web01.lab.example: app001.example.net}' '{10.0.0.70: 10.0.1.90}'
python3 - <<'PY'
objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        None, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
stream = b"BT /F1 12 Tf 20 100 Td (Runbook: ssh web01.lab.example, IP 10.0.0.70) Tj ET"
objs[3] = b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"
out = b"%PDF-1.4\n"; offs = []
for i, o in enumerate(objs, 1):
    offs.append(len(out)); out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
x = len(out)
out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs)+1) + b"".join(b"%010d 00000 n \n" % o for o in offs)
out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs)+1, x)
open("runbook.pdf","wb").write(out)
PY
commit
run_all
python3 - <<'PY'
import re
d = open("runbook.pdf", "rb").read()
L = int(re.search(rb"/Length (\d+)", d).group(1))
body = d.split(b"stream\n", 1)[1].split(b"\nendstream", 1)[0]
print("after the sweep: /Length says", L, "- the stream is", len(body), "bytes")
x = int(re.search(rb"startxref\n(\d+)", d).group(1))
print("startxref points at", d[x:x+6], "(should be b'xref\\n0')")
for i, o in enumerate(int(m) for m in re.findall(rb"(\d{10}) 00000 n", d)):
    print("xref object", i + 1, "->", d[o:o+8])
PY
# With pypdf installed (pip install pypdf): PdfReader(strict=True) raises
# "Unable to find 'endstream' marker after stream" on the swept file, reads the original.
