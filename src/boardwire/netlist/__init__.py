"""Connectivity models: board copper and its ratsnest (`copper`); the schematic
hierarchy and its nets (`schematic`, built from `bus`, `hierarchy`, `symbols`,
`sheet_geometry`, `nets`, `net_names`)."""
