"""Property: no situation, however broken, raises a traceback (issue 2, item 9).

Random and mutated situations (the example files with keys dropped, values and types
changed, lists duplicated, random YAML spliced in) either load or fail with an
InputError; whatever loads can be asked and checked; the CLI exits 0, 1 or 2 only."""

from __future__ import annotations

import copy
import io
import os
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aslrules.cli import main
from aslrules.core import ask, check
from aslrules.errors import InputError
from aslrules.loader import load_text
from aslrules.model import Situation

ROOT = Path(__file__).resolve().parent.parent
SEED_FILES = sorted([*(ROOT / "examples").rglob("*.yaml"), *(ROOT / "tests" / "cases").rglob("*.yaml"),
                     *(ROOT / "tests" / "data").glob("*.yaml")])
SEEDS = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in SEED_FILES]
SEED_TEXTS = [p.read_text(encoding="utf-8") for p in SEED_FILES]

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Values that are close to valid: the loader must tell each apart.
NEAR = [
    "X2", "W2", "1X2", "X2@1", "X2@2", "X2@-1", "W2@9", "GG10", "A0", "B0", "FF10", "HH1", "ZZ9", "3R6", "1H5",
    "K2", "G7", "T9", "2A1", "X2@", "@1", "x2", "g-467", "g-lmg", "g-81", "r-628", "nobody",
    "first_fire", "subsequent_first_fire", "final_protective_fire", "final_fire", "snap_shot", "residual_fp",
    "intensive_fire", "MPh", "DFPh", "mph", "RPh", "squad", "leader", "half_squad", "crew", "vehicle", "gun",
    "4-6-7", "8-1", "6+1", "7-0", "4-six-7", "0-0-0", "LMG", "MMG", "FT", "pinned", "broken", "melee",
    "berserk", "allowed", "mandatory", "forbidden", "open ground", "woods", "stone building", "russian",
    "german", "A8.1", "", " ", "-1", "1e309", ".nan", "yes", "no", "~", 'x"). #false. y("', "%", "#show.",
]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 15), st.integers(), st.sampled_from([0.5, 10.5, -1.5, 1e300]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12), st.sampled_from(NEAR),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.sampled_from(NEAR), st.text(max_size=8)), inner,
                                                 max_size=4)), max_leaves=10)


def paths(tree: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(tree, dict):
        for k, v in tree.items():
            out += paths(v, (*prefix, k))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out += paths(v, (*prefix, i))
    return out


def get(tree: Any, path: tuple) -> Any:
    for k in path:
        tree = tree[k]
    return tree


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """An example file with 1-4 mutations, dumped back to YAML text."""
    tree = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 4]))):
        path = draw(st.sampled_from(paths(tree)))
        if not path:
            continue
        parent, key = get(tree, path[:-1]), path[-1]
        op = draw(st.sampled_from(["drop", "replace", "replace", "rename", "duplicate", "add"]))
        if op == "drop":
            del parent[key]
        elif op == "replace":  # mostly near-valid values, so that many mutants still load
            parent[key] = draw(st.one_of(st.sampled_from(NEAR), st.integers(0, 12), st.booleans(), values))
        elif op == "rename" and isinstance(parent, dict):
            parent[draw(st.sampled_from(NEAR))] = parent.pop(key)
        elif op == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.one_of(st.sampled_from(NEAR), st.text(max_size=6)))] = draw(values)
        elif op == "add" and isinstance(parent, list):
            parent.insert(key, draw(values))
    return yaml.safe_dump(tree, allow_unicode=True, sort_keys=False)


@st.composite
def spliced(draw: st.DrawFn) -> str:
    """An example file's text with random text spliced in at a random place."""
    text = draw(st.sampled_from(SEED_TEXTS))
    at = draw(st.integers(0, len(text)))
    cut = draw(st.integers(0, 20))
    junk = draw(st.one_of(st.text(max_size=20), st.sampled_from(["\n  - ", ": ", "{", "]", "&a", "*a", "!!binary",
                                                                  "\t", "\x00", "\ufeff", "- {id: x}", "@1"])))
    return text[:at] + junk + text[at + cut:]


random_yaml = values.map(lambda v: yaml.safe_dump(v, allow_unicode=True))
any_text = st.one_of(mutated(), mutated(), mutated(), spliced(), random_yaml, st.text(max_size=200))


def load_or_input_error(text: str) -> Situation | None:
    try:
        return load_text(text, "fuzz.yaml")
    except InputError as e:
        msg = str(e)
        assert "\n" not in msg and msg.startswith("fuzz.yaml") and "expected" in msg, msg
        return None


def run_cli(*args: str) -> int:
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        return main(list(args))


@SETTINGS
@given(any_text)
def test_load_then_ask_never_raises(text: str) -> None:
    sit = load_or_input_error(text)
    if sit is None:
        return
    try:
        answers = ask(sit)
    except InputError:  # e.g. a range between boards that no `range:` gives
        return
    assert isinstance(answers, list)
    for a in answers:
        assert a.verdict in ("allowed", "mandatory", "forbidden"), a
    if sit.expect and not sit.data.sequence:  # a replay case's check adds its steps' items
        assert len(answers) == len(sit.expect)
        outcomes = check([sit, sit])  # batched grounding too
        assert len(outcomes) == 2 * len(sit.expect)
        assert [o.answer for o in outcomes[:len(sit.expect)]] == answers


@settings(SETTINGS, max_examples=60)
@given(st.one_of(mutated(), spliced()))
def test_cli_exit_status(text: str) -> None:
    fd, name = tempfile.mkstemp(suffix=".yaml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        assert run_cli("ask", name) in (0, 2)
        assert run_cli("ask", name, "--format", "json") in (0, 2)
        assert run_cli("check", name) in (0, 1, 2)
    finally:
        os.unlink(name)


def test_seeds_load() -> None:
    """The mutations start from files that load (else they would test little)."""
    for p in SEED_FILES:
        assert load_text(p.read_text(encoding="utf-8"), str(p)).units
