"""The documentation a newcomer reads, checked without a server: the README stays short and starts with
the two commands, the docs/ files each reader is sent to exist, every relative link and image in the
README and docs/*.md leads to a file that exists (and a `#anchor` to a heading of it, as GitHub names
headings), and no code comment under Sources/ carries a benchmark figure (those go stale the day the
code changes; they belong in docs/performance.md with their command).
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DOCS = REPO / "docs"
READERS = ["architecture.md", "operations.md", "performance.md", "testing.md"]
README_MOST_LINES = 250
FIRST_COMMANDS = ["swift run juicemaker serve", "./scripts/test"]
FIRST_COMMANDS_WITHIN = 30

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`+[^`]*`+")
# [text](target) and ![alt](target), the target up to a space (a title may follow) or the closing parenthesis.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")

# A benchmark figure in a comment: a throughput (`5,300 orders/s`, `2.3k req/s`), a time in microseconds,
# a ratio (`0.45×`, `1.2x`; not a size such as `820×1180`), a percentage gained or of the CPU (`5 %
# faster`, `13 % of the server's CPU`; not `지방 3.4%`), a latency percentile (`p99 4.0 ms`), or a share
# of the pages a commit wrote (`7.5 of the 14.2 pages`).
FIGURE = re.compile(
    r"\d[\d,.]*\s*k?\s*(?:req|requests|orders|writes|commits|purchases|sales|ops)\s*/\s*s\b"
    r"|\b(?:req|orders)/s\b"
    r"|\d[\d,.]*\s*tps\b"
    r"|\d\s*µs(?![A-Za-z])"
    r"|\d(?:\.\d+)?\s*×(?!\s*\d)"
    r"|\b\d+(?:\.\d+)?x\b"
    r"|\d\s*%\s*(?:faster|slower|less|more|cheaper)\b"
    r"|\d\s*%\s*of\s[^.;]*\bCPU\b"
    r"|\bp(?:50|90|99)\b[^;]{0,40}?\d\s*ms\b"
    r"|\d\s+of\s+(?:the\s+|its\s+)?\d+(?:\.\d+)?\s+(?:WAL\s+)?pages\b"
)


def markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def prose_lines(path: Path) -> list[tuple[int, str]]:
    """The file's lines outside fenced code blocks, numbered from 1."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text (links and code as their text) in lower case, with
    every character but letters, digits, spaces, hyphens and underscores dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file, repeated headings numbered as GitHub does (-1, -2 …)."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose_lines(path):
        match = HEADING.match(line)
        if not match:
            continue
        slug = github_slug(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """The relative links and images of a Markdown file, outside code, with their line numbers."""
    found = []
    for number, line in prose_lines(path):
        for match in LINK.finditer(INLINE_CODE.sub("", line)):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # http:, https:, mailto:
                continue
            found.append((number, target))
    return found


def broken_link(source: Path, target: str) -> str | None:
    """Why `target`, as written in `source`, leads nowhere; None when it resolves."""
    address, _, anchor = target.partition("#")
    destination = (source.parent / unquote(address)).resolve() if address else source
    if not destination.exists():
        return f"no file {destination.relative_to(REPO) if destination.is_relative_to(REPO) else destination}"
    if anchor:
        if destination.suffix != ".md":
            return f"an anchor #{anchor} into {destination.name}, which is not Markdown"
        if unquote(anchor).lower() not in anchors(destination):
            return f"no heading #{anchor} in {destination.relative_to(REPO)}"
    return None


def test_the_readme_is_short_and_starts_with_the_two_commands():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES, f"README.md has {len(lines)} lines; at most {README_MOST_LINES}"
    first = "\n".join(lines[:FIRST_COMMANDS_WITHIN])
    missing = [command for command in FIRST_COMMANDS if command not in first]
    assert not missing, f"not within README.md's first {FIRST_COMMANDS_WITHIN} lines: {missing}"


@pytest.mark.parametrize("name", READERS)
def test_each_reader_has_a_document(name):
    path = DOCS / name
    assert path.is_file(), f"docs/{name} is missing"
    assert prose_lines(path), f"docs/{name} is empty"


@pytest.mark.parametrize("path", markdown_files(), ids=lambda path: str(path.relative_to(REPO)))
def test_every_relative_link_and_image_resolves(path):
    problems = [f"{path.relative_to(REPO)}:{number}: ({target}) {reason}"
                for number, target in links(path)
                if (reason := broken_link(path, target))]
    assert not problems, "links that lead nowhere:\n" + "\n".join(problems)


def test_the_readme_shows_its_screenshots():
    images = [target for _, target in links(README) if target.endswith(".png")]
    assert len(images) >= 4, f"README.md shows {len(images)} screenshots: {images}"


def test_the_slugs_are_githubs():
    assert github_slug("Running it as a service (systemd)") == "running-it-as-a-service-systemd"
    assert github_slug("The shop's time zone") == "the-shops-time-zone"
    assert github_slug("Never twice: `Idempotency-Key`") == "never-twice-idempotency-key"
    assert github_slug("Several servers, one PostgreSQL") == "several-servers-one-postgresql"


def swift_comments(path: Path) -> list[tuple[int, str]]:
    """The text of each `//` comment in a Swift file, with its line number: read character by character,
    so that `//` inside a string literal (one line or `\"\"\"` many) is no comment."""
    text = path.read_text(encoding="utf-8")
    comments, index, line, quote = [], 0, 1, None
    while index < len(text):
        char = text[index]
        if char == "\n":
            line += 1
        if quote:
            if char == "\\":
                line += text[index + 1:index + 2] == "\n"
                index += 2
                continue
            if text.startswith(quote, index):
                index += len(quote)
                quote = None
                continue
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            comments.append((line, text[index + 2:end]))
            index = end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index)
            end = len(text) if end < 0 else end + 2
            for offset, part in enumerate(text[index + 2:end - 2].split("\n")):
                comments.append((line + offset, part))
            line += text[index:end].count("\n")
            index = end
            continue
        elif char == '"':
            quote = '"""' if text.startswith('"""', index) else '"'
            index += len(quote)
            continue
        index += 1
    return comments


def test_no_comment_under_sources_carries_a_benchmark_figure():
    found = []
    for path in sorted((REPO / "Sources").rglob("*.swift")):
        for number, text in swift_comments(path):
            if match := FIGURE.search(text):
                found.append(f"{path.relative_to(REPO)}:{number}: {match.group(0)!r} in {text.strip()}")
    assert not found, ("comments with benchmark figures (keep the reason, move the figure to "
                       "docs/performance.md with its command):\n" + "\n".join(found))


@pytest.mark.parametrize("comment, flagged", [
    ("one server from about 2,900 to 5,300 orders/s", True),
    ("2.3k orders/s", True),
    ("a keyed order 0.45× of /health", True),
    ("it was 2 µs of a keyed request", True),
    ("1.2x faster", True),
    ("pgbench's 1,637 tps", True),
    ("orders went 5 % faster without it", True),
    ("the line cost 13 % of `GET /health`'s server CPU", True),
    ("p99 4.03 ms under load", True),
    ("7.5 of the 14.2 pages a keyed batch wrote to the WAL", True),
    ("one of the two pages", False),
    ("an iPad-sized 820×1180 screen", False),
    ("0x1F is a byte", False),
    ("reads at most every 300 ms under a stream of commits", False),
    ("tell us what the orders say", False),
    ("지방 3.4% · 바나나맛", False),
])
def test_the_figure_pattern_flags_figures_and_not_words(comment, flagged):
    assert bool(FIGURE.search(comment)) == flagged
