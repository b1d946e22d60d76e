"""Homework: set in a group, taken privately, the card, results."""
