"""The fast paths of output and program preparation say the same as the plain ones."""

from __future__ import annotations

import io
import json

from clingo import ast

from aslrules.fast.program import name_anonymous
from aslrules.jsontext import json_text, write_json


def test_json_text_is_the_standard_indented_json() -> None:
    """`aslrules ask --format json` writes what json.dumps(obj, indent=2) wrote: ASCII only (non-ASCII
    and control characters escaped, astral characters as surrogate pairs), two-space indents."""
    for obj in ({"a": [1, 2, {"b": [], "c": {}}], "\u00e9": "x\u2028y\U0001F600\x1b\"\\", "f": 10.5, "t": True,
                 "n": None, "i": -3}, [], {}, "plain", {"answers": [{"figures": {"fp": 14, "drm": -3}}]}):
        assert json_text(obj) == json.dumps(obj, indent=2)


def test_json_written_item_by_item_is_the_same_text() -> None:
    """A listing's answers are written a chunk at a time (write_json): the same text as json.dumps of
    the whole, with no item, one, or several (nested, non-ASCII, with newlines in strings), in
    chunks of one, of two (the last one short) and of more than all."""
    items = [{"question": "q(\"a\")", "reasons": [{"text": "\u00e9\nx"}], "figures": {}}, [], {"n": [1, [2, {}]]}]
    for k in range(len(items) + 1):
        whole = {"file": "f.yaml", "title": "\u00e9", "answers": items[:k], "listing": {"groups": []}}
        for chunk in (1, 2, 256):
            out = io.StringIO()
            write_json(out, {**whole, "answers": None}, "answers", iter(items[:k]), chunk=chunk)
            assert out.getvalue() == json.dumps(whole, indent=2) + "\n"


def _rule(text: str) -> ast.AST:
    stms: list[ast.AST] = []
    ast.parse_string(text, stms.append)
    return stms[1]


def test_anonymous_variables_named_outside_aggregate_rules_only() -> None:
    """A positive body atom's `_` is named (a better join order), except in a rule with a body
    aggregate, where naming it would instantiate the aggregate once per value of the `_`."""
    plain = name_anonymous(_rule("p(X) :- q(X,_), r(X)."))
    assert "_" not in str(plain).replace("AslAnon", "")
    kept = name_anonymous(_rule("m(Q,M) :- d(Q,_,_), M = #min{ R : d(Q,_,R) }."))
    assert str(kept) == str(_rule("m(Q,M) :- d(Q,_,_), M = #min{ R : d(Q,_,R) }."))
