"""``python -m games.record verify FILE``: check a game's record offline."""

from __future__ import annotations

import sys

from games.record.verify import main

sys.exit(main(sys.argv[1:]))
