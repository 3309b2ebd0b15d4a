"""Adoption: `gate init` and what it writes (`propose`, `hook_config`, `workflow_file`), with
round-trip editors for TOML and YAML (`toml_edit`, `yaml_edit`) and the pinned release
(`release`), the proposal tried once on HEAD (`trial`, `gate init --check`); `gate demo`, the
first thing a new user runs (`demo`, `demo_repo`)."""
