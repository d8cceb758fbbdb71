"""Worms' pages: the SVG/PNG board, the status panel, the turn controls (walk, fire, end,
surrender), the shopping-list sign-up, the narration of its events and the forum post."""
