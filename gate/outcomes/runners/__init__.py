"""One module per test runner, each with `NAME` and `parse(output, report)`: pytest, unittest,
node:test, Jest, Vitest, Mocha, cargo test, nextest and go test."""
