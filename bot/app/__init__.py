"""Composition: the Application built, its lifecycle, every service built in one place."""
