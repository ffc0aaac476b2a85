"""Stage 1, content: read and validate the content folder (the record and the curated facts on it) into one Site."""
