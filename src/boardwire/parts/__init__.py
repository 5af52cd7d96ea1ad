"""Parts catalogues: sources (imported JLCPCB/LCSC catalogues, the installed KiCad
libraries), their local SQLite index, the package -> KiCad footprint table, and the
compact line tables results are given in."""
