"""Parties' pages: the arena drawn live (SVG board, bots with strength and score, parties
as joined chips, the tick and its deadline), its events narrated (battles bout by bout),
the podium with 1st/2nd/3rd trophies, move buttons and the ally policy for a human seat,
and ``manage.py tournament`` (bots as separate processes over HTTP)."""
