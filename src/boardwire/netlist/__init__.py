"""Connectivity models: board copper (and the ratsnest), the schematic hierarchy and its nets."""
