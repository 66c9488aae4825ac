"""Reading a theory: explanations (:mod:`.explain`), verification (:mod:`.verify`), display (:mod:`.show`)."""

__all__: list[str] = []
