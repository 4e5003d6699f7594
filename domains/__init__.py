"""Domain supervisors and their specialists; `domains.registry.DOMAINS` lists them."""
