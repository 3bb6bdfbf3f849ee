"""Render Markdown (stdin) with cmark-gfm as GitHub does (raw HTML allowed, then
checked) and print a JSON summary of the HTML structure for the Rust tests.

GitHub links @mentions and #123 issue references after rendering, in text
nodes outside <code>, <pre> and <a>; `mentions` and `issue_refs` emulate that."""
import json
import re
import sys
from html.parser import HTMLParser

import cmarkgfm
from cmarkgfm.cmark import Options

MENTION = re.compile(r"(?:^|\W)@([a-z0-9][a-z0-9-]*)", re.I)
ISSUE = re.compile(r"(?:^|[^\w/])#\d+")
VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area", "base", "embed", "param", "track"}


class Walker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.tags = []
        self.anchors = []
        self.headings = []
        self.tables = []
        self.mentions = []
        self.issue_refs = []
        self.text = []
        self.comments = 0
        self.errors = []
        self.details_max_depth = 0
        self._row = None
        self._heading = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "a":
            self.anchors.append(dict(attrs).get("href", ""))
        if tag == "table":
            self.tables.append([])
        if tag == "tr":
            self._row = 0
        if tag in ("td", "th") and self._row is not None:
            self._row += 1
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = ""
        if tag not in VOID:
            self.stack.append(tag)
            self.details_max_depth = max(self.details_max_depth, self.stack.count("details"))

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unbalanced </{tag}> with open {self.stack[-3:]}")
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "tr" and self.tables:
            self.tables[-1].append(self._row)
            self._row = None
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.headings.append(self._heading)
            self._heading = None

    def handle_comment(self, data):
        self.comments += 1

    def handle_data(self, data):
        self.text.append(data)
        if self._heading is not None:
            self._heading += data
        if not any(t in self.stack for t in ("code", "pre", "a")):
            self.mentions += [m.group(1) for m in MENTION.finditer(data)]
            self.issue_refs += [m.group(0) for m in ISSUE.finditer(data)]


md = sys.stdin.read()
html = cmarkgfm.github_flavored_markdown_to_html(md, options=Options.CMARK_OPT_UNSAFE)
w = Walker()
w.feed(html)
w.close()
if w.stack:
    w.errors.append(f"unclosed {w.stack}")
print(json.dumps({
    "html": html,
    "tags": sorted(set(w.tags)),
    "tag_counts": {t: w.tags.count(t) for t in set(w.tags)},
    "anchors": w.anchors,
    "headings": w.headings,
    "tables": w.tables,
    "mentions": w.mentions,
    "issue_refs": w.issue_refs,
    "comments": w.comments,
    "text": "".join(w.text),
    "errors": w.errors,
    "details_max_depth": w.details_max_depth,
}))
