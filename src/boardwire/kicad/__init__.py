"""KiCad as a service: kicad-cli (the judge and the factory: `cli`, DRC and ERC in
`checks`, fabrication outputs in `fab`), the documents written where it reads them
(`snapshot`), and pcbnew in the system Python (zone filling, `pcbnew`)."""
