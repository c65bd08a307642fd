"""What the explorer's views show, computed by the engine: one module per view, numbers only (no drawing)."""
