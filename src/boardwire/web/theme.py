"""The live view's colours: KiCad 9's default PCB editor theme ("KiCad Default",
``common/settings/builtin_color_themes.h``), as CSS hex, per layer name.

`layer_colour` gives a layer's colour (copper layers by their place in the stack:
the outer ones are always F.Cu red and B.Cu blue); `LAYER_ORDER` is the order the
view stacks the technical layers of each side (bottom first when looking from the
front)."""

from __future__ import annotations

BACKGROUND = "#001023"
F_CU, B_CU = "#c83434", "#4d7fc4"
INNER_CU = ["#7fc87f", "#ce7d2c", "#4fcbcb", "#db628b", "#a7a5c6", "#28cccc", "#e4d85b", "#a24b70"]
TECHNICAL = {
    "F.SilkS": "#f2eda1", "B.SilkS": "#e8b2a7",
    "F.Fab": "#afafaf", "B.Fab": "#585d84",
    "F.CrtYd": "#ff26e2", "B.CrtYd": "#26e9ff",
    "F.Mask": "#d864ff", "B.Mask": "#02ffee",
    "F.Paste": "#b4a09a", "B.Paste": "#00c2c2",
    "F.Adhes": "#840084", "B.Adhes": "#000084",
    "Edge.Cuts": "#d0d2cd", "Margin": "#ff26e2",
    "Dwgs.User": "#c2c2c2", "Cmts.User": "#5994dc",
    "Eco1.User": "#b4dbd2", "Eco2.User": "#d8c852",
}
VIA = "#ececec"  # through via
DRILL = "#1a1a1a"  # the drill itself: KiCad shows the background through it
RATSNEST = "#f5f5f5"
MARKER = {"error": "#ff3030", "warning": "#ffb000"}
ZONE_OPACITY = 1.0  # KiCad 9's default zone opacity (Appearance, "Zones")

# technical layers of one side, bottom to top as KiCad's front view stacks them
SIDE_LAYERS = {"front": ("F.Fab", "F.SilkS"), "back": ("B.Fab", "B.SilkS")}


def copper_colours(copper: list[str]) -> dict[str, str]:
    """The colour of each copper layer of a stack (front first)."""
    out = {}
    for i, name in enumerate(copper):
        out[name] = F_CU if i == 0 else B_CU if i == len(copper) - 1 else INNER_CU[(i - 1) % len(INNER_CU)]
    return out


def layer_colour(name: str) -> str:
    """A technical layer's colour (User.N and unknown layers: Dwgs.User's grey)."""
    return TECHNICAL.get(name, TECHNICAL["Dwgs.User"])
