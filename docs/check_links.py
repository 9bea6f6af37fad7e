"""Check the built site: internal links and anchors, and what no page may show.

Run after the build: ``python docs/check_links.py docs/_build/html``.

Fails (exit status 1, one line per problem) on

* a link (``href``, ``src``) to a file of the site that does not exist, or to
  an ``#anchor`` that the target page does not define (links to other sites
  are not followed: the build runs without network access);
* a page that shows an unexpanded ``{{...}}`` substitution, a temporary-folder
  path (``/tmp/...``) or a Python traceback, in its visible text;
* a table of the paper reproductions and results pages wider than 12 columns.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: Visible text that no page may show.
FORBIDDEN = {
    "an unexpanded substitution": re.compile(r"\{\{[^{}]*\}\}"),
    "a temporary-folder path": re.compile(r"(?<![\w.])/(?:tmp|var/folders)/\S+"),
    "a traceback": re.compile(r"Traceback \(most recent call last\)"),
}
#: What is not allowed in code blocks either (outputs of the executed pages).
CHECKED_IN_CODE = ("a temporary-folder path", "a traceback")
#: Widest table allowed on the results pages (columns).
MAX_COLUMNS = 12


class _Page(HTMLParser):
    """The links, anchors, visible text and table widths of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.anchors: set[str] = set()
        self.text: list[str] = []
        self.code: list[str] = []  # text inside <pre>: code, shown as written
        self.table_widths: list[int] = []
        self._skip = 0  # inside <script> or <style>
        self._pre = 0
        self._row_cells: list[int] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.anchors.add(a["id"])
        if tag == "a" and a.get("name"):
            self.anchors.add(a["name"])
        for key in ("href", "src"):
            if a.get(key) and not (tag == "link" and a.get("rel") in ("preconnect",)):
                self.links.append(a[key])
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "pre":
            self._pre += 1
        if tag == "tr":
            self._row_cells.append(0)
        if tag in ("td", "th") and self._row_cells:
            self._row_cells[-1] += int(a.get("colspan") or 1)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        if tag == "pre" and self._pre:
            self._pre -= 1
        if tag == "tr" and self._row_cells:
            self.table_widths.append(self._row_cells.pop())

    def handle_data(self, data: str) -> None:
        if not self._skip:
            (self.code if self._pre else self.text).append(data)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8", errors="replace"))
    return page


def check(site: Path) -> list[str]:
    """Every problem of the built site at ``site``, one line each."""
    pages = {p: _parse(p) for p in sorted(site.rglob("*.html"))}
    problems = []
    for path, page in pages.items():
        name = path.relative_to(site).as_posix()
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//") or link.startswith("mailto:"):
                continue
            target = path if not parts.path else (path.parent / unquote(parts.path))
            target = Path(*[p for p in target.parts if p != "."])
            if parts.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            try:
                target = target.resolve()
            except OSError:
                pass
            if not target.exists():
                problems.append(f"{name}: broken link {link}")
                continue
            if parts.fragment and target.suffix == ".html":
                anchors = pages[target].anchors if target in pages else set()
                if unquote(parts.fragment) not in anchors:
                    problems.append(f"{name}: no anchor #{parts.fragment} in {link}")
        # Source listings (_modules) show code; their text is not checked.
        if not name.startswith("_modules/"):
            text = "".join(page.text)
            code = "".join(page.code)
            for what, pattern in FORBIDDEN.items():
                # A "{{" in a code block is code (BibTeX braces, a template).
                found = pattern.search(text) or (
                    pattern.search(code) if what in CHECKED_IN_CODE else None
                )
                if found:
                    problems.append(f"{name}: shows {what}: {found.group(0)[:80]}")
        if name.startswith("results/") and page.table_widths:
            widest = max(page.table_widths)
            if widest > MAX_COLUMNS:
                problems.append(
                    f"{name}: a table of {widest} columns (> {MAX_COLUMNS})"
                )
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check the site named on the command line; the exit status says how it went."""
    argv = sys.argv[1:] if argv is None else argv
    site = Path(argv[0] if argv else "docs/_build/html").resolve()
    if not (site / "index.html").is_file():
        print(f"check_links: no built site at {site} (build the docs first)")
        return 2
    pages = list(site.rglob("*.html"))
    problems = check(site)
    for line in problems:
        print(line)
    if problems:
        print(f"check_links: {len(problems)} problems in {len(pages)} pages")
        return 1
    print(f"check_links: {len(pages)} pages checked, no problem")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
