"""Formulas: trees (:mod:`.formula`), pracmln syntax (:mod:`.syntax`), clause form (:mod:`.cnf`)."""

__all__: list[str] = []
