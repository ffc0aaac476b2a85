"""The base layer any stage may use: errors, paths, languages, number and date formats, addresses, the cache store."""
