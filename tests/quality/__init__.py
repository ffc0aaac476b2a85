"""Quality gates: browser, accessibility, HTML validity, links, reproducible builds."""
