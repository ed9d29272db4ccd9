"""One move across many repositories (renamer campaign): campaign.yaml, the clones, the phases."""
