"""The command line: a thin door over the documents (and later the registry)."""
