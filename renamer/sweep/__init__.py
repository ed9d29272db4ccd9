"""The sweep: scan the repository, plan the rewrite, show it, apply it, prove it."""
