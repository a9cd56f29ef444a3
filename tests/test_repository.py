"""The repository stands on its own: no tracked file cites a file outside it.

The behaviour the project promises is written in ``docs/`` in the project's own words; a
docstring, test or document that points at a brief kept somewhere else sends a reader to a
file they do not have. Every file ``git ls-files`` lists is read (binary files, those with a
NUL byte, are skipped: images and the like cannot cite anything).

The patterns are assembled from pieces so that this file does not match itself.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = [
    "SPEC" + ".md",             # the behaviour brief of the text formats, page and CLI
    "SPEC-" + "API.md",         # the behaviour brief of the Python API
    ".." + "/shared",           # the folder those briefs live in, seen from the repository
    "/" + "work/",              # an absolute path on the machine the project was built on
]


def mentions(data: bytes):
    """The forbidden patterns ``data`` contains, with the line numbers (1-based) of each."""
    found = []
    for pattern in FORBIDDEN:
        needle = pattern.encode()
        if needle not in data:
            continue
        lines = [number for number, line in enumerate(data.split(b"\n"), 1) if needle in line]
        found.append((pattern, lines))
    return found


def tracked_files():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of tracked files")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [name for name in out.stdout.decode("utf-8").split("\0") if name]


def test_the_check_finds_each_pattern():
    for pattern in FORBIDDEN:
        text = f"first line\nsee {pattern} for why\n".encode()
        assert mentions(text) == [(pattern, [2])]
    assert mentions(b"docs/formats.md says so; ../docs/api.md; a shared folder") == []


@pytest.mark.slow
def test_no_tracked_file_cites_a_file_outside_the_repository():
    files = tracked_files()
    assert "README.md" in files and "tests/test_repository.py" in files
    offenders = []
    for name in files:
        path = ROOT / name
        if not path.is_file():          # deleted in the work tree but still tracked
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:        # binary
            continue
        for pattern, lines in mentions(data):
            offenders.append(f"{name}:{','.join(map(str, lines))}: {pattern}")
    assert not offenders, "files citing something outside the repository:\n" + "\n".join(offenders)


# ---- links between the repository's own documents ----------------------------------------------

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but ``-`` and ``_`` dropped, spaces
    as hyphens."""
    text = heading.replace("`", "").strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    return {anchor(h) for h in HEADING.findall(FENCE.sub("", text))}


def test_anchors_are_githubs():
    assert anchor("trec_eval's other measures, ERR and RBP") == "trec_evals-other-measures-err-and-rbp"
    assert anchor("The `all` line") == "the-all-line"
    assert anchors("# A\n```\n# not a heading\n```\n## B c\n") == {"a", "b-c"}


def broken_links(root: Path, names) -> list[str]:
    """Every relative link of the Markdown files ``names`` (paths under ``root``) whose file or
    heading does not exist."""
    broken = []
    for name in names:
        if not name.endswith(".md"):
            continue
        path = root / name
        for target in LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
            if re.match(r"[a-z]+:", target):        # https:, mailto:
                continue
            file_part, _, fragment = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                broken.append(f"{name}: {target} (no such file)")
            elif fragment and linked.suffix == ".md" and fragment not in anchors(
                    linked.read_text(encoding="utf-8")):
                broken.append(f"{name}: {target} (no such heading)")
    return broken


def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\n## Two words\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "[ok](docs/a.md#two-words) [web](https://example.org/x.md) [self](#top)\n"
        "[gone](docs/b.md) [wrong](docs/a.md#three)\n```\n[in code](nowhere.md)\n```\n# Top\n",
        encoding="utf-8")
    assert broken_links(tmp_path, ["README.md", "docs/a.md"]) == [
        "README.md: docs/b.md (no such file)", "README.md: docs/a.md#three (no such heading)"]


def test_every_link_between_documents_resolves():
    broken = broken_links(ROOT, tracked_files())
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_every_registry_field_is_in_the_add_a_measure_recipe():
    """docs/adding-a-measure.md has a table for each record of an entry (``Measure``, ``Param``,
    ``Names``, ``About``, ``TrecEval``) naming each of its fields (as `field` or `field(...)`),
    so a new field cannot go undocumented."""
    from retrieval_metrics.measures import registry
    doc = (Path(__file__).resolve().parent.parent / "docs" / "adding-a-measure.md").read_text()
    fields = doc[doc.index("## The entry's fields"):doc.index("## A measure trec_eval also has")]
    missing = []
    for record in (registry.Measure, registry.Param, registry.Names, registry.About,
                   registry.TrecEval):
        heading = f"### `{record.__name__}`"
        assert heading in fields, heading
        table = fields[fields.index(heading):].split("\n### ")[0]
        named = set(re.findall(r"`([a-z_]+)(?:\([^`]*\))?`", table))
        missing += [f"{record.__name__}.{f}" for f in record._fields if f not in named]
    assert missing == []


#: test modules still imported by another test module (to move into conftest.py or a support
#: module); the list must shrink, never grow: the test fails on a new one and on a stale one
TEST_MODULES_IMPORTED = {
    ("test_cli_relevance_level", "test_trec_eval_collection"),
    ("test_compat_ir_measures", "test_names_ir_measures"),
    ("test_relevance_threshold", "test_differential"),
    ("test_trec_names", "test_trec_measures"),
    ("test_compare_defects", "test_compare_page"),
    ("test_explain_page", "test_many_runs_page"),
    ("test_offline", "test_page_axe"),
}


def test_shared_test_helpers_live_in_support_modules():
    """A helper two test modules share is in conftest.py or a support module (support.py,
    trec_eval_collections.py, tests/browser/pagekit.py), not imported from a test module."""
    import ast
    found = set()
    for path in (Path(__file__).resolve().parent).rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found |= {(path.stem, n) for n in names if n.startswith("test_") and n != path.stem}
    assert found == TEST_MODULES_IMPORTED
