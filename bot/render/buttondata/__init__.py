"""Callback data of inline buttons, a module per feature (each class: ``bot.tg.callbackdata``).

``bot.render.callbacks`` imports every module here, so every prefix is declared before the
first update arrives, and keeps the names existing code imports from it.
"""
