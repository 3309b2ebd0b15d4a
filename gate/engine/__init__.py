"""The run itself: `runner` tells its story top-down (refs and config, the diff checks beside
the install, the suite runs, base-tests, the verdict); `runtime` runs the commands, `change` reads
the two sides, `context` is what every diff check is given, `config` the gate's own settings,
`verdict` the answer and exit code, `progress`/`background`/`redact` what is said while it runs."""
