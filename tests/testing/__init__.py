"""Fixtures that are not tests: real git repos built from a dict of files, a CLI runner."""
