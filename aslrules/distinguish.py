"""`aslrules distinguish NAME=A NAME=B`: a small situation whose answer differs between two
values of a named reading, written as a ready case file.

The search knows no ASL rule and no reading in particular; it is driven by the format's schema
and the repo's situations:

1. seeds: every situation of the repo's cases and examples (those whose `readings:` name the
   reading first), each question of it asked under A and under B;
2. if no seed's answers differ: variations of the seeds, one field at a time, over the values
   the schema allows there (a closed vocabulary's other words, a flag's other value, a status
   word added);
3. the differing situation found is shrunk, greedily: a unit, a weapon, any other mapping key or
   list item is taken out (with every reference to a unit or weapon taken out), as long as the
   situation still loads, has no input error under either value, and still answers differently;
   units first, so the result has the fewest units, then the fewest facts, that this search
   reached.

Answers "differ" when the verdict or an answer field a case can state (schema.ANSWERS) differs:
the written case states the answer under A (`readings:` set to A), and both answers are in its
comments.  The case is checked under A before it is written.
"""

from __future__ import annotations

import copy
import itertools
import time
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

from . import schema as S
from .answers import Answer
from .consistency import answer_all
from .core import build_facts, engine
from .errors import EngineError, InputError
from .fast import Solver
from .loader import case_files, load_data as _load_data, load_file, load_text, struct_fields
from .model import Situation
from .reference import alternatives, defaults as field_defaults

ROOT = Path(__file__).resolve().parent.parent
CHUNK = 24  # shrinking candidates answered per grounding (each twice: under A and under B)
_clock = time.process_time  # the budget is CPU time: the same search on a busy machine as on an idle one


def parse_pair(values: Sequence[str]) -> tuple[str, str, str]:
    """NAME=A NAME=B: one named reading, two of its values."""
    pairs = []
    for item in values:
        name, sep, value = item.partition("=")
        known = S.READINGS.get(name)
        if not sep or known is None:
            raise InputError("aslrules distinguish", None, "", f"NAME=VALUE with NAME a named reading: "
                             f"{', '.join(S.READINGS)}", item)
        if value not in known:
            raise InputError("aslrules distinguish", None, "", f"a value of {name}: {', '.join(known)}", item)
        pairs.append((name, value))
    (n1, a), (n2, b) = pairs
    if n1 != n2 or a == b:
        raise InputError("aslrules distinguish", None, "", "two different values of one named reading",
                         " ".join(values))
    return n1, a, b


# --------------------------------------------------------------------------- situations as data

_REF_KINDS = ("unit", "weapon", "leader", "any")


def _ref_fields() -> frozenset[str]:
    """The field names (in any mapping of the format) whose values are unit or weapon ids."""
    names = set()
    structs = [v for v in vars(S).values() if isinstance(v, type) and issubclass(v, msgspec.Struct)]
    for cls in structs:
        for encoded, (_, _, extra) in struct_fields(cls).items():
            if extra.get("kind") in _REF_KINDS:
                names.add(encoded)
    return frozenset(names)


REF_FIELDS = _ref_fields()


def to_data(obj: Any) -> Any:
    """A converted value of the format back as plain data (defaults left out)."""
    if isinstance(obj, msgspec.Struct):
        out = {}
        defaults = field_defaults(type(obj))
        for encoded, (attr, _, _) in struct_fields(type(obj)).items():
            v = getattr(obj, attr)
            if attr in defaults and defaults[attr] is not msgspec.NODEFAULT and v == defaults[attr]:
                continue
            out[encoded] = to_data(v)
        return out
    if isinstance(obj, list):
        return [to_data(x) for x in obj]
    if isinstance(obj, dict):
        return {k: to_data(v) for k, v in obj.items()}
    return obj


def _member_type(tp: Any, step: Any) -> Any:
    """The declared type of a field (str step), list item (int step) or mapping value (other step) of
    `tp`; Any for a type that is not the schema's."""
    try:
        return _member_type_cached(tp, step if isinstance(step, str) else 0 if isinstance(step, int) else None)
    except TypeError:  # an unhashable type: not from the schema
        return Any


@lru_cache(maxsize=4096)
def _member_type_cached(tp: Any, step: Any) -> Any:
    for option in _options(tp):
        if isinstance(option, type) and issubclass(option, msgspec.Struct) and isinstance(step, str) and step:
            found = struct_fields(option).get(step)
            if found:
                return found[1]
        origin = typing.get_origin(option)
        if origin is list and isinstance(step, int):
            return typing.get_args(option)[0]
        if origin is dict and not isinstance(step, int):
            return typing.get_args(option)[1]
    return Any


def _options(tp: Any) -> list[Any]:
    """The alternatives of a union, nested and annotated ones flattened (or the type itself)."""
    return [inner for inner, _, _ in alternatives(tp)]


def load_data(data: dict[str, Any], name: str = "<distinguish>") -> Situation:
    """A situation given as plain data, checked as the loader checks a file."""
    return _load_data(data, name)


def questions_only(data: dict[str, Any]) -> dict[str, Any]:
    """The situation with its expect: items asked (answer fields left out) and no readings."""
    out = {k: v for k, v in data.items() if k not in ("expect", "ask", "readings")}
    asked = []
    for item in list(data.get("expect", [])) + list(data.get("ask", [])):
        kind = next(k for k in S.QUESTIONS if k in item)
        asked.append({kind: item[kind]})
    out["ask"] = asked
    return out


def _without_ids(value: Any, ids: frozenset[str], key: str | None = None) -> Any:
    """`value` with every reference to `ids` taken out (schema REF_FIELDS, and mappings keyed by them)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ids:
                continue
            if k in REF_FIELDS and isinstance(v, str) and v in ids:
                continue
            out[k] = _without_ids(v, ids, k)
        return out
    if isinstance(value, list):
        if key in REF_FIELDS:
            return [x for x in value if not (isinstance(x, str) and x in ids)]
        return [_without_ids(x, ids) for x in value]
    return value


def _usable_question(item: dict[str, Any]) -> bool:
    kind = next((k for k in S.QUESTIONS if k in item), None)
    if kind != "attack":
        return True
    q = item[kind]
    if not q.get("targets"):
        return False
    option = q.get("option")
    return bool(q.get("firers")) or option == "residual_fp"


def drop_unit(data: dict[str, Any], i: int) -> dict[str, Any]:
    unit = data["units"][i]
    ids = frozenset([unit["id"], *(w["id"] for w in unit.get("weapons", []))])
    out = copy.deepcopy(data)
    del out["units"][i]
    out = _without_ids(out, ids)
    out["ask"] = [q for q in out.get("ask", []) if _usable_question(q)]
    return out


def drop_weapon(data: dict[str, Any], i: int, j: int) -> dict[str, Any]:
    ids = frozenset([data["units"][i]["weapons"][j]["id"]])
    out = copy.deepcopy(data)
    del out["units"][i]["weapons"][j]
    out = _without_ids(out, ids)
    out["ask"] = [q for q in out.get("ask", []) if _usable_question(q)]
    return out


def drop_path(data: dict[str, Any], path: tuple) -> dict[str, Any]:
    out = copy.deepcopy(data)
    at = out
    for step in path[:-1]:
        at = at[step]
    del at[path[-1]]
    return out


def _paths(value: Any, path: tuple = ()) -> Iterable[tuple]:
    """Every mapping key and list item below `value`, deepest last (parents before children)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path + (k,)
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield path + (i,)
            yield from _paths(v, path + (i,))


def shrink_candidates(data: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Smaller situations, in groups tried in order: without a unit; without a weapon; without a
    question; without any other key or item."""
    units = data.get("units", [])
    groups = [[drop_unit(data, i) for i in range(len(units))],
              [drop_weapon(data, i, j) for i, u in enumerate(units) for j in range(len(u.get("weapons", [])))]]
    asked = data.get("ask", [])
    groups.append([drop_path(data, ("ask", k)) for k in range(len(asked))] if len(asked) > 1 else [])
    rest = []
    for p in _paths(data):
        if p[0] in ("ask", "attacker", "phase") and len(p) <= 2 or p[0] == "units" and len(p) <= 2:
            continue
        if p[0] == "units" and len(p) == 4 and p[2] == "weapons":
            continue
        if p[0] == "ask" and len(p) == 3:  # the question key itself
            continue
        if p[-1] in ("id", "side", "type", "hex", "kind", "option", "targets") and p[0] != "lines_of_sight":
            continue  # required, or the question's core: leaving it out never loads
        rest.append(drop_path(data, p))
    groups.append(rest)
    return groups


def variations(data: dict[str, Any], words: frozenset[str] = frozenset(), *,
               which: int | None = None) -> list[dict[str, Any]]:
    """The situation with one field changed to another value its schema type allows (a closed
    vocabulary's other words, a flag's other value, a word added to a list of words, a field not
    given set); first those that bring in one of `words` (the constants, strings and predicates of
    the KB statements that mention the reading: a value, or the input predicate of the field
    changed), then those of the units its questions name.  `which`: 1, only those that bring in
    one of `words` (as a value first, then as the field's predicate); 2, only the others."""
    named = {x for item in data.get("ask", []) for q in item.values() if isinstance(q, dict)
             for key, v in q.items() if key in REF_FIELDS for x in (v if isinstance(v, list) else [v])
             if isinstance(x, str)}
    first = {i for i, u in enumerate(data.get("units", [])) if u.get("id") in named
             or any(w.get("id") in named for w in u.get("weapons", []))}
    def rank(v: tuple) -> int:  # 0: brings in one of words as a value; 1: as a predicate; 2: neither
        word, fact = v[1]
        return 0 if word in words else 1 if fact in words else 2

    varied = [v for v in _variations(data) if which is None or (rank(v) < 2) == (which < 2)]
    order = sorted(range(len(varied)), key=lambda k: (rank(varied[k]), varied[k][0] not in first, k))
    return [_set(data, varied[k][2], varied[k][3]) for k in order]


def _tags(value: Any, extra: dict[str, Any]) -> tuple[str | None, str | None]:
    """What a variation brings in: its word, and the input predicate of the field it sets."""
    word = value[0] if isinstance(value, list) and value else value
    return (word if isinstance(word, str) else None), extra.get("fact")


def _words_of(tp: Any) -> list[Any]:
    """The values a field of this type may take that a variation tries: a vocabulary's words,
    true/false; a list of words: each word as a one-word list."""
    out: list[Any] = []
    for option in _options(tp):
        origin = typing.get_origin(option)
        if origin is typing.Literal:
            out.extend(typing.get_args(option))
        elif option is bool:
            out.extend([True, False])
        elif origin is list:
            (item,) = typing.get_args(option)
            out.extend([w] for inner in _options(item) if typing.get_origin(inner) is typing.Literal
                       for w in typing.get_args(inner))
    return out


_NOT_VARIED = ("readings", "format", "expect", "title", "source")


def _variations(data: dict[str, Any]) -> list[tuple[int | None, tuple[str | None, str | None], tuple, Any]]:
    """(the unit it changes or None, what it brings in (`_tags`), the path and the value it sets there)."""
    out = []
    for p in [(), *_paths(data)]:
        if p and p[0] in _NOT_VARIED:
            continue
        tp: Any = S.Situation
        for step in p:
            tp = _member_type(tp, step)
        value = data
        for step in p:
            value = value[step]
        unit = p[1] if len(p) > 1 and p[0] == "units" else None
        for option in _options(tp):
            origin = typing.get_origin(option)
            if isinstance(option, type) and issubclass(option, msgspec.Struct) and isinstance(value, dict):
                # a mapping of the format: each field it does not give yet
                defaults = field_defaults(option)
                owner = {value.get("type"), value.get("kind")}
                for key, (attr, ftp, extra) in struct_fields(option).items():
                    if key in value or key in _NOT_VARIED or extra.get("only") and not owner & set(
                            _as_tuple(extra["only"])):
                        continue
                    for w in _words_of(ftp):
                        if w != defaults.get(attr) and w != "none":
                            out.append((unit, _tags(w, extra), p + (key,), w))
            elif origin is typing.Literal and isinstance(value, str):
                for word in typing.get_args(option):
                    if word != value:
                        out.append((unit, (word, None), p, word))
            elif option is bool and isinstance(value, bool):
                out.append((unit, (None, None), p, not value))
            elif origin is list and isinstance(value, list):
                (item,) = typing.get_args(option)
                for inner in _options(item):
                    if typing.get_origin(inner) is typing.Literal:
                        out.extend((unit, (w, None), p, value + [w]) for w in typing.get_args(inner)
                                   if w not in value)
    return out


def _as_tuple(x: Any) -> tuple:
    return x if isinstance(x, tuple) else (x,)


def reading_words(eng: Solver, name: str) -> frozenset[str]:
    """The constants, strings and predicate names of the KB statements that mention the reading
    (`reading(name, _)`)."""
    import clingo
    from clingo import ast

    from .consistency import _mentions
    from .solve import kb_files

    program = getattr(eng, "program", None)
    if program is None:
        program = []
        ast.parse_files([str(f) for f in kb_files()], program.append)
    words: set[str] = set()

    class Visit(ast.Transformer):
        def visit_SymbolicTerm(self, x: ast.AST) -> ast.AST:
            if x.symbol.type == clingo.SymbolType.Function and not x.symbol.arguments:
                words.add(x.symbol.name)
            elif x.symbol.type == clingo.SymbolType.String:
                words.add(x.symbol.string)
            return x

        def visit_Function(self, x: ast.AST) -> ast.AST:
            words.add(x.name)  # a predicate (or a function term's name)
            self.visit_children(x)
            return x

    for stm, m in zip(program, _mentions(program)):
        if name in m:
            Visit()(stm)
    return frozenset(words)


def _set(data: dict[str, Any], path: tuple, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    at = out
    for step in path[:-1]:
        at = at[step]
    at[path[-1]] = value
    return out


# --------------------------------------------------------------------------- answering both ways


def stated(kind: str, ans: Answer) -> dict[str, Any]:
    """The answer fields a case can state for this kind of question, as this answer gives them
    (schema.ABSENT where the answer does not mention one)."""
    out: dict[str, Any] = {"verdict": ans.verdict}
    for name in struct_fields(S.ANSWERS[kind]):
        if name in ("verdict", "because"):
            continue
        value = ans.figure(name)
        if value is None:
            value = S.ABSENT.get(name)
        if value is not None:
            out[name] = value
    return out


def _norm(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return frozenset(_norm(x) for x in v)
    if isinstance(v, dict):
        return frozenset((k, _norm(x)) for k, x in v.items())
    return v


def differing(kind: str, a: Answer, b: Answer) -> list[str]:
    """The fields on which two answers to one question differ, among those a case can state of
    the first answer."""
    sa, sb = stated(kind, a), stated(kind, b)
    out = []
    for name in sa:
        va, vb = sa.get(name), sb.get(name)
        if isinstance(va, dict) or isinstance(vb, dict):
            absent = S.ABSENT.get(name)
            va, vb = (x if isinstance(x, dict) else {} for x in (va, vb))
            keys = set(va) | set(vb)
            va = {k: va.get(k, absent) for k in keys}
            vb = {k: vb.get(k, absent) for k in keys}
        if _norm(va) != _norm(vb):
            out.append(name)
    return out


@dataclass
class Trial:
    """A candidate situation answered under both values."""

    data: dict[str, Any]
    situation: Situation | None = None
    answers: tuple[dict[Any, Answer], dict[Any, Answer]] | None = None
    differs: dict[int, list[str]] = field(default_factory=dict)  # question -> fields that differ
    size: tuple[int, int] = (0, 0)  # units, facts


def try_all(eng: Solver, name: str, a: str, b: str, candidates: Sequence[dict[str, Any]]) -> list[Trial | None]:
    """Answer each candidate under A and under B (None: it does not load, asks nothing, or has an
    input error under either value)."""
    trials: list[Trial | None] = []
    pairs = []
    base = {n: v[0] for n, v in S.READINGS.items()}
    for data in candidates:
        try:
            sit = load_data({**data, "readings": {**base, name: a}})
        except InputError:
            trials.append(None)
            continue
        if not sit.ask:
            trials.append(None)
            continue
        other = load_data({**data, "readings": {**base, name: b}})
        trials.append(Trial(data, sit))
        pairs += [sit, other]
    results = iter(answer_all(eng, pairs, asked=True))
    out: list[Trial | None] = []
    for t in trials:
        if t is None:
            out.append(None)
            continue
        (ra, ea), (rb, eb) = next(results), next(results)
        if ea is not None or eb is not None:
            out.append(None)
            continue
        t.answers = (ra, rb)
        for q, item in enumerate(t.situation.ask):
            if q in ra and q in rb:
                fields = differing(item.kind, ra[q], rb[q])
                if fields:
                    t.differs[q] = fields
        t.size = (len(t.situation.units), len(build_facts(t.situation, asked=True).facts))
        out.append(t)
    return out


# --------------------------------------------------------------------------- the search


@dataclass
class Found:
    name: str
    a: str
    b: str
    case_text: str | None = None
    trial: Trial | None = None
    seed: str = ""
    seeds: int = 0
    variations: int = 0
    candidates: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        searched = (f"searched {self.seeds} seed situations, {self.variations} variations and "
                    f"{self.candidates} smaller candidates in {self.seconds:.1f} s CPU")
        if self.trial is None:
            return f"{self.name}: no situation found where {self.a} and {self.b} differ; {searched}"
        units, facts = self.trial.size
        return (f"{self.name}={self.a} and {self.name}={self.b} differ with {units} unit(s), {facts} facts "
                f"(from {self.seed}); {searched}")


def default_seeds() -> list[str]:
    """The repo's situations: tests/cases and examples (in a source tree)."""
    folders = [ROOT / "tests" / "cases", ROOT / "examples"]
    return [str(f) for f in folders if f.is_dir()]


_LOADED: dict[tuple[str, float], Situation] = {}  # seed files read in this process, by path and mtime


def _seed_data(paths: Sequence[str], name: str, explicit: bool) -> list[tuple[str, dict[str, Any], bool]]:
    """(path, the situation as data, whether its readings: name the reading), those that do first."""
    import os

    out = []
    for p in case_files(list(paths)):
        try:
            key = (os.path.abspath(p), os.stat(p).st_mtime)
            sit = _LOADED.get(key)
            if sit is None:
                sit = _LOADED[key] = load_file(p)
        except (InputError, OSError):
            if explicit:
                raise
            continue
        data = questions_only(to_data(sit.data))
        if data["ask"]:
            out.append((p, data, name in (to_data(sit.data).get("readings") or {})))
    out.sort(key=lambda x: not x[2])
    return out


def focus(t: Trial) -> dict[str, Any]:
    """The trial's situation asking only its first differing question."""
    q = min(t.differs)
    return {**t.data, "ask": [t.data["ask"][q]]}


def strength(t: Trial) -> tuple[bool, bool]:
    """How telling a difference is: the verdicts differ; some value's verdict is not forbidden
    (a forbidden attack's figures tell little).  Shrinking keeps what the start had."""
    q = min(t.differs)
    verdicts = {t.answers[0][q].verdict, t.answers[1][q].verdict}
    return "verdict" in t.differs[q], verdicts != {"forbidden"}


def shrink(eng: Solver, name: str, a: str, b: str, best: Trial, deadline: float, found: Found) -> Trial:
    """Greedy shrinking (see the module's docstring) until no smaller candidate differs as
    tellingly (`strength`), or the deadline."""
    keep = strength(best)
    while _clock() < deadline:
        improved = False
        for group in shrink_candidates(best.data):
            for i in range(0, len(group), CHUNK):
                if _clock() >= deadline:
                    return best
                chunk = group[i:i + CHUNK]
                found.candidates += len(chunk)
                good = [t for t in try_all(eng, name, a, b, chunk) if t is not None and t.differs
                        and t.size <= best.size and strength(t) >= keep]
                good = [t for t in good if t.size < best.size or len(_flat(t.data)) < len(_flat(best.data))]
                if good:
                    best = min(good, key=lambda t: (t.size, len(_flat(t.data))))
                    best = try_all(eng, name, a, b, [focus(best)])[0] if len(best.data["ask"]) > 1 else best
                    improved = True
                    break
            if improved:
                break
        if not improved:
            return best
    return best


def _flat(data: Any) -> list[tuple]:
    return list(_paths(data))


def distinguish(name: str, a: str, b: str, *, seeds: Sequence[str] | None = None, budget: float = 50.0,
                eng: Solver | None = None) -> Found:
    """Search for a situation whose answers differ between `name`=a and `name`=b (see the module)."""
    eng = eng or engine()
    start = _clock()
    deadline = start + budget
    found = Found(name, a, b)
    explicit = bool(seeds)
    pool = _seed_data(list(seeds) if seeds else default_seeds(), name, explicit)
    hits: list[tuple[str, Trial]] = []
    lively: dict[str, bool] = {}  # seed -> some question of it is not forbidden (under A)
    using = [x for x in pool if x[2]]
    for group in (using, [x for x in pool if not x[2]]):  # the seeds that use the reading, then the others
        for i in range(0, len(group), 50):
            batch = group[i:i + 50]
            found.seeds += len(batch)
            for (path, _, _), t in zip(batch, try_all(eng, name, a, b, [d for _, d, _ in batch])):
                if t is not None:
                    lively[path] = any(x.verdict != "forbidden" for x in t.answers[0].values())
                if t is not None and t.differs:
                    hits.append((path, t))
            if hits and _clock() > start + budget / 4:
                break
        if any(strength(t)[1] for _, t in hits):
            break
    if not hits:  # variations of the seeds, one field at a time, until a telling one (or time is up)
        words = reading_words(eng, name)
        strong = lambda: any(strength(t)[1] for _, t in hits)
        enough = lambda: _clock() >= deadline or hits and (strong() or _clock() > start + budget / 3)
        seeds = sorted(pool, key=lambda pd: (not lively.get(pd[0]), len(_flat(pd[1]))))
        # those that bring in a word of the reading's rules, over every seed first; then the others
        queue = ((path, v) for which in (1, 2) for path, data, _ in seeds
                 for v in variations(data, words, which=which))
        while not enough():
            batch = list(itertools.islice(queue, 2 * CHUNK))
            if not batch:
                break
            found.variations += len(batch)
            hits += [(path, t) for (path, _), t in zip(batch, try_all(eng, name, a, b, [v for _, v in batch]))
                     if t is not None and t.differs]
    if not hits:
        found.seconds = _clock() - start
        return found
    hits.sort(key=lambda h: (tuple(not x for x in strength(h[1])), h[1].size, len(_flat(h[1].data))))
    best_path, best = None, None
    for path, t in hits[:3]:  # the smallest, shrunk; the next two too while the budget is young
        if best is not None and _clock() > start + budget * 0.2:
            break
        t = try_all(eng, name, a, b, [focus(t)])[0]
        t = shrink(eng, name, a, b, t, deadline, found)
        rank = lambda x: (tuple(not s for s in strength(x)), x.size, len(_flat(x.data)))
        if best is None or rank(t) < rank(best):
            best_path, best = path, t
    found.trial, found.seed = best, _relative(best_path)
    found.seconds = _clock() - start
    found.case_text = case_text(found)
    return found


def _relative(path: str | None) -> str:
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except (ValueError, TypeError):
        return str(path)


# --------------------------------------------------------------------------- the case file


def _plain(v: Any) -> Any:
    """A value as YAML writes it and the loader reads it back the same (exact decimals)."""
    if isinstance(v, bool):
        return v
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, (tuple, list, set, frozenset)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return v


def case_text(found: Found) -> str:
    """The case file: the situation under A with its question and the answer under A stated,
    both answers in comments; checked under A before it is returned."""
    import yaml

    from .core import check
    from .render import answer_lines

    t = found.trial
    if t is None or t.answers is None:
        raise ValueError("case_text needs a situation found (Found.trial with its answers)")
    q = min(t.differs)
    kind = t.situation.ask[q].kind
    ans_a, ans_b = t.answers[0][q], t.answers[1][q]
    fields = t.differs[q]
    item = dict(t.data["ask"][q])
    sa, sb = stated(kind, ans_a), stated(kind, ans_b)
    item["verdict"] = sa["verdict"]
    for f in fields:
        if f != "verdict":
            item[f] = sa[f]
            if isinstance(sb.get(f), dict):  # a keyed figure: B's keys too, as A reads them
                item[f] = {**{k: S.ABSENT.get(f) for k in sb[f]}, **(sa[f] if isinstance(sa[f], dict) else {})}
    data = {"title": f"{found.name}: {found.a} and {found.b} give different answers here",
            "source": f"aslrules distinguish {found.name}={found.a} {found.name}={found.b} "
                      f"(docs/readings.md; shrunk from {found.seed})",
            **{k: v for k, v in t.data.items() if k not in ("ask", "title", "source", "readings")},
            "expect": [item]}
    data = {k: data[k] for k in ["title", "source", *[k for k in data if k not in ("title", "source")]]}
    data["readings"] = {found.name: found.a}
    order = list(struct_fields(S.Situation))
    data = {k: data[k] for k in sorted(data, key=lambda k: order.index(k) if k in order else len(order))}
    units, facts = t.size
    head = [f"# aslrules distinguish {found.name}={found.a} {found.name}={found.b}",
            f"# The smallest situation found ({units} unit(s), {facts} facts) whose answer differs between the",
            f"# two values of the named reading {found.name} (in: {', '.join(fields)}). The case states the answer",
            f"# under {found.name}={found.a} (its readings:); under {found.name}={found.b} it fails.",
            f"# Shrunk from {found.seed}; {found.summary().split('; ', 1)[1]}.",
            f"# Under {found.name}={found.a}:"]
    head += ["#   " + line for line in answer_lines(ans_a)]
    head.append(f"# Under {found.name}={found.b}:")
    head += ["#   " + line for line in answer_lines(ans_b)]
    body = yaml.safe_dump(_plain(data), sort_keys=False, default_flow_style=None, width=110, allow_unicode=True)
    text = "\n".join(head) + "\n" + body
    sit = load_text(text, "<distinguish>")
    failures = [o for o in check([sit], eng=None, workers=1) if not o.passed]
    if failures:  # pragma: no cover - the answer was read from the KB itself
        raise InputError("<distinguish>", None, "expect", "a case that holds under the reading it states",
                         [m.field for o in failures for m in o.mismatches])
    # the reading's value is really what decides it: under B the same case fails
    other = load_text(text.replace(f"{found.name}: {found.a}", f"{found.name}: {found.b}"), "<distinguish>")
    if all(o.passed for o in check([other], workers=1)):
        raise EngineError(f"distinguish: the case found holds under {found.name}={found.b} too: it "
                          "distinguishes nothing")
    return text
