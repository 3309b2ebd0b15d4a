"""GitHub at the edge: settings, the REST client and what the gate posts (`publish`: check run,
comment, labels). The only package of gate that imports PyGithub (in client.py)."""
