"""Source read through tree-sitter grammars: JavaScript, TypeScript, Go, Rust, Java and Ruby."""
