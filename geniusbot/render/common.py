"""The font settings under their old address, for callers outside the toolkit that import them
from here (the launcher's ``configure_font``, the settings' ``check_font``).

Everything else lives in the modules by job (see the package's docstring); import from those.
"""

from __future__ import annotations

from .fonts import check_font, configure_font, font, font_path

__all__ = ["check_font", "configure_font", "font", "font_path"]
