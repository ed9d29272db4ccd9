"""A small repo telling the fv-ml1 story, with every kind of file the contract names."""

from __future__ import annotations

LITELLM = """\
model_list:
  - model_name: gen-small
    litellm_params:
      api_base: http://10.250.50.54:8001/v1
      api_key: os.environ/VLLM_KEY
  - model_name: char-rp
    litellm_params:
      api_base: http://ana-ml2:8016/v1
general_settings:
  master_key: sk-secret-123
  pass_through_endpoints:
    - path: /judge
      target: http://10.250.50.54:8021/score
"""

STORY = {
    "litellm/config.yaml": LITELLM,
    "stacks/app/compose.yaml": "services:\r\n  app:\r\n    hostname: ana-ml2\r\n",
    "stacks/app/app.env": "HOST=ana-ml2\nAPI_KEY=hunter2@ana-ml2\nURL=http://ana-ml2:1",
    "servers.md": "\ufeff| host | ip |\n| ana-ml2 | 10.250.50.54 |  \n| ana-ml20 | 10.250.50.540 |\n",
    "stacks/notes-latin1.txt": "caf\u00e9 on ana-ml2 \u00b7 10.250.50.54\n".encode("latin-1"),
    "scripts/check.py": '"""Check ana-ml2."""\nHOST = "10.250.50.54"  # ana-ml2\n',
    "runbook.md": ("# Runbook\n\nssh root@ana-ml2\n\n- hand-test ran against 10.250.50.54\n"
                   "- old board http://ana-ml2:3000 <!-- renamer: keep: retired board -->\n\n"
                   "## 2026-09-20 creep\n\nana-ml2 crept.\n\n## Now\n\nana-ml2.ana.lan serves.\n"),
    "persistent-memory.d/2026-09-14-kv.md": "[2026-09-14] ana-ml2 KV sized\nat 10.250.50.54\n",
    "incidents/bmc.md": "ana-ml2-bmc was dead\n",
    "stacks/app/.env.bak-20261005-rebal": "HOST=ana-ml2\n",
    "docs/unlisted.md": "ana-ml2 lives here\n",
}
