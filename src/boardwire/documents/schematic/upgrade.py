"""Library definitions and placed symbols written up to a KiCad 10 schematic's format
(the reverse of `lib_entry.downgrade`, which writes them down to older formats).

Learned from the KiCad 10 schematics of ../shared/corpus (formats 20260101 to 20260326,
eeschema 10.0) and ``SEXPR_SCHEMATIC_FILE_VERSION``'s history (`versions`):

* a ``lib_symbols`` entry writes ``(in_pos_files yes)`` after ``on_board`` and
  ``(duplicate_pin_numbers_are_jumpers no)`` after that;
* a placed symbol writes ``(body_style 1)`` after ``unit`` and ``(in_pos_files yes)``
  after ``on_board``;
* every field writes ``(show_name no)`` and ``(do_not_autoplace no)`` and carries a
  hidden field's ``(hide yes)`` itself, no longer in its ``effects``: after ``at``
  come ``show_name``, ``do_not_autoplace``, ``hide`` in a library entry, and
  ``hide``, ``show_name``, ``do_not_autoplace`` on a placed symbol.

A library of KiCad 9 (what this machine has) gives none of these, so a KiCad 10 file
gets them here; lists that have them already keep theirs. The other way, a KiCad 10
library's symbol placed in an older schematic loses them (`upgrade` on an older
format): the flags at their defaults are dropped (``show_name no``,
``do_not_autoplace no``, ``in_pos_files``, ``duplicate_pin_numbers_are_jumpers no``,
``body_style 1``) and a field's ``(hide yes)`` goes back into its ``effects``, as
KiCad 9 writes it.
"""

from __future__ import annotations

from ...sexpr.node import SList
from ..sexpr_doc import make
from ..versions import schematic_has


def _relink(node: SList, kids: list) -> SList:
    out = SList(kids)
    for k in kids:
        if type(k) is SList:
            k.parent = out
    return out


def _insert_after(kids: list, after: tuple[str, ...], new: SList) -> None:
    if any(type(k) is SList and k.head == new.head for k in kids):
        return
    at = max((i for i, k in enumerate(kids) if type(k) is SList and k.head in after), default=None)
    kids.insert(len(kids) if at is None else at + 1, new)


def _field(prop: SList, placed: bool) -> SList:
    """A ``property`` with KiCad 10's flags, its hide moved out of its effects."""
    kids = list(prop.kids)
    hide = None
    for i, k in enumerate(kids):
        if type(k) is SList and k.head == "hide":
            hide = kids.pop(i)
            break
    for i, k in enumerate(kids):
        if type(k) is SList and k.head == "effects":
            inner = [e for e in k.kids if not (type(e) is SList and e.head == "hide")]
            gone = [e for e in k.kids if type(e) is SList and e.head == "hide"]
            if gone:
                kids[i] = _relink(k, inner)
                hide = hide or gone[0]
    if hide is not None and hide.atoms() and hide.atoms()[0] != b"yes":
        hide = None  # KiCad writes no (hide no)
    flags = [k for k in kids if type(k) is SList and k.head in ("show_name", "do_not_autoplace")]
    kids = [k for k in kids if not (type(k) is SList and k.head in ("show_name", "do_not_autoplace"))]
    # KiCad 9 wrote a set flag bare, (show_name); KiCad 10 writes (show_name yes)
    named = {k.head: (k.atoms()[0] if k.atoms() else b"yes") for k in flags}
    flags = [make("show_name", named.get("show_name", b"no")),
             make("do_not_autoplace", named.get("do_not_autoplace", b"no"))]
    hidden = [make("hide", b"yes")] if hide is not None else []
    run = hidden + flags if placed else flags + hidden
    at = next((i for i, k in enumerate(kids) if type(k) is SList and k.head == "at"), None)
    pos = 3 if at is None else at + 1
    kids[pos:pos] = run
    return _relink(prop, kids)


_DEFAULTS = {"show_name": b"no", "do_not_autoplace": b"no", "in_pos_files": b"yes",
             "duplicate_pin_numbers_are_jumpers": b"no", "body_style": b"1"}
_SINCE = {"show_name": "field_flags", "do_not_autoplace": "field_flags", "in_pos_files": "in_pos_files",
          "duplicate_pin_numbers_are_jumpers": "pin_jumpers", "body_style": "body_style"}


def _older(node: SList, version: int) -> SList:
    """``node`` without the KiCad 10 tokens a schematic of ``version`` lacks."""
    def keep(k) -> bool:
        if type(k) is not SList or k.head not in _SINCE or schematic_has(version, _SINCE[k.head]):
            return True
        vals = k.atoms()
        return not vals or vals[0] != _DEFAULTS[k.head]  # bare (show_name): yes

    changed = False
    kids = []
    for k in node.kids:
        if not keep(k):
            changed = True
            continue
        if type(k) is SList and k.head == "property" and k.find("hide") is not None \
                and k.find("effects") is not None:
            hide = k.find("hide")
            inner = [e for e in k.kids if e is not hide and not (type(e) is SList and not keep(e))]
            effects = next(e for e in inner if type(e) is SList and e.head == "effects")
            inner[inner.index(effects)] = _relink(effects, list(effects.kids) + [make("hide", *hide.atoms())])
            k, changed = _relink(k, inner), True
        elif type(k) is SList and k.head == "property" and any(not keep(e) for e in k.kids):
            k, changed = _relink(k, [e for e in k.kids if keep(e)]), True
        kids.append(k)
    return _relink(node, kids) if changed else node


def upgrade(node: SList, version: int, *, placed: bool, fields_only: bool = False) -> SList:
    """``node`` (a ``lib_symbols`` entry, or with ``placed`` a placed ``symbol``; with
    ``fields_only`` any item with fields, a sheet) with the tokens a schematic of
    ``version`` writes that a KiCad 9 library or item lacks; the node itself for older
    formats. No whitespace is kept (it is laid out on insert)."""
    if not schematic_has(version, "field_flags"):
        return _older(node, version)
    kids = [_field(k, placed) if type(k) is SList and k.head == "property" else k for k in node.kids]
    if fields_only:
        return _relink(node, kids)
    if placed and schematic_has(version, "body_style"):
        _insert_after(kids, ("unit",), make("body_style", b"1"))
    if schematic_has(version, "in_pos_files"):
        _insert_after(kids, ("on_board",), make("in_pos_files", b"yes"))
    if not placed and schematic_has(version, "pin_jumpers"):
        _insert_after(kids, ("on_board", "in_pos_files"), make("duplicate_pin_numbers_are_jumpers", b"no"))
    return _relink(node, kids)
