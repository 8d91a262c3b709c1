"""The grader's version: the package's __version__ (rlvr_grade/__init__.py hands it on), what
`rlvr-grade --version` prints, and part of every cached result's key (cache.py). Its own module,
so that a module of the package reads it without importing the package's face."""

__version__ = "0.1.0"
