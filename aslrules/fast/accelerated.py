"""The accelerated solver: the answers of aslrules/solve.py, faster.

* the KB is parsed once per process, its anonymous variables named (program.py), and fed to
  each Control through the ProgramBuilder;
* relevance pruning: only the rules that may fire for the facts, and only the facts those
  rules may read, are grounded (relevance.py);
* `solve_many` grounds many situations in one Control: the KB rewritten with a case argument
  (batch.py), each situation's facts with its case number, the case-independent ones once;
* the parsed KB, its batch rewrite and the relevance analysis come from the on-disk cache
  (cache.py) when it holds them;
* facts go in and shown atoms come out through clingo's C functions where they are
  available (capi.py);
* the shown atoms are read after the Control is freed (clingo keeps symbols for the life of the
  process), and after a large answer set (a listing) the memory clingo freed is given back to
  the system first (capi.give_back_memory).
"""

from __future__ import annotations

import atexit
import os
import weakref
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import clingo
from clingo import Function, Number, Symbol, ast

from ..errors import EngineError
from ..solve import kb_files
from ..symbols import Fact, Facts, Term
from . import capi
from .batch import CASE_PRED, batch_program, case_independent
from .cache import Cache
from .program import Statements, input_signatures, parse_files, parse_text, program_text
from .relevance import Domain, Relevance, never_holds, simplified
from .views import Views

_LIVE: weakref.WeakSet = weakref.WeakSet()


@atexit.register
def _release() -> None:
    """Free the solvers' clingo ASTs while clingo's modules are still there: freed later, at
    interpreter shutdown, each would print an ignored exception."""
    for solver in list(_LIVE):
        solver.program, solver._batch, solver._programs = [], None, {}


class Accelerated:
    """Holds the parsed KB; answers situations as `solve.solve` does."""

    def __init__(self, directory: Path | None = None, *, prune: bool = True, cache: bool | None = None,
                 direct: bool = True, version: str = ""):
        from . import VERSION

        self.files = kb_files(directory)
        self.directory = directory
        if cache is None:
            cache = not os.environ.get("ASLRULES_NO_CACHE")
        self._cache = Cache(self.files, version or VERSION) if cache else None
        self.prune = prune
        self.direct = direct and capi.AVAILABLE  # clingo's C functions for facts and atoms
        self._relevance: Relevance | None = None
        self.program = self._load_program()
        self._shared: set[tuple[str, int]] | None = None
        only_base = all(t == "#program base." for t in self.program.texts if t.startswith("#program"))
        self._dropped = (ast.ASTType.Defined, ast.ASTType.Program) if only_base else (ast.ASTType.Defined,)
        self._batch: list[ast.AST] | None = None
        self._programs: dict[tuple[frozenset, bool], tuple[list[ast.AST], set | None, Views | None]] = {}
        _LIVE.add(self)

    def spec(self) -> tuple:
        """What a worker process started afresh needs to make the same solver (`fast.solver`)."""
        return ("accelerated", None if self.directory is None else str(self.directory), self.prune, self.direct)

    def prepare(self) -> None:
        """The batch rewrite, made (or read) once before worker processes fork."""
        _ = self.batch

    # ------------------------------------------------------------------ the KB and its analyses

    def _load_program(self) -> Statements:
        """The KB as `program.parse_files` makes it (each statement parsed when first read), and
        (with pruning) its relevance analysis: read from the cache, or made and cached."""
        entry = self._cache.read("program") if self._cache else None
        if entry is not None:
            try:
                texts, state = entry
                if isinstance(texts, list) and all(isinstance(t, str) for t in texts):
                    program = Statements(texts)
                    if self.prune:
                        self._relevance = Relevance.from_state(state, len(program))
                    if self._relevance is not None or not self.prune:
                        return program
            except (TypeError, ValueError):  # not the shape this version writes: made again
                pass
            self._relevance = None
        program = Statements.of(parse_files(self.files))
        if self._cache:
            self._relevance = Relevance(program)
            self._cache.write("program", (program.texts, self._relevance.state()))
        return program

    def relevance(self) -> Relevance:
        """The rule analysis for pruning (about 1 s to make, cached with the program)."""
        if self._relevance is None:
            self._relevance = Relevance(self.program)
        return self._relevance

    @property
    def batch(self) -> list[ast.AST]:
        """The KB rewritten for batches: read from the cache, or made (about 1.5 s) and cached."""
        if self._batch is None:
            text = self._cache.read("batch") if self._cache else None
            stms = parse_text(text) if isinstance(text, str) else None
            if stms is not None and len(stms) == len(self.program):
                self._batch = stms
            else:  # missing or damaged: make it again
                self._batch = batch_program(self.program, input_signatures(self.files))
                if self._cache:
                    self._cache.write("batch", program_text(self._batch))
        return self._batch

    @property
    def shared(self) -> set[tuple[str, int]]:
        """The inputs a batch adds once for all its cases: those the KB declares case-independent
        and the batch rewrite left without a case argument."""
        if self._shared is None:
            plain = {(s.name, s.arity) for s in self.batch if s.ast_type == ast.ASTType.Defined}
            self._shared = case_independent(self.program) & plain
        return self._shared

    def pruned(self, facts: Iterable[Fact], batch: bool = False) -> tuple[list[ast.AST], set | None]:
        """The statements that may matter for `facts` and the predicates whose facts go in (None: all)."""
        program, needed, _ = self._pruned(self.relevance().domain(Facts.of(facts)), batch)
        return program, needed

    def _pruned(self, dom: Domain, batch: bool) -> tuple[list[ast.AST], set[tuple[str, int]] | None, Views | None]:
        """The statements that may matter for facts abstracted as `dom` (`#defined` left out: it only
        silences warnings), the predicates whose facts may matter (None: every one), and (not for a
        batch) the renaming rules among the statements, to apply as the atoms are read (views.py)."""
        source = self.batch if batch else self.program
        if not self.prune:
            return source, None, None
        key = (Relevance.key(dom), batch)
        found = self._programs.get(key)
        if found is None:
            relevance = self.relevance()
            # the batch program has one statement for each statement of the KB, in order
            keep, needed, edits = relevance.simplify(dom)
            self.program.parse(keep)  # what is read below, in one call to the parser
            # a rule its simplification leaves false (`N = #inf, N > 0`) fires never: the analysis
            # again without it, until no more such rule (what only it could derive goes too)
            # (only an aggregate become its value can: an edit that drops no aggregate element is
            # not tried)
            dead: set[int] = set()
            while found := {i for i, edit in edits.items() if i not in dead and any(edit.values())
                            and never_holds(simplified(self.program[i], edit))}:
                dead |= found
                keep, needed, edits = relevance.simplify(dom, dead)
            # `#defined` only silences warnings; `#program base.` only repeats the default
            # and a kept rule as simplified (not in a batch: the batch rewrite may put a literal
            # first, so the positions differ)
            if batch:
                edits = {}
            program = [simplified(source[i], edits[i]) if i in edits else source[i]
                       for i in keep if source[i].ast_type not in self._dropped]
            found = (program, needed, None if batch else Views(program))
            if len(self._programs) >= 256:
                self._programs.clear()
            self._programs[key] = found
        return found

    # ------------------------------------------------------------------ solving

    def _control(self, program: Sequence[ast.AST]) -> clingo.Control:
        ctl = clingo.Control(["--warn=none"])
        with ast.ProgramBuilder(ctl) as builder:
            capi.add_statements(builder, program, direct=self.direct)
        return ctl

    def _add_facts(self, ctl: clingo.Control, facts: Facts, case: Symbol | None = None, *,
                   keep: set[tuple[str, int]] | None = None, shared: capi.Shared | None = None) -> None:
        with ctl.backend() as backend:
            if case is not None:
                backend.add_rule([backend.add_atom(Function(CASE_PRED, [case]))])
            capi.add_facts(backend, facts.table, case, keep=keep, shared=shared, direct=self.direct)

    def _model(self, ctl: clingo.Control) -> Sequence:
        """The shown symbols of the answer set, to read with capi.read_symbols."""
        ctl.ground([("base", [])])
        with ctl.solve(yield_=True) as handle:
            for m in handle:
                return capi.model_symbols(m, direct=self.direct)
        # the KB is stratified: no model means the KB itself is broken
        raise EngineError("the knowledge base has no answer set for this situation")

    def _answer_set(self, program: Iterable[ast.AST], add: Callable[[clingo.Control], None]) -> list[Term]:
        """The shown atoms of `program` with the facts `add` adds: ground and solve, free the
        Control, then read the atoms (clingo keeps symbols for the life of the process), so that
        the Control's memory and the atoms' are never needed together.  After a large answer set
        (a listing) the freed memory is given back first."""
        ctl = self._control(program)
        add(ctl)
        symbols = self._model(ctl)
        del ctl
        if len(symbols) >= capi.LARGE_MODEL:
            capi.give_back_memory()
        return capi.read_symbols(symbols, direct=self.direct)

    def solve(self, facts: Iterable[Fact], *, few: bool = False) -> list[Term]:
        """The shown atoms of one situation's answer set.  With `few` (the caller expects few shown
        atoms), the renaming rules are applied as the atoms are read (views.py): that saves their
        grounding's fixed work, but costs more than grounding them when there are many atoms."""
        facts = Facts.of(facts)
        if not self.prune:
            return self._answer_set(self.program, lambda ctl: self._add_facts(ctl, facts))
        program, needed, views = self._pruned(self.relevance().domain(facts), batch=False)
        if not few or views is None:
            return self._answer_set(program, lambda ctl: self._add_facts(ctl, facts, keep=needed))
        atoms = self._answer_set(views.program, lambda ctl: self._add_facts(ctl, facts, keep=needed))
        return views.apply(atoms)

    def solve_many(self, cases: Sequence[Iterable[Fact]]) -> list[list[Term]]:
        """Solve many situations in one grounding; returns each one's shown atoms."""
        cases = [Facts.of(facts) for facts in cases]
        if len(cases) == 1:
            return [self.solve(cases[0])]
        dom: Domain = {}
        if self.prune:
            relevance = self.relevance()
            for facts in cases:
                relevance.domain(facts, into=dom)
        program, needed, _ = self._pruned(dom, batch=True)
        shared = capi.Shared(self.shared)  # hexes and Locations: once for the batch

        def add(ctl: clingo.Control) -> None:
            for k, facts in enumerate(cases):
                self._add_facts(ctl, facts, Number(k), keep=needed, shared=shared)

        atoms = self._answer_set(program, add)
        per_case: list[list[Term]] = [[] for _ in cases]
        for atom in atoms:  # every shown atom has its case first
            per_case[atom.arguments[0]].append(Term(atom.name, atom.arguments[1:]))
        return per_case
