"""What the gate knows of languages and test frameworks: source split into code and comments
(`source`, `lines`, tree-sitter `grammar` and `tree`), which files are tests (`testfiles`), the
tests they define (`testdefs`, `jvm_tests`, `rspec`; Rust's in-file test modules in
`rust_test_modules`), skip and focus markers (`markers`,
`py_aliases`), type and lint escapes (`escape_patterns`), generated files (`generated`) and
pytest's configuration (`pytest_config`). Pure functions of text: nothing here runs a command."""
