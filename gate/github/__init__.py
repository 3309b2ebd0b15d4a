"""GitHub at the edge: settings, the REST client and what the gate posts. The only package of
gate that imports PyGithub (in client.py)."""
