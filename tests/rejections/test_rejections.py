"""Every real rejection in the corpus is predicted by ``check``, on the path that rejected it.

Each case (``tests/rejections/cases/*.json``, format in the README beside them) is a tool
list a provider or a client refused, quoted in a public thread. ``check`` runs on it as a
user would (``toollens.cli.main``), with the case's providers and clients: it must exit 1
and name the tool, the field (JSON pointer) and the rule. The tools the same path accepted
must stay ok (exit 0). A case whose rule has since ended (the party changed) must be ok
now, and its rule listed with the end date.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from support.rejections import CASES_DIR, UNREADABLE, Case, Expected, load_case, load_cases
from toollens.assess.rules import Rule, rule_registry
from toollens.cli import main
from toollens.consumers.rules import RULES_BY_ID as CONSUMER_RULES
from toollens.core.providers.api import RULES_BY_ID as PROVIDER_RULES
from toollens.fixes.json_remedies import JSON_REMEDIES

CASES = load_cases()
ACTIVE = [c for c in CASES if c.ended is None]


def _param(case: Case) -> object:
    marks = ()
    if case.predicted is False:
        # Kept so the miss stays visible: the rule that would predict it has no evidence yet.
        marks = (pytest.mark.xfail(strict=True, reason=case.note),)
    return pytest.param(case, id=case.id, marks=marks)


def _check(tmp_path: Path, tools: object, argv: list[str]) -> tuple[int, str]:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools, indent=1), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", str(path), *argv], stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def _tool_lines(output: str, tool: str) -> list[str]:
    """The lines that speak of ``tool``: its own block (``tool (file[i]):`` and the indented
    lines under it) and the clients' lines about it (``    tool: verdict: rule ...``)."""
    lines: list[str] = []
    inside = False
    header = re.compile(rf"^{re.escape(tool)} \(.*\[\d+\]\):")
    for line in output.splitlines():
        if header.match(line):
            inside = True
            lines.append(line)
            continue
        if inside and line.startswith(" "):
            lines.append(line)
            continue
        inside = False
        if line.lstrip().startswith(f"{tool}: "):
            lines.append(line)
    return lines


def _names(line: str, expected: Expected) -> bool:
    if expected.rule == UNREADABLE:
        found = "could not be read" in line
    else:
        # a provider finding: "error[rule] at /p: ..."; a client's: "tool: verdict: rule at /p"
        found = re.search(rf"(\[|: ){re.escape(expected.rule)}(\]|:| )", line) is not None
    if expected.pointer is None:
        return found
    return found and f"at {expected.pointer or '/'}:" in line  # the root is shown as /


def test_the_corpus_is_large_and_every_case_is_well_formed() -> None:
    assert len(CASES) >= 40
    assert len({c.source for c in CASES}) >= 35  # mostly distinct threads
    for path in sorted(CASES_DIR.glob("*.json")):
        load_case(path)  # raises naming the file and the field


def test_every_expected_rule_is_a_rule_toollens_has() -> None:
    known = set(PROVIDER_RULES) | set(CONSUMER_RULES) | {UNREADABLE}
    for case in CASES:
        for expected in case.expect:
            assert expected.rule in known, (case.id, expected.rule)


@pytest.mark.parametrize("case", [_param(c) for c in ACTIVE])
def test_check_predicts_the_rejection(case: Case, tmp_path: Path) -> None:
    code, output = _check(tmp_path, case.tools, case.path.argv())
    assert code == 1, output
    for expected in case.expect:
        lines = _tool_lines(output, expected.tool)
        assert any(_names(line, expected) for line in lines), (expected, output)


@pytest.mark.parametrize(
    ("case", "index"),
    [pytest.param(c, i, id=f"{c.id}-{i}") for c in CASES for i in range(len(c.accepted))],
)
def test_the_tools_that_went_through_stay_ok(case: Case, index: int, tmp_path: Path) -> None:
    code, output = _check(tmp_path, case.accepted[index], case.path.argv())
    assert code == 0, output


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES if c.ended])
def test_a_rule_that_ended_is_listed_with_its_end_and_judges_nothing(
    case: Case, tmp_path: Path
) -> None:
    code, output = _check(tmp_path, case.tools, case.path.argv())
    assert code == 0, output
    for expected in case.expect:
        rule = PROVIDER_RULES[expected.rule]
        assert rule.cite.ended == case.ended
        assert f"[{expected.rule}]" not in output


def test_the_readme_documents_every_field() -> None:
    readme = (CASES_DIR.parent / "README.md").read_text(encoding="utf-8")
    fields = {"id", "path", "error", "date", "source", "tools", "reconstructed", "expect"}
    fields |= {"accepted", "ended", "predicted", "note", "layout", "providers", "clients"}
    for name in fields:
        assert f"`{name}`" in readme, name


def _explain(tmp_path: Path, case: Case) -> list[dict[str, object]]:
    name = "tools.tools.json" if case.path.layout == "tools/list" else "tools.json"
    path = tmp_path / name
    path.write_text(json.dumps(case.tools, indent=1), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    argv = ["explain", str(path), "--error", case.error, "--format", "json"]
    code = main(argv, stdout=out, stderr=err)
    assert code in (0, 1), err.getvalue()
    entries: list[dict[str, object]] = json.loads(out.getvalue())
    return entries


def _same_field(explained: object, expected: str) -> bool:
    """The error's pointer and the finding's name the same field: one holds the other
    (the API points at ``/p/items``, the rule at ``/p``). A place about the whole tool has
    no pointer into the schema."""
    if explained is None:
        return True
    assert isinstance(explained, str)
    short, long = sorted((explained, expected), key=len)
    return long == short or long.startswith(short.rstrip("/") + "/")


# a case no rule predicts has no rule to be explained by (test_check_predicts_the_rejection
# keeps it visible)
@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in ACTIVE if c.predicted])
def test_explain_finds_the_tool_the_field_and_the_rule(case: Case, tmp_path: Path) -> None:
    """The error text as the thread quotes it, and the tools that were sent: ``explain``
    names what ``check`` predicts (a tool toollens cannot read either: where it says)."""
    entries = _explain(tmp_path, case)
    for expected in case.expect:
        mine = [e for e in entries if e["tool"] == expected.tool]
        assert mine, (expected, entries)
        if expected.rule == UNREADABLE:
            named = [e for e in mine if "could not read" in str(e["note"])]
        else:
            named = [e for e in mine if e["rule"] == expected.rule]
        assert named, (expected, entries)
        if expected.pointer is not None:
            assert any(_same_field(e["pointer"], expected.pointer) for e in named), named
        if expected.rule != UNREADABLE:  # the finding carries its rule's citation
            assert all(_cited(e) == _CITED[expected.rule] for e in named), named


def _citation(rule: Rule) -> dict[str, object] | None:
    if rule.evidence == "toollens":
        return None
    return {"url": rule.url, "evidence": rule.evidence}


def _cited(entry: dict[str, object]) -> dict[str, object] | None:
    cited = entry["cited"]
    assert cited is None or isinstance(cited, dict)
    return None if cited is None else {"url": cited["url"], "evidence": cited["evidence"]}


# what `check --rules` lists for each rule: the source a finding of it must cite
_CITED = {rule.id: _citation(rule) for rule in rule_registry()}


def _fixed(tmp_path: Path, case: Case) -> tuple[int, str]:
    """``fix --write --unsafe`` on the case's path, then ``check`` of what it wrote."""
    path = tmp_path / ("fixed.tools.json" if case.path.layout == "tools/list" else "fixed.json")
    path.write_text(json.dumps(case.tools, indent=2), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["fix", str(path), *case.path.argv(), "--write", "--unsafe"], stdout=out, stderr=err
    )
    assert code in (0, 1), err.getvalue()
    out = io.StringIO()
    return main(["check", str(path), *case.path.argv()], stdout=out), out.getvalue()


# A rule with a fix whose fix needs a shape these cases lack (the author decides).
NEEDS_THE_AUTHOR = {
    "openai-chat-root-array-vercel": "the root is an array: the value needs an object around it",
    "openai-chat-root-none-stagehand": "the root's type is the string 'None'",
}
MENDED = [
    c
    for c in ACTIVE
    if c.predicted
    and c.id not in NEEDS_THE_AUTHOR
    and all(e.rule in JSON_REMEDIES for e in c.expect)
]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in MENDED])
def test_fix_mends_what_has_a_mechanical_fix(case: Case, tmp_path: Path) -> None:
    """Each rejection whose rules all have a mechanical fix is gone after ``fix``, on the
    path that refused it, and ``check`` names nothing of it any more."""
    _, output = _fixed(tmp_path, case)
    for expected in case.expect:
        lines = _tool_lines(output, expected.tool)
        assert not any(_names(line, expected) for line in lines), (expected, output)


def test_fix_leaves_check_ok_on_most_real_rejections(tmp_path: Path) -> None:
    for case in ACTIVE:
        (tmp_path / case.id).mkdir()
    ok = [c.id for c in ACTIVE if c.predicted and _fixed(tmp_path / c.id, c)[0] == 0]
    assert len(MENDED) >= 33
    assert len(ok) >= 33, ok  # docs/fix.md gives this count
