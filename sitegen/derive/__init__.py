"""Stage 2, derive: the record's entities and every derived figure, claim check and reference."""
