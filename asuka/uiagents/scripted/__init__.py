"""The scripted UI agent: a task's check steps run in Playwright (``agent.py``), one criterion at
a time (``criterion.py``), each step carried out (``steps.py``, ``assertions.py``) and, when its
locator or wording misses, the resolution ladder's deterministic rungs (``ladder.py``: relaxed
locators ``relax.py``, adaptive actions ``adapt.py``, records and panels ``structure.py``,
charts by geometry ``pointing.py``, downloads ``downloads.py``) before the model rungs
(``asuka.uiagents.grounding``)."""
