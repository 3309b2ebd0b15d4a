from __future__ import annotations

import json

import pytest

from gate.checks.check_config import jsonc


def test_comments_and_trailing_commas_outside_strings_are_removed() -> None:
    text = """{
  // a line comment, with "quotes" and a trailing comma,
  "url": "http://example.com/*not a comment*/", /* a block
  comment */ "list": [1, 2, // after the last item
  ],
  "nested": {"s": "a \\" // , }",},
}"""
    assert jsonc.loads(text) == {"url": "http://example.com/*not a comment*/", "list": [1, 2],
                                 "nested": {"s": 'a " // , }'}}


def test_lines_are_kept() -> None:
    text = '{\n  /* one\n  two */\n  "a": 1,\n}\n'
    stripped = jsonc.strip(text)
    assert stripped.count("\n") == text.count("\n")
    assert stripped.splitlines()[3] == '  "a": 1 '


@pytest.mark.parametrize("text", ["{", '{"a": 1 "b": 2}', "[1,,]"])
def test_malformed_json_is_a_value_error(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        jsonc.loads(text)
