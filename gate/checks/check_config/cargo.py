"""Cargo.toml's test switches, compared as parsed data: `autotests`, `test = false` on a
target, `[[test]]` targets and their `harness`. Turning any of them off runs fewer tests. And
what swaps the code the tests build: `[patch.<source>]` and `[replace]` entries (a dependency
built from another copy, a patched one in the repository say) and `[package] build` (the
build script Cargo runs before every test build)."""
from __future__ import annotations

from gate.checks.check_config import config_diff
from gate.checks.check_config.config_diff import Weakening, show

Table = dict[str, object]
SWITCHES = ("autotests", "autobenches", "autoexamples", "autobins")
TARGET_KEYS = ("test", "doctest", "harness", "path", "required-features")
TARGETS = ("lib", "bin", "test")  # benches and examples: `harness = false` is criterion


def _targets(manifest: Table) -> dict[str, Table]:
    """Each target's test keys by `kind.name`: [lib], [[bin]], [[test]]..."""
    out: dict[str, Table] = {}
    for kind in TARGETS:
        node = manifest.get(kind)
        items = node if isinstance(node, list) else [node] if isinstance(node, dict) else []
        for i, item in enumerate(items):
            if isinstance(item, dict):
                name = str(item.get("name", i))
                out[f"{kind}.{name}"] = {k: item[k] for k in TARGET_KEYS if k in item}
    return out


def _swaps(manifest: Table) -> dict[str, object]:
    """Each `[patch.<source>] <crate>` and `[replace] <crate>` entry, and `[package] build`,
    by where it is written (`patch.crates-io.rand`)."""
    out: dict[str, object] = {}
    for source, entries in config_diff.dig(manifest, "patch").items():
        if isinstance(entries, dict):
            out.update({f"patch.{source}.{crate}": v for crate, v in entries.items()})
    out.update({f"replace.{k}": v for k, v in config_diff.dig(manifest, "replace").items()})
    build = config_diff.dig(manifest, "package").get("build")
    if build is not None:
        out["package.build"] = build
    return out


def swaps(base: Table, head: Table, new: str) -> list[Weakening]:
    """The entries that make `cargo test` build other code than the base did, added or
    changed (one removed builds what the lockfile names again: no finding)."""
    before, after = _swaps(base), _swaps(head)
    out = []
    for key in sorted(after):
        if key in before and config_diff.changes({"v": before[key]}, {"v": after[key]}) == []:
            continue
        table, _, name = key.rpartition(".")
        what = "this build script" if key == "package.build" else "this dependency from it"
        out.append((config_diff.toml_line(new, table, name),
                    f"[{table}] {name}: {show(before.get(key, config_diff.ABSENT))} -> "
                    f"{show(after[key])}; `cargo test` builds {what} before the tests: check "
                    "what it swaps in"))
    return out


def compare(base: Table, head: Table, new: str) -> list[Weakening]:
    out = swaps(base, head, new)
    before, after = config_diff.dig(base, "package"), config_diff.dig(head, "package")
    for key in SWITCHES:
        if before.get(key, True) != after.get(key, True):
            out.append((config_diff.toml_line(new, "package", key),
                        f"[package] {key}: {show(before.get(key, config_diff.ABSENT))} -> "
                        f"{show(after.get(key, config_diff.ABSENT))}; targets Cargo found by "
                        "itself are no longer built or run by `cargo test`"))
    old_targets, new_targets = _targets(base), _targets(head)
    for target in sorted(set(old_targets) | set(new_targets)):
        kind = target.split(".")[0]
        if target not in new_targets:
            if kind == "test":
                out.append((1, f"[[test]] {target[5:]} removed: `cargo test` no longer runs it"))
            continue
        for ch in config_diff.changes(old_targets.get(target, {}), new_targets[target]):
            table = kind if kind == "lib" else f"{kind}"
            out.append((config_diff.toml_line(new, table, ch.key),
                        f"[{kind}] {target.split('.', 1)[1]} {ch.key}: {show(ch.old)} -> "
                        f"{show(ch.new)}; it decides whether `cargo test` runs this target"))
    return out
