"""`aslrules distinguish`: for every pair of values of every named reading it finds a situation
whose answers differ, and the case it writes holds under the value it states and fails under
the other (`aslrules check`)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from aslrules.core import check
from aslrules.distinguish import distinguish, parse_pair
from aslrules.errors import InputError
from aslrules.loader import load_text
from aslrules.schema import READINGS

ROOT = Path(__file__).resolve().parent.parent
PAIRS = [(name, a, b) for name, values in READINGS.items() for a, b in itertools.combinations(values, 2)]


@pytest.mark.parametrize("name, a, b", PAIRS, ids=[f"{n}:{a}-{b}" for n, a, b in PAIRS])
def test_every_pair_of_values_is_distinguished(name: str, a: str, b: str) -> None:
    found = distinguish(name, a, b, budget=50)
    assert found.case_text is not None, found.summary()
    sit = load_text(found.case_text, "<written>")
    assert sit.readings[name] == a
    assert all(o.passed for o in check([sit], workers=1))
    other = load_text(found.case_text.replace(f"{{{name}: {a}}}", f"{{{name}: {b}}}"), "<other>")
    assert other.readings[name] == b
    assert not all(o.passed for o in check([other], workers=1))
    assert f"# Under {name}={a}:" in found.case_text and f"# Under {name}={b}:" in found.case_text
    assert found.trial.size[0] <= 3  # a small situation: few units


def test_the_pair_is_checked() -> None:
    assert parse_pair(["a7353=permissive", "a7353=restrictive"]) == ("a7353", "permissive", "restrictive")
    for bad in (["a7353=permissive", "a7353=permissive"], ["a7353=permissive", "residual_half=exact_half"],
                ["nosuch=a", "nosuch=b"], ["a7353=x", "a7353=restrictive"]):
        with pytest.raises(InputError):
            parse_pair(bad)


def test_nothing_found_in_a_space_without_a_difference(tmp_path: Path) -> None:
    seed = tmp_path / "plain.yaml"  # a bare First Fire no reading touches: no variation of it differs
    seed.write_text("phase: MPh\nattacker: russian\nunits:\n"
                    "  - {id: g-467, side: german, type: squad, counter: 4-6-7, hex: C2}\n"
                    "  - {id: r-447, side: russian, type: squad, counter: 4-4-7, hex: C4, moving: {from: C5}}\n"
                    "ask:\n  - attack: {option: first_fire, firers: [g-467], targets: [r-447]}\n")
    found = distinguish("bypass_side_ca", "one_change", "with_side", seeds=[str(seed)], budget=20)
    assert found.case_text is None
    assert "no situation found" in found.summary() and found.variations > 0


def test_the_cli_writes_a_case_that_checks(tmp_path: Path) -> None:
    out = tmp_path / "case.yaml"
    done = subprocess.run([sys.executable, "-m", "aslrules", "distinguish", "adjacent_levels=one_level",
                           "adjacent_levels=same_level", "-o", str(out)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    checked = subprocess.run([sys.executable, "-m", "aslrules", "check", str(out)], capture_output=True, text=True,
                             cwd=ROOT, timeout=300)
    assert checked.returncode == 0 and "1 passed, 0 failed" in checked.stdout


def test_a_case_that_distinguishes_nothing_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """case_text checks the case it writes under both values (an error, not an assert that
    python -O would drop): with a check that passes everything, the case holds under B too."""
    from aslrules import core
    from aslrules.distinguish import Found, case_text
    from aslrules.errors import EngineError

    with pytest.raises(ValueError):
        case_text(Found("a7353", "permissive", "restrictive"))
    found = distinguish("a7353", "permissive", "restrictive", budget=50)
    assert found.trial is not None
    real = core.check
    monkeypatch.setattr(core, "check", lambda sits, **kw: [o for o in real(sits, **kw) if o.passed])
    with pytest.raises(EngineError, match="distinguishes nothing"):
        case_text(found)
