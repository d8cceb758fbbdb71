"""LGGWG's page plug-in: the map with fog as SVG, the order-list builder, the step-by-step
account of the last resolution, the scoreboard, and the downloadable game record (.tak).
See README.md."""
