"""DNS: the new site's records on every resolver, applied safely and verified."""
