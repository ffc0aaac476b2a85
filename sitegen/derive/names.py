"""Submitters by the names each language's press gives them (content/data/companies.yaml): a
record spelling ("NVIDIA", "QCT") to its company's name in a language, or the spelling itself
(underscores as spaces) for a company the file does not list."""

from __future__ import annotations

from sitegen.base import languages
from sitegen.content.companies import by_spelling, spelling_key


def company_of(site, spelling: str) -> dict | None:
    """The company of a submitter spelling of the record, or None."""
    return by_spelling(site.tables.get("companies") or {}).get(spelling_key(spelling))


def submitter_name(site, spelling: str, lang: str) -> str:
    """The submitter as the language writes it."""
    company = company_of(site, spelling)
    return company["name"][lang] if company else spelling.replace("_", " ")


def latin_name(site, spelling: str) -> str:
    """The submitter in Latin letters: its company's English name, else the spelling."""
    company = company_of(site, spelling)
    english = languages.ENGLISH
    return company["name"][english] if company and english in company["name"] else spelling.replace("_", " ")


def entity_names(site, entity) -> dict | None:
    """A submitter entity's company names ({lang: name}): its latest spelling's company, else
    the first of its other spellings that has one."""
    for spelling in [entity.name, *sorted(entity.names)]:
        company = company_of(site, spelling or "")
        if company:
            return company["name"]
    return None
