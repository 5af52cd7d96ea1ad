"""KiCad as a service: kicad-cli (the judge and the factory) and pcbnew in the system
Python (zone filling)."""
