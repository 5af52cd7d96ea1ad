"""What a catalogue part is in KiCad: its kind, its symbol and its footprint.

The kind comes from the catalogue's category and subcategory (LCSC's names). The
footprint comes from the package name through `FOOTPRINTS` (packages of every kind) and
`CHIP_SIZES` (two-terminal chips: imperial size code -> KiCad's metric name, as KiCad's
libraries name them, e.g. 0603 -> R_0603_1608Metric). The symbol of a passive is
KiCad's generic one in the Device library; an IC's symbol is found in the installed
libraries by its part number (see catalogue.symbol_for).
"""

from __future__ import annotations

import re

# category/subcategory words -> kind (first match wins; checked against subcategory first)
KINDS = (("led", ("light emitting", "led")), ("resistor", ("resistor",)),
         ("capacitor", ("capacitor",)), ("inductor", ("inductor", "ferrite")),
         ("crystal", ("crystal", "oscillator", "resonator")), ("fuse", ("fuse", "ptc")),
         ("diode", ("diode", "tvs", "zener", "rectifier")),
         ("transistor", ("transistor", "mosfet", "triode", "mos tube")),
         ("connector", ("connector", "header", "usb", "terminal")),
         ("switch", ("switch", "button")),
         ("regulator", ("regulator", "ldo", "dc-dc", "power management")))

# imperial chip size -> KiCad's metric code
CHIP_SIZES = {"0201": "0603Metric", "0402": "1005Metric", "0603": "1608Metric", "0805": "2012Metric",
              "1206": "3216Metric", "1210": "3225Metric", "1812": "4532Metric", "2010": "5025Metric",
              "2512": "6332Metric"}
CHIP_LIBRARY = {"resistor": ("Resistor_SMD", "R"), "capacitor": ("Capacitor_SMD", "C"),
                "inductor": ("Inductor_SMD", "L"), "led": ("LED_SMD", "LED"), "fuse": ("Fuse", "Fuse"),
                "diode": ("Diode_SMD", "D")}

# package (upper case, as LCSC writes it) -> footprint
FOOTPRINTS = {
    "SOT-223": "Package_TO_SOT_SMD:SOT-223-3_TabPin2",
    "SOT-223-3": "Package_TO_SOT_SMD:SOT-223-3_TabPin2",
    "SOT-23": "Package_TO_SOT_SMD:SOT-23",
    "SOT-23-3": "Package_TO_SOT_SMD:SOT-23",
    "SOT-23-3L": "Package_TO_SOT_SMD:SOT-23",
    "SOT-23-5": "Package_TO_SOT_SMD:SOT-23-5",
    "SOT-23-6": "Package_TO_SOT_SMD:SOT-23-6",
    "SOT-89": "Package_TO_SOT_SMD:SOT-89-3",
    "SOT-89-3": "Package_TO_SOT_SMD:SOT-89-3",
    "SOT-323": "Package_TO_SOT_SMD:SOT-323_SC-70",
    "SC-70": "Package_TO_SOT_SMD:SOT-323_SC-70",
    "SOT-363": "Package_TO_SOT_SMD:SOT-363_SC-70-6",
    "TO-252": "Package_TO_SOT_SMD:TO-252-2",
    "TO-252-2": "Package_TO_SOT_SMD:TO-252-2",
    "SOD-123": "Diode_SMD:D_SOD-123",
    "SOD-123F": "Diode_SMD:D_SOD-123F",
    "SOD-323": "Diode_SMD:D_SOD-323",
    "SOD-523": "Diode_SMD:D_SOD-523",
    "SMA": "Diode_SMD:D_SMA",
    "DO-214AC": "Diode_SMD:D_SMA",
    "SMB": "Diode_SMD:D_SMB",
    "DO-214AA": "Diode_SMD:D_SMB",
    "SMC": "Diode_SMD:D_SMC",
    "DO-214AB": "Diode_SMD:D_SMC",
    "SOIC-8": "Package_SO:SOIC-8_3.9x4.9mm_P1.27mm",
    "SOP-8": "Package_SO:SOIC-8_3.9x4.9mm_P1.27mm",
    "SO-8": "Package_SO:SOIC-8_3.9x4.9mm_P1.27mm",
    "SOIC-14": "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
    "SOP-14": "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
    "SOIC-16": "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
    "SOP-16": "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
    "MSOP-8": "Package_SO:MSOP-8_3x3mm_P0.65mm",
    "TSSOP-8": "Package_SO:TSSOP-8_4.4x3mm_P0.65mm",
    "TSSOP-20": "Package_SO:TSSOP-20_4.4x6.5mm_P0.65mm",
    "SSOP-20": "Package_SO:SSOP-20_5.3x7.2mm_P0.65mm",
    "SSOP-28": "Package_SO:SSOP-28_5.3x10.2mm_P0.65mm",
    "DIP-8": "Package_DIP:DIP-8_W7.62mm",
    "DIP-14": "Package_DIP:DIP-14_W7.62mm",
    "DIP-16": "Package_DIP:DIP-16_W7.62mm",
    "DIP-28": "Package_DIP:DIP-28_W7.62mm",
    "TQFP-32": "Package_QFP:TQFP-32_7x7mm_P0.8mm",
    "LQFP-48": "Package_QFP:LQFP-48_7x7mm_P0.5mm",
    "QFN-56": "Package_DFN_QFN:QFN-56-1EP_7x7mm_P0.4mm_EP3.2x3.2mm",
}

# kind -> generic Device symbol for two-terminal parts
SYMBOLS = {"resistor": "Device:R", "capacitor": "Device:C", "inductor": "Device:L", "led": "Device:LED",
           "diode": "Device:D", "fuse": "Device:Fuse", "crystal": "Device:Crystal"}


def kind_of(category: str, subcategory: str) -> str:
    """``resistor``, ``capacitor``, ... or ``ic`` (anything else)."""
    for text in (subcategory.lower(), category.lower()):
        for kind, words in KINDS:
            if any(w in text for w in words):
                return kind
    return "ic"


def _package_key(package: str) -> str:
    return re.sub(r"\s+", "", package.upper())


def footprint_for(package: str, kind: str) -> str | None:
    """The KiCad footprint (Library:Name) of a package, or None when the table has none.
    A package written with an alias, ``SMA(DO-214AC)``, is looked up by each name."""
    names = [n for n in re.split(r"[()]", _package_key(package)) if n]
    for key in names:
        found = _footprint(key, kind)
        if found:
            return found
    return None


def _footprint(key: str, kind: str) -> str | None:
    code = CHIP_SIZES.get(key)
    if code is not None and kind in CHIP_LIBRARY:
        lib, prefix = CHIP_LIBRARY[kind]
        return f"{lib}:{prefix}_{key}_{code}"
    return FOOTPRINTS.get(key)


def symbol_for_kind(kind: str, subcategory: str = "") -> str | None:
    """KiCad's generic symbol of a passive part kind (None for ICs and connectors)."""
    sub = subcategory.lower()
    if kind == "diode" and "schottky" in sub:
        return "Device:D_Schottky"
    if kind == "diode" and "zener" in sub:
        return "Device:D_Zener"
    if kind == "capacitor" and ("electrolytic" in sub or "tantalum" in sub):
        return "Device:C_Polarized"
    return SYMBOLS.get(kind)
