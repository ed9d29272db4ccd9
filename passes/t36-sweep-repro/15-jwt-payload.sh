#!/bin/bash
# 15 (sev 1): a JWT's payload is base64url JSON. A token kept in the repo (a deploy or API token in
# an .env, a kubeconfig `token:`, a Grafana service account) whose `iss`/`aud` names the old host
# or address is a live reference that cannot be rewritten (the signature covers it): the service
# under the new name rejects it (audience or issuer mismatch), and it must be reissued. The sweep
# decodes PEM certificates, ssh certificates, hashed known_hosts, HAR bodies and base64 of gzip,
# but not a JWT: sweep --commit 0, verify --strict OK, nothing says the token names web01.
. "$(dirname "$0")/lib.sh"
mkrepo 15; cfg '{web01.lab.example: app01.lab.example}' '{10.0.0.70: 10.0.1.90}'
mkdir -p env k8s
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
H=$(printf '{"alg":"HS256","typ":"JWT"}' | b64url)
P=$(printf '{"iss":"https://web01.lab.example","aud":"https://10.0.0.70:8443","sub":"deploy"}' | b64url)
S=$(printf '%s.%s' "$H" "$P" | openssl dgst -sha256 -hmac secret -binary | b64url)
printf 'DEPLOY_TOKEN=%s.%s.%s\n' "$H" "$P" "$S" > env/deploy.env
printf 'apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: %s.%s.%s\n' "$H" "$P" "$S" > k8s/kubeconfig
printf 'web01.lab.example 10.0.0.70\n' > hosts.txt
commit
echo "token payload: $(cut -d. -f2 env/deploy.env | tr '_-' '/+' | base64 -d 2>/dev/null)"
run_all 2>&1 | grep -E '^(rc|==|diff --git|verify|[-+][^-+])'
