"""Pull code out of chat-model completions wrapped in markdown fences."""

from __future__ import annotations

import re
from typing import Literal

ExtractMode = Literal["auto", "none", "first", "last"]

# ``` or ~~~ fences, optional language tag; the closing fence may be missing (truncated output).
_FENCE = re.compile(r"^[ \t]*(```|~~~)[ \t]*([\w+#.-]*)[^\n]*\n(.*?)(?:^[ \t]*\1[ \t]*$|\Z)", re.S | re.M)
_PY_TAGS = {"python", "py", "python3", "py3", ""}


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language tag, body) of every fenced block, in order."""
    return [(m.group(2).lower(), m.group(3)) for m in _FENCE.finditer(text)]


def extract_code(text: str, mode: ExtractMode = "auto", language: str = "python") -> str:
    """`auto`: the last fenced block in the row's language (or untagged) if any, else the text
    as is. `first`/`last`: that fenced block of any language, else the text. `none`: as is."""
    if mode == "none" or "```" not in text and "~~~" not in text:
        return text
    blocks = fenced_blocks(text)
    if not blocks:
        return text
    if mode == "first":
        return blocks[0][1]
    if mode == "last":
        return blocks[-1][1]
    tags = _PY_TAGS if language == "python" else {language, ""} | _LANG_TAGS.get(language, set())
    matching = [body for tag, body in blocks if tag in tags]
    if matching:
        return matching[-1]
    return blocks[-1][1]


_LANG_TAGS = {
    "cpp": {"c++", "cpp", "cc", "cxx"},
    "c": {"c"},
    "java": {"java"},
    "javascript": {"javascript", "js", "node"},
}
