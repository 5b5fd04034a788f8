"""rollem for AI research (issue 30): the games as OpenSpiel and PettingZoo
environments. See docs/ai-research.md.

The core (:mod:`rollem.rl.state`, :mod:`rollem.rl.actions`,
:mod:`rollem.rl.chance`, :mod:`rollem.rl.tensors`) needs only rollem and
numpy; :mod:`rollem.rl.openspiel`, :mod:`rollem.rl.pettingzoo` and
:mod:`rollem.rl.policy` need the extra: ``pip install "rollem[rl]"``.
"""
