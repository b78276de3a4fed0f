"""The drawing toolkit the games' pictures share.

A game's picture lives in its own package (``Game.picture`` names it) and draws with these
modules; :func:`geniusbot.pictures.render_view` finds a game's picture and draws a view with it.
The toolkit reads no game (not the registry, not ``Outcome``): the pictures import it, never the
other way round.

What a picture uses, by module:

* :mod:`.palette`: the house palette. Every picture is a palette ("P") image with one fixed
  palette (``COLOURS`` by name, with blend ramps for the colour pairs drawn on each other);
  ``new_canvas`` gives a blank card, ``ink(name)`` a colour's index to draw with, ``rgb(name)``
  its value (what a test reads back).
* :mod:`.fonts`: the boards' font (the FONT_PATH setting, ``configure_font``) and what it can
  draw: ``drawable_text`` and ``drawable_name`` leave out what the font lacks, never a box.
* :mod:`.text`: one line of text, laid out from cached glyphs: ``draw_text`` (centred on a
  line, anchored left, middle or right, on a solid box of its background colour, or ``masked``
  over a pattern), ``text_width``, ``fit_text`` (cut with an ellipsis). Every text of every
  picture is drawn by ``draw_text``, said already by the card's words or marked ``notation``;
  ``listening`` hears them all (the pseudo-language test of the pictures).
* :mod:`.sprites`: cached pieces of picture. ``smooth_sprite`` paints a stone super-sampled
  onto a known background and maps it onto the palette; ``paste``, ``paste_centred`` and
  ``stamp`` (many at once) put sprites on the card; ``ghost_sprite``, ``arrow`` and
  ``triangle_right`` are the shapes several pictures share.
* :mod:`.grid`: ``coordinate_bands``, the letters above and below a square board and the
  numbers on its sides.
* :mod:`.layout`: the card around the board. The title and two player rows at the top
  (``HEADER_HEIGHT``; ``player_rows`` builds them from the view, ``draw_header`` draws them),
  the status line or the outcome banner at the bottom (``FOOTER_HEIGHT``, ``draw_footer``,
  ``outcome_line`` of the game's ``Outcome``), the card's words (``card_words``: a language and
  the seats' names as the font draws them; ``named``, ``heading``, ``dotted``).
* :mod:`.stones`: the skeleton of a stone board's card (``Board``: places, coordinates, stones by
  colour; ``draw_card``: the title with the move number, the rows, the footer).
* :mod:`.png`: the PNG encoder, which reuses the compressed bands a picture shares with the
  pictures before it; :func:`geniusbot.pictures.render_view` encodes with it.

A picture caches its static background (board, coordinates) and its sprites with
``functools.lru_cache``, draws the position onto a copy, and ends with the header and footer;
a new font (``configure_font``) empties those caches (``follow_font`` names the picture's package).
"""
