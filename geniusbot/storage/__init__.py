"""Keeping matches: the plain-text match record (:mod:`geniusbot.storage.record`) and the database.

This package stays import-light on purpose: importing it must not pull in SQLAlchemy, so that the
record format (standard library only) serves the ``geniusbot adjudicate`` command and the tests
without a database driver. Import the SQLAlchemy modules of this package by their full names.
"""
