"""Chinese extraction: who a clause is about (``subjects``) and the rules of each family of
predicates (``rules`` dispatches to ``people``, ``tastes``, ``places``, ``work``,
``plans``, ``channels``)."""
