"""Device drivers: protocols, transports, device behaviour and simulators.

Imports nothing from ``controller`` but the card vocabulary (``controller.cards``).
"""
