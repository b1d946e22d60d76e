"""Callback data of the inline buttons the kernel's shared views build, or that several
features share (each class: ``bot.tg.callbackdata``); a button only one feature uses is that
feature's (its ``buttons.py``).

``bot.render.callbacks`` imports every module here, so every prefix is declared before the
first update arrives, and keeps the names existing code imports from it.
"""
