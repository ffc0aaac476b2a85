"""Rendered pages as lxml trees: parsed, their text read, elements removed or unwrapped."""

from __future__ import annotations

from lxml import etree


def collapse(text: str) -> str:
    return " ".join(text.split())  # str.split() splits on exactly the characters \s matches


def shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,.;:，。；：") + "…"


def parse(data: bytes):
    """A rendered page as a plain lxml.etree tree (lighter than lxml.html's element classes)."""
    return etree.fromstring(data, etree.HTMLParser(encoding="utf-8"))


def text_of(el) -> str:
    return collapse("".join(el.itertext()))


def drop(el) -> None:
    """Remove an element but keep the text that follows it (lxml.html's drop_tree)."""
    parent = el.getparent()
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def unwrap(el) -> None:
    """Replace an element by its content (lxml.html's drop_tag)."""
    parent = el.getparent()
    index = parent.index(el)
    text = el.text or ""
    children = list(el)
    after = el.tail or ""
    if children:
        children[-1].tail = (children[-1].tail or "") + after
    else:
        text += after
    if index:
        previous = parent[index - 1]
        previous.tail = (previous.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    parent[index : index + 1] = children
