"""A quiz played alone in a private chat."""
