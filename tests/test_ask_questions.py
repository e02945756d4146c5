"""`ask:` questions: a situation may carry questions without answers (every question kind);
`aslrules ask` answers them after its `expect:` questions, `check` does not check them, and an
answer field in an `ask` item is an error naming it (docs/format.md, "Questions")."""

from __future__ import annotations

import pytest

from aslrules.cli import main
from aslrules.core import ask
from aslrules.errors import InputError
from aslrules.loader import load_text

SITUATION = """\
title: ask without answers
phase: MPh
attacker: russian
units:
  - {id: g-467, side: german, type: squad, counter: 4-6-7, hex: X2,
     weapons: [{id: g-lmg, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11}]}
  - {id: g-81, side: german, type: leader, counter: 8-1, hex: X2}
  - {id: r-628, side: russian, type: squad, counter: 6-2-8, hex: W2, moving: {from: V2, mf_here: 1}}
  - {id: g-crew, side: german, type: crew, counter: 2-2-8, hex: X4,
     weapons: [{id: g-pak, kind: gun, ca: [X3, Y4], calibre: 75L}]}
ask:
  - attack: {option: first_fire, firers: [g-467, g-lmg], director: g-81, targets: [r-628]}
  - case_a: {firer: g-pak, target: r-628}
  - ca_change: {firer: g-pak, to: [W4, W5]}
  - target_facing: {firer: g-pak, target: r-628}
  - gun_elevation: {firer: g-pak, target: r-628}
"""


def test_ask_answers_every_kind_in_order() -> None:
    answers = ask(load_text(SITUATION, "ask.yaml"))
    assert [a.kind for a in answers] == ["attack", "case_a", "ca_change", "target_facing", "gun_elevation"]
    first = answers[0]  # the 8.41 EX's first attack (seed 004): 14 FP, -3
    assert (first.verdict, first.figure("fp"), first.figure("drm")) == ("allowed", 14, -3)


def test_expect_questions_come_first_and_check_ignores_ask(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    text = SITUATION.replace("ask:\n", "expect:\n  - attack: {option: first_fire, firers: [g-467], targets: [r-628]}\n"
                             "    verdict: allowed\nask:\n")
    answers = ask(load_text(text, "ask.yaml"))
    assert len(answers) == 6 and answers[0].roles["firer"] == ["g-467"]
    path = tmp_path / "ask.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith("1 passed, 0 failed")


def test_check_on_ask_only_says_there_is_nothing_to_check(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    path = tmp_path / "ask.yaml"
    path.write_text(SITUATION, encoding="utf-8")
    assert main(["check", str(path)]) == 2
    assert "aslrules ask" in capsys.readouterr().err


def test_an_answer_field_in_an_ask_item_is_an_error() -> None:
    text = SITUATION.replace("targets: [r-628]}\n  - case_a", "targets: [r-628]}\n    verdict: allowed\n  - case_a")
    with pytest.raises(InputError) as caught:
        load_text(text, "ask.yaml")
    e = caught.value
    assert (e.line, e.path) == (13, "ask[0].verdict") and "expect" in e.expected
