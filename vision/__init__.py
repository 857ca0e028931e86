"""Camera frame sources and the card recognizer.

Imports nothing from ``controller`` but the card vocabulary (``controller.cards``).
"""
