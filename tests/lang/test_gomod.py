"""What a go.mod's `replace` directives point at inside the repository."""
from __future__ import annotations

from gate.lang import gomod


def test_replacements_inside_the_repository() -> None:
    mods = {"go.mod": "module a\n\nreplace x => ./third_party/x\nreplace (\n\ty v1 => ../y\n"
                      "\tz => example.com/z v1.2.0\n)\n",
            "sub/go.mod": "module a/sub\n\nreplace w => ../lib/w // patched\n",
            "gone/go.mod": None}
    assert gomod.replaced(mods) == {"third_party/x", "lib/w"}
