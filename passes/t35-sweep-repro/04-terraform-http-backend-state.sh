#!/bin/bash
# 04 (sev 1): Terraform state names are kept (`terraform-state`) for s3/azurerm/gcs/kubernetes/
# remote/cloud backends, backend.hcl and terragrunt - but not for the `http` backend, which is
# how GitLab-managed Terraform state is addressed (`.../terraform/state/NAME`, with lock and
# unlock addresses), nor for GitLab CI's `TF_STATE_NAME` / `TF_ADDRESS` (the gitlab-terraform
# template). The sweep rewrites them: the next `terraform init` opens a new, empty state "app01"
# and plans to create everything again, the real state stranded under "web01".
# exit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 04; cfg '{web01: app01}' '{}'
mkdir -p tf tf-s3
printf 'terraform {\n  backend "http" {\n    address        = "https://gitlab.lab.example/api/v4/projects/7/terraform/state/web01"\n    lock_address   = "https://gitlab.lab.example/api/v4/projects/7/terraform/state/web01/lock"\n    unlock_address = "https://gitlab.lab.example/api/v4/projects/7/terraform/state/web01/lock"\n  }\n}\n' > tf/backend.tf
printf 'include:\n  - template: Terraform.gitlab-ci.yml\nvariables:\n  TF_ROOT: tf\n  TF_STATE_NAME: web01\n  TF_ADDRESS: ${CI_API_V4_URL}/projects/${CI_PROJECT_ID}/terraform/state/web01\n' > .gitlab-ci.yml
# control: the s3 backend's key naming the host is kept
printf 'terraform {\n  backend "s3" {\n    bucket = "tfstate"\n    key    = "hosts/web01/terraform.tfstate"\n  }\n}\n' > tf-s3/backend.tf
commit
run_all
