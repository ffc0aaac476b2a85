"""Tools around the build for an editor: serve, check, new, init."""
