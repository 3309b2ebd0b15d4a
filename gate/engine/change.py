"""The change to judge: its refs resolved, its config read from the base, its diff parsed."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gate.checks import registry, upgrade_policy, user
from gate.engine import config as gate_config
from gate.engine.context import DiffContext
from gate.execution import workspace
from gate.outcomes import outcome_cache
from gate.outcomes.base_run import BaseOutcomes
from gate.shards import durations, spec
from gate.shards.spec import Shard
from gate.vcs import diff, git


@dataclasses.dataclass(frozen=True)
class Options:
    base: str
    head: str = "HEAD"
    repo: str = "."
    install: str | None = None
    test: str | None = None
    runs: int | None = None
    timeout: float | None = None
    strict: bool | None = None
    parallel: bool | None = None
    cache: bool | None = None  # False: neither read nor write the base outcomes' cache
    config: str | None = None  # a TOML file with the keys of .gate.toml, read from the base
    staged: bool = False  # judge the index against HEAD instead of --head (`gate scan --staged`)
    logs: str | None = None  # a directory for each command's full output (`gate run --logs`)
    isolation: str | None = None  # auto, required or off (config: `isolation`)
    protect: tuple[str, ...] = ()  # more paths the judged code may not write (the report's)
    shard: str | None = None  # "I/N": this run's share of the tests (`gate run --shard`)
    durations: str | None = None  # a JSON file of test seconds that balances the shards
    upgrades: tuple[str, ...] = ()  # NAME==VERSION: packages the change must upgrade
    pinned: str | None = None  # off, report or review (config: `pinned`)
    own_allows: bool = False  # the committer's own allow comments count (`gate hook pre-commit`)


@dataclasses.dataclass(frozen=True)
class Change:
    repo: str
    base: str  # the base ref's SHA
    head: str
    config: gate_config.Config
    diff: DiffContext
    shard: Shard | None = None
    seconds: Mapping[str, float] = dataclasses.field(default_factory=dict)  # by test file


def _seconds(options: Options, cfg: gate_config.Config, repo: str, base: str,
             ) -> dict[str, float]:
    """What balances the shards: `--durations`, else the seconds of the base's unsharded run
    in the cache of base outcomes, else nothing (then the number of tests does)."""
    if options.durations:
        return durations.load(options.durations)
    if not cfg.cache:
        return {}
    entry = outcome_cache.load(outcome_cache.key(repo, base, cfg.install, cfg.test,
                                                 network=cfg.network))
    found = BaseOutcomes.from_json(entry) if entry is not None else None
    return durations.from_cases(found.counts.cases) if found and found.counts else {}


def prepare(options: Options) -> Change:
    """Resolve the refs, read the config from the base, parse the diff once."""
    repo = workspace.resolve_repo(options.repo)
    base = git.resolve_commit(repo, options.base)
    head = git.resolve_commit(repo, "HEAD" if options.staged else options.head)
    fork = git.merge_base(repo, base, head)
    cfg = gate_config.load(repo, base, options.config)
    for target in options.upgrades:
        upgrade_policy.parse_target(target)  # a malformed one is exit 2 before anything runs
    overrides: dict[str, Any] = {
        "install": options.install, "test": options.test, "runs": options.runs,
        "timeout": options.timeout, "strict": options.strict, "parallel": options.parallel,
        "cache": options.cache,
        "isolation": options.isolation, "pinned": options.pinned,
    }
    cfg = dataclasses.replace(cfg, **{k: v for k, v in overrides.items() if v is not None})
    user.validate(cfg.checks, registry.ORDER, cfg.source)
    if options.staged:  # the index is the head; the report names it "index"
        files = diff.staged_files(repo, fork)
        return Change(repo, base, "index", cfg,
                      DiffContext(repo, fork, git.INDEX, cfg, files, options.upgrades,
                                  options.own_allows))
    files = diff.changed_files(repo, fork, head)
    # Each matrix job has its own shard: a flag (and Action input), not a key of the config
    # that every job reads alike.
    shard = spec.parse(options.shard) if options.shard else None
    seconds = _seconds(options, cfg, repo, base) if shard else {}
    return Change(repo, base, head, cfg, DiffContext(repo, fork, head, cfg, files,
                                                     options.upgrades, options.own_allows),
                  shard, seconds)
