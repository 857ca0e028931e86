"""Top Card (a Casino War variation): ``game`` (the rules and pay tables), ``edge`` (exact edge per wager)."""
