"""The search for default rules and its runtime, shared by the ``defaults`` and ``lifted``
transformations: evidence sets (:mod:`.evidence`) and the rules found for them
(:mod:`.rule`), the search itself (:mod:`.rules`: what it is asked, :mod:`.rule_search`; its passes,
:mod:`.optima_pass` and :mod:`.rules_pass`; the second's forecast, :mod:`.forecast`; what a run reports and
where it runs, :mod:`.run`), the focus on evidence and query
predicates (:mod:`.focus`), classes of interchangeable evidence sets (:mod:`.symmetry`),
workers (:mod:`.workers`), checkpoints (:mod:`.checkpoint`) and progress (:mod:`.progress`)."""

from .focus import Focus
from .progress import Progress, ProgressInfo

__all__ = ["Focus", "Progress", "ProgressInfo"]
