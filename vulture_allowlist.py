"""Names vulture reports as unused that are used, each with the reason (read by vulture only)."""

# The context manager protocol names __exit__'s parameters; they are unused by design.
exc_type
tb

# Textual's Visual protocol names get_optimal_width's parameters; CellWrapped needs only rules.
container_width
