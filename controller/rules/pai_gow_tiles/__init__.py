"""Pai Gow Tiles: ``ranking`` (hands of two tiles), ``house_way`` (the House Way as data) and ``game``.
The tiles themselves are vocabulary: ``controller.tiles``."""
