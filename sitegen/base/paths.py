"""Where the generator's own files are: in a checkout (the repository, with `templates/` at its
top, as the design card lays it out) or installed (the templates shipped inside the package as
`sitegen/templates`, see pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # the sitegen package
_TOP = PACKAGE.parent
# A checkout: the package sits beside build.py and templates/ (also an editable install).
CHECKOUT = _TOP if (_TOP / "build.py").is_file() and (_TOP / "templates").is_dir() else None
TEMPLATES = CHECKOUT / "templates" if CHECKOUT else PACKAGE / "templates"
# The interface strings a new site starts from (`axledger init`): the shipped content's.
I18N = CHECKOUT / "content" / "i18n" if CHECKOUT else PACKAGE / "i18n"


def protected() -> list[Path]:
    """Folders no build may replace, besides those of the content: the checkout (or the
    installed package, which keeps a build out of site-packages and the environment)."""
    return [CHECKOUT or PACKAGE]
