"""The ``semaff`` command line: the composition root above both services.

The only package that imports both ``webhook`` (its analysers, for ``analyze``, ``eval`` and
``explain --hint``) and ``scorer`` (its scoring path, for ``explain``); neither service imports it.
"""
