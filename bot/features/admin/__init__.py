"""Operators: /reload and SIGHUP."""
