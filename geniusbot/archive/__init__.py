"""The archive: replays of a match as an animated picture or a page, made from its log."""
