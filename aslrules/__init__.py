"""aslrules: Advanced Squad Leader defensive fire rules as answer set programs.

The rules live in kb/*.lp (shipped inside the package as aslrules/kb); this
package loads situations, grounds them into facts, solves with clingo and
renders the KB's verdicts and reasons.
"""

__version__ = "0.1.0"
