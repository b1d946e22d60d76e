"""One package per feature: its routes, use cases, views and callback data."""
