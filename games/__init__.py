"""Pure rules engines, one package per ruleset. Nothing here imports Django or reads a clock."""
