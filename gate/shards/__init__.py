"""Sharding: one gate across N machines (a CI matrix). `gate run --shard I/N` runs this shard's
share of the tests and writes a partial report; `gate merge` checks the shards agree and cover
the tests exactly once, and judges their union as one unsharded run would."""
