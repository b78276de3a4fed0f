"""The archive's own tools: replays of whole matches as files (``geniusbot replay``).

* :mod:`.steps`: the steps of a record file or a stored match, each as everyone may see it (the
  game's public view, the action in words, the clocks).
* :mod:`.gif`: those steps as an animated GIF, one frame per step, its frames stored as the
  differences from the frame before, in parts that each stay under Discord's upload limit.
* :mod:`.page` and :mod:`.page_steps`: the replay page, one self-contained HTML file, and its steps.
* :mod:`.cli`: the ``geniusbot replay`` command.

This package module imports nothing: the launcher builds ``replay``'s parser on every start.
"""
