"""renamer probe: do the endpoints the repo now names resolve and answer?"""
