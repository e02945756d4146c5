"""KB hygiene: the whole KB grounds with clingo's warnings on and none fires, for the facts of
every case; `#show` lives in kb/show.lp only, `#defined` in kb/input.lp and kb/show.lp only;
every fact aslrules builds is a declared input; no valid case has an input error; a predicate is
derived in one kb file, unless it is one of the protocol's shared predicates (SHARED_HEADS).

The cases are grounded as `aslrules check` grounds a batch (aslrules/fast/batch.py: a case argument
on every situation-dependent predicate), the whole KB, unpruned, with a logger collecting every
message: a misspelt predicate is an atom that occurs in no rule head."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import clingo
from clingo import Function, Number, ast

from aslrules.core import build_facts, iter_case_files
from aslrules.fast.batch import CASE_PRED, batch_program, dynamic_predicates
from aslrules.fast.program import _sig, input_signatures
from aslrules.solve import kb_files
from aslrules.loader import load_file

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "kb"


def kb_statements() -> list[ast.AST]:
    stms: list[ast.AST] = []
    ast.parse_files([str(f) for f in kb_files(KB)], stms.append)
    return stms


@cache
def grounded() -> tuple[list[str], list[clingo.Symbol]]:
    """Every message clingo gives grounding the KB with every case's facts, and the shown atoms."""
    files = kb_files(KB)
    stms = kb_statements()
    inputs = input_signatures(files)
    dynamic = dynamic_predicates(stms, inputs)
    messages: list[str] = []
    ctl = clingo.Control(logger=lambda code, text: messages.append(text), message_limit=100_000)
    with ast.ProgramBuilder(ctl) as builder:
        for s in batch_program(stms, inputs):
            builder.add(s)
    facts: set[str] = set()
    for k, path in enumerate(iter_case_files([str(ROOT / "tests" / "cases"), str(ROOT / "examples")])):
        case = Number(k)
        facts.add(f"{Function(CASE_PRED, [case])}.")
        for pred, args in build_facts(load_file(path)).facts:
            sym = Function(pred, [case, *args]) if (pred, len(args)) in dynamic else Function(pred, list(args))
            facts.add(f"{sym}.")  # a symbol prints as clingo parses it: strings are quoted and escaped
    ctl.add("base", [], "\n".join(sorted(facts)))
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        shown = list(next(iter(handle)).symbols(shown=True))
    return messages, shown


def test_no_grounding_warnings() -> None:
    """No undefined atom, no atom missing from every rule head, no global variable in an
    aggregate tuple: clingo grounds the KB with every case's facts and says nothing."""
    messages, _ = grounded()
    assert not messages, "\n".join(m.strip() for m in messages)


def test_every_fact_is_a_declared_input() -> None:
    """What aslrules/facts.py emits is declared in kb/input.lp (a typo in a fact name is caught)."""
    declared = input_signatures(kb_files(KB))
    emitted = set()
    for path in iter_case_files([str(ROOT / "tests" / "cases"), str(ROOT / "examples")]):
        emitted |= {(pred, len(args)) for pred, args in build_facts(load_file(path)).facts}
    assert emitted - declared == set()


def test_only_a_case_of_an_input_error_has_one() -> None:
    """A case that states `input_error:` has one (of the field it names: test_cases checks that);
    no other case has any."""
    _, shown = grounded()
    stated = {k for k, path in enumerate(iter_case_files([str(ROOT / "tests" / "cases"), str(ROOT / "examples")]))
              if load_file(path).data.input_error is not None}
    assert stated
    found = {s.arguments[0].number for s in shown if s.name == "input_error"}
    assert found <= stated, [str(s) for s in shown if s.name == "input_error" and s.arguments[0].number not in stated]


def directives(name: str) -> dict[str, int]:
    """kb file -> how many statements of the directive it holds (comments left out)."""
    counts: dict[str, int] = {}
    for f in kb_files(KB):
        text = re.sub(r"%\*.*?\*%", "", f.read_text(encoding="utf-8"), flags=re.S)
        n = sum(1 for line in text.splitlines() if line.split("%", 1)[0].lstrip().startswith(name))
        if n:
            counts[f.name] = n
    return counts


def test_show_only_in_show_lp() -> None:
    assert set(directives("#show")) == {"show.lp"}


def test_defined_only_in_input_and_show() -> None:
    assert set(directives("#defined")) <= {"input.lp", "show.lp"}


# Predicates derived (in a rule head) in more than one kb file on purpose: a protocol one file
# declares and the others extend.  Any other name/arity with heads in two files is a clash (two
# files' helpers of one name: clingo merges them silently, as listing.lp's fg_reach/2 once merged
# with fire_groups.lp's).  Each entry: why several files derive it.
SHARED_HEADS: dict[tuple[str, int], str] = {
    # the answer protocol (show.lp): each rule file adds what it decides
    ("reason", 5): "a verdict's reasons: every rule that allows, forbids or obliges adds its own",
    ("beyond_long_range", 5): "A7.22's condition: the question's range (attack.lp), or the listing's for an attack "
                              "out of reach (listing.lp), one reason rule",
    ("no_los", 4): "A8.1's LOS condition: the question's (attack.lp), or the listing's for an attack out of reach",
    ("held_in_location", 4): "A7.212's condition: the question's (tpbf.lp), or the listing's for an attack out of "
                             "reach",
    ("figure", 3): "a question's figures: each file states the figures it computes",
    ("figure", 4): "a figure per item (firer, target): show.lp's FP by firer, transitions.lp's casualties",
    ("figure_reason", 6): "why a figure has its value: each rule that decides it adds its reason",
    ("must", 4): "what makes an attack mandatory (attack.lp): Residual FP, a Fire Lane, TPBF",
    ("input_error", 5): "input nonsense: input_checks.lp's, a replay step's (transitions.lp), a listing option's",
    # demand-driven geometry: a file asks for the pairs or probes it needs
    ("need_pair", 2): "geometry.lp's demand: the Location pairs whose range/LOS some rule needs",
    ("check_pair", 2): "input_checks.lp's demand: hex pairs whose adjacency a check (or a move step) needs",
    ("ca_probe", 2): "ca_geometry.lp's demand: the hexes whose place in a CA some rule needs",
    ("bp_probe", 2): "ca_geometry.lp's demand: the hexes whose side of a Bypassing vehicle some rule needs",
    # questions the KB itself lists (input.lp's question vocabulary)
    ("question", 2): "listed questions: per firer (options.lp), per Fire Group (listing.lp), Residual FP (residual.lp)",
    ("q_option", 3): "the option of a listed question (options.lp per firer, listing.lp per Fire Group)",
    ("q_target", 2): "the targets of a listed question (options.lp, listing.lp, residual.lp)",
    # one notion, each case in the file of its rule
    ("after", 3): "the fire counter a firer ends with (fire_counters.lp): each option's file adds its own",
    ("after_final", 2): "firers marked Final Fire (fire_counters.lp): Final Fire, FPF, SFF, Intensive Fire, Cowering",
    ("area_fire", 5): "what makes an attack Area Fire (A7.23), each in the file of its rule",
    ("halving", 3): "an FP halving of a firer (attack.lp) and the A7.353 one of support_weapons.lp",
    ("fp", 2): "an attack's FP: its firers' (attack.lp), a Residual FP counter's, a Fire Lane's",
    ("drm", 2): "an attack's total DRM (attack.lp) and a Case A question's To Hit DRM (ca_case_a.lp)",
    ("drm_part", 5): "each DRM of an attack, in the file of its rule",
    ("dff", 1): "a DFF attack (first_fire.lp), and Intensive Fire in the MPh (final_fire.lp)",
    ("ffmo_cancelled", 2): "what cancels FFMO (A8.13): SMOKE (attack.lp), TEM and the LOF's Hindrance (first_fire.lp)",
    ("sustained", 2): "Sustained Fire (fire_effects.lp), and Final Fire of a First-Fired MG (final_fire.lp)",
    ("sustained_option", 1): "the options that are Sustained Fire: FPF's and SFF's files name theirs",
    ("cower_exempt", 1): "no Cowering (A7.9): a lone leader's fire, an attack none of whose units is subject to it",
    ("q_turns", 3): "a question's CA turns (ca_geometry.lp): a Case A question's, a CA change's",
}


def head_signatures(head: ast.AST) -> list[tuple[str, int]]:
    """The name/arity of each atom a rule head derives (pools expanded; a choice's or a
    disjunction's elements, not their conditions)."""
    if head.ast_type == ast.ASTType.Literal:
        atoms = [head.atom]
    elif head.ast_type in (ast.ASTType.Disjunction, ast.ASTType.Aggregate):
        atoms = [e.literal.atom for e in head.elements]
    elif head.ast_type == ast.ASTType.HeadAggregate:
        atoms = [e.condition.literal.atom for e in head.elements]
    else:
        raise AssertionError(f"a rule head this test does not read: {head}")
    out = []
    for atom in atoms:
        if atom.ast_type == ast.ASTType.SymbolicAtom:
            terms = atom.symbol.arguments if atom.symbol.ast_type == ast.ASTType.Pool else [atom.symbol]
            out += [sig for sig in map(_sig, terms) if sig is not None]
    return out


def heads_by_file() -> dict[tuple[str, int], set[str]]:
    """name/arity -> the kb files with a rule (or fact) deriving it."""
    found: dict[tuple[str, int], set[str]] = {}
    for s in kb_statements():
        if s.ast_type == ast.ASTType.Rule:
            for sig in head_signatures(s.head):
                found.setdefault(sig, set()).add(Path(s.location.begin.filename).name)
    return found


def test_a_predicate_is_derived_in_one_file() -> None:
    """A name/arity with heads in two kb files is a clash unless SHARED_HEADS says why: clingo
    only gives infos when two files' helpers share a name, and their rules then mix."""
    clashes = {f"{n}/{a}": sorted(files) for (n, a), files in heads_by_file().items()
               if len(files) > 1 and (n, a) not in SHARED_HEADS}
    assert clashes == {}


def test_shared_heads_are_shared() -> None:
    """Each SHARED_HEADS entry is derived in more than one file: the list holds no stale name."""
    heads = heads_by_file()
    assert [f"{n}/{a}" for (n, a) in SHARED_HEADS if len(heads.get((n, a), ())) < 2] == []


# --------------------------------------------------------------------------- every reason fires

#: Where a shown atom carries a reason's template: reason/5, figure_reason/6, figure_part/6.
TEMPLATE_AT = {("reason", 5): 3, ("figure_reason", 6): 4, ("figure_part", 6): 3}

#: Reason templates no case shows, each with why (a reason the KB gives where it does not model
#: what follows is one).  Empty: every template of the KB fires in some case.
UNFIRED: dict[str, str] = {}


def reason_templates() -> dict[str, str]:
    """Every reason template of the KB (a string that reaches a template position of the answer
    protocol, followed through the rules that pass it on) -> where it is (file:line)."""
    rules = [s for s in kb_statements() if s.ast_type == ast.ASTType.Rule]
    positions_all = set(TEMPLATE_AT.items())  # (signature, argument) that carry a template
    found: dict[str, str] = {}

    def head_terms(rule: ast.AST) -> list[ast.AST]:
        h = rule.head
        if h.ast_type == ast.ASTType.Literal and h.atom.ast_type == ast.ASTType.SymbolicAtom:
            return [h.atom.symbol]
        return []

    changed = True
    while changed:
        changed = False
        for rule in rules:
            for t in head_terms(rule):
                if t.ast_type != ast.ASTType.Function:
                    continue
                sig = (t.name, len(t.arguments))
                for psig, k in list(positions_all):
                    if psig != sig:
                        continue
                    arg = t.arguments[k]
                    if arg.ast_type == ast.ASTType.SymbolicTerm and arg.symbol.type == clingo.SymbolType.String:
                        where = f"{Path(rule.location.begin.filename).name}:{rule.location.begin.line}"
                        found.setdefault(arg.symbol.string, where)
                    elif arg.ast_type == ast.ASTType.Variable:
                        for lit in rule.body:
                            if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign \
                                    or lit.atom.ast_type != ast.ASTType.SymbolicAtom:
                                continue
                            b = lit.atom.symbol
                            if b.ast_type != ast.ASTType.Function:
                                continue
                            for j, x in enumerate(b.arguments):
                                key = ((b.name, len(b.arguments)), j)
                                if x.ast_type == ast.ASTType.Variable and x.name == arg.name \
                                        and key not in positions_all:
                                    positions_all.add(key)
                                    changed = True
    return found


def shown_templates() -> set[str]:
    """The templates of every reason the evidence's answers give (tests/corpus.py: every case file,
    replays and listings included, and every ruling's cases)."""
    from corpus import answered

    return {a.arguments[k] for a in answered()[1] if (k := TEMPLATE_AT.get((a.name, len(a.arguments)))) is not None}


def test_every_reason_template_fires() -> None:
    """Each reason the KB can give (forbid, must, note, a figure's reason, a DRM or column part)
    is in the answer of some case: a reason no case shows is a rule no case checks."""
    templates = reason_templates()
    assert len(templates) > 300
    missing = sorted(f"{where}: {t}" for t, where in templates.items() if t not in shown_templates()
                     and t not in UNFIRED)
    assert not missing, f"{len(missing)} reason templates fire in no case:\n" + "\n".join(missing)
    assert not set(UNFIRED) - set(templates), "UNFIRED names a template the KB no longer has"
