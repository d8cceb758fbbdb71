"""Wormlord's pages: the 7x7 board as SVG from the viewer's view, clicking a space to tie a
knot there (conquer or liberate) or to put the headquarters on it, the "3, 2, 1, NOW!"
countdown and the round clock counted in the browser, the sides' supplies and rounds won,
its events in plain words, and a live fragment the page re-fetches when the feed moves."""
