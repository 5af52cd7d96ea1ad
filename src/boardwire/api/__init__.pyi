"""Type stubs of boardwire.api, generated from the registry by
`python -m boardwire.api.stubs > src/boardwire/api/__init__.pyi`; do not edit."""

import os
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Literal, NotRequired, Sequence, TypedDict

from boardwire.errors import BoardwireError as BoardwireError
from boardwire.session import Session

class Transaction:
    label: str
    new_ids: list[str]

class Namespace:
    commands: dict[str, str]

def connect(root: str | os.PathLike[str] = ".", *, board: str | os.PathLike[str] | None = None,
            schematic: str | os.PathLike[str] | None = None) -> Session: ...
def use(session: Session, *, board: str | os.PathLike[str] | None = None,
        schematic: str | os.PathLike[str] | None = None) -> Session: ...
def current() -> Session: ...
def save(*, force: bool = False, session: Session | None = None) -> list[str]: ...
def run(command_id: str, args: dict[str, Any] | None = None, /, **kwargs: Any) -> dict[str, Any]: ...
def transaction(label: str = "script transaction") -> AbstractContextManager[Transaction]: ...
def refresh() -> None: ...

namespaces: dict[str, Namespace]


class _Agreement(TypedDict):
    kicad: int
    builtin: int
    both: int
    only_kicad: list[dict[str, Any]]  # KiCad's report entries
    only_builtin: list[dict[str, Any]]

_Annotation = TypedDict('_Annotation', {
    'sheet': str,
    'from': str,
    'to': str,
    'id': str,
})

class _AuditExport(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    calls: NotRequired[list[dict[str, Any]]]  # report json: the log's lines
    markdown: NotRequired[str]  # report markdown: the report

class _Autoplaced(TypedDict):
    summary: str  # One line saying what happened
    overlaps: int  # Courtyard pairs overlapping
    overlapping: list[list[str]]  # The pairs (the first 50)
    overlaps_ignored_by_project: bool
    off_board: int
    off_board_parts: list[str]
    on_art: int  # Parts with a pad on copper or mask art not theirs
    on_art_parts: list[str]
    ratsnest_length: float  # mm
    routability: float  # 0..1
    peak_demand: float
    crossings: int  # Ratsnest crossings
    decoupling: list[_DecouplingCap]
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    moved: int
    moved_references: list[str]
    unplaced: list[str]  # Found no free spot; left where they were
    locked: list[str]
    legends_moved: int
    legends_unplaced: list[str]
    seconds: float  # s
    off_board_fixed: list[str]  # Parts off the board that were not placed here
    route_trials: NotRequired[list[_TrialRoute]]
    trial_kept: NotRequired[int | None]  # 1-based (null when no trial ran)

class _Autorouted(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    routed: int
    total: int
    completion: float  # percent
    unrouted: list[_UnroutedConnection]  # The first 200
    segments: int
    vias: int
    length: float  # Track added, mm
    seconds: float  # s
    pitch: float  # The routing grid, mm
    engine: str  # The router that ran (`layout.route.engines`)
    violations: list[_RouteViolation]  # Items the router's own check failed (the first 200)

class _BackAnnotated(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    dry_run: bool
    changed: list[_SheetChange]
    unlinked: list[str]  # Footprints linked to no symbol
    unannotated: list[str]

class _Batch(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    results: list[dict[str, Any]]  # Each step's result, in order (its command's result)

class _BoardInfo(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    port: str
    chip: str
    description: str
    features: list[str]
    crystal_mhz: float
    mac: str
    board_id: str  # The MAC
    revision: NotRequired[str]
    flash_size: NotRequired[str | None]

class _BoardItem(TypedDict):
    """One board item: the keys its kind has (footprint, track, via, zone, text, drawing)."""
    kind: str
    id: NotRequired[str]
    ref: NotRequired[str]  # Footprint reference
    value: NotRequired[str]
    lib_id: NotRequired[str]
    at: NotRequired[list[float]]  # [x, y] mm
    angle: NotRequired[float]  # degrees
    side: NotRequired[str]  # front or back
    pads: NotRequired[int]
    start: NotRequired[list[float]]  # [x, y] mm
    end: NotRequired[list[float]]  # [x, y] mm
    mid: NotRequired[list[float]]  # [x, y] mm
    center: NotRequired[list[float]]  # [x, y] mm
    width: NotRequired[float]  # mm
    layer: NotRequired[str]
    size: NotRequired[float]  # Via diameter, mm
    drill: NotRequired[float]  # mm
    layers: NotRequired[list[str]]
    type: NotRequired[str]  # Via type: blind, micro (through is left out)
    name: NotRequired[str]  # Zone name
    corners: NotRequired[int]  # Zone outline corners
    filled: NotRequired[bool]
    keepout: NotRequired[bool]
    text: NotRequired[str]
    net: NotRequired[str]

class _Bom(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    files: list[_FileWritten]
    revision: int
    source: Literal['schematic', 'board']

class _Boot(TypedDict):
    boot: int  # Boot number (0: before the first seen)
    seq: int  # Its first line
    t: float  # s
    cause: str
    reason: NotRequired[str]
    reset: NotRequired[str]  # The reason's category
    rom: NotRequired[str]
    panic: NotRequired[str]

class _BuildBrief(TypedDict):
    summary: str
    size: NotRequired[_ImageSize]
    diagnostics: NotRequired[list[_Diagnostic]]

class _Built(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    version: str  # The version folder, OUT/NAME/vNNN
    schematic: str | None
    board: str | None
    stages: list[_StageRow]
    verdict: _Verdict | None

# One value changed, as ``from`` and ``to``.
_Change = TypedDict('_Change', {
    'from': str,
    'to': str,
})

class _ChatAsked(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    chatId: str
    listening: bool

class _ChatEdit(TypedDict):
    path: str
    revision: int
    label: str
    actor: str

class _ChatReplied(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    state: Literal['pending', 'running', 'done', 'error']
    edits: int  # Edits counted for the request

class _ChatRequest(TypedDict):
    chatId: str
    text: str
    path: str | None
    at: float  # Unix time

class _ChatRequests(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    requests: list[_ChatState]
    listening: bool

class _ChatState(TypedDict):
    chatId: str
    text: str
    path: str | None
    at: float  # Unix time
    state: Literal['pending', 'running', 'done', 'error']
    takenBy: str | None
    answer: str
    progress: str
    percent: float | None  # 0..100
    error: str | None
    edits: list[_ChatEdit]

class _ChatTaken(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    requests: list[_ChatRequest]

class _ConnectCounts(TypedDict):
    wire: int
    label: int
    power: int
    no_connect: int

class _Connected(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    counts: _ConnectCounts  # Items added
    overlaps: list[str]  # Overlaps left (the first 20)
    unplaced: list[str]  # Pins whose label still overlaps (the first 20)
    flags_missing: list[str]  # Power nets left without the PWR_FLAG they need (no room): ERC will report their power inputs undriven
    off_page: list[str]  # Items outside the paper's frame or on the title block (the first 20)

class _Connectivity(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    total: int  # Rows that match, all pages
    offset: int  # Index of the first row shown
    nets: list[_SchematicNet]

class _Courtyard(TypedDict):
    min: list[float]  # [x, y] mm
    max: list[float]  # [x, y] mm
    size: list[float]  # [x, y] mm

class _Created(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    id: str  # The new item's id (uuid)

class _DanglingEnd(TypedDict):
    index: int  # Of the point
    at: list[float]  # [x, y] mm

class _Decoupling(TypedDict):
    """A decoupling capacitor measured to the IC pin it serves (the design's ``constraints.decouple``, else assigned as pcb.autoplace assigns it)."""
    ref: str
    pin: str  # REF.PIN it serves
    net: str
    distance_mm: float  # Its supply pad to the pin's nearest pad, copper edge to edge
    target_mm: float  # 2 for a small capacitor, 5 for a bulk one (4.7 uF and more)
    beyond: bool  # distance_mm > target_mm

class _DecouplingCap(TypedDict):
    """A decoupling capacitor and the IC pin it serves (given by ``decouple``, else assigned: layout/place/decoupling.py)."""
    capacitor: str
    ic: str
    pin: str  # REF.PIN it serves
    net: str
    distance: float  # Its supply pad to the pin's nearest pad, copper edge to edge (mm)
    target: float  # mm: 2 for a small capacitor, 5 for a bulk one (4.7 uF and more)
    beyond: bool  # distance > target

class _Deleted(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    deleted: list[str]  # Ids

class _DesignBrief(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    text: str  # The schema as compact text: the text content over MCP, for clients that show no structuredContent
    schema: dict[str, Any]  # The design document's JSON Schema
    checks: str
    stages: list[str]
    rules: str
    example: dict[str, Any]

class _DesignChecked(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    ok: bool
    errors: list[_DesignFinding]
    warnings: list[_DesignFinding]
    components: str  # Line table: ref, symbol, footprint, value, lcsc
    power: list[str]

class _DesignFinding(TypedDict):
    code: str
    where: str
    message: str
    fix: str

class _Device(TypedDict):
    port: str
    vid: NotRequired[str]
    pid: NotRequired[str]
    serial_number: NotRequired[str]
    description: NotRequired[str]
    vendor: NotRequired[str]
    board_id: NotRequired[str]  # The MAC, once read
    chip: NotRequired[str]
    lease: NotRequired[_Lease]
    monitors: NotRequired[list[_MonitorHolder]]

class _Devices(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    devices: list[_Device]

class _Diagnostic(TypedDict):
    level: str  # error, warning, note
    message: str
    file: NotRequired[str]
    line: NotRequired[int]
    column: NotRequired[int]
    code: NotRequired[str]
    rendered: NotRequired[str]

class _DiffPair(TypedDict):
    positive: str
    negative: str
    length_p: float  # mm
    length_n: float  # mm
    skew: float  # mm

class _DiffPairs(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    pairs: list[_DiffPair]

class _Doctor(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    tools: list[_Tool]
    bare_metal_esp32c3: bool  # The bare-metal ESP32-C3 template builds here

class _DocumentDescribed(TypedDict):
    """A board's or a schematic's one-screen summary: the keys of its kind."""
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    format: int | None  # The file's format version
    counts: dict[str, int]
    size_mm: NotRequired[list[float] | None]  # Board: [width, height] mm of the outline (null without one)
    outline_bbox: NotRequired[list[float] | None]  # [x1, y1, x2, y2] mm
    copper_layers: NotRequired[list[str]]
    unrouted: NotRequired[int]
    unrouted_by_net: NotRequired[dict[str, int]]  # Board: the nets with most unrouted
    design_rules: NotRequired[dict[str, float]]  # Board: minimum rules, mm
    net_classes: NotRequired[list[str | None]]
    title: NotRequired[str | None]
    power_nets: NotRequired[list[str]]
    sheets: NotRequired[list[dict[str, Any]]]  # Schematic: path, file, symbols (the first 12)
    sheets_more: NotRequired[int]
    largest_nets: NotRequired[list[dict[str, Any]]]  # Schematic: net, pins
    missing_sheets: NotRequired[list[str]]

class _DocumentInfo(TypedDict):
    path: str
    kind: str  # board, schematic, symbol_library, footprint, library_table, design_rules, project, worksheet
    revision: int
    modified: bool  # Unsaved changes
    undo: int  # Undo steps kept
    redo: int

class _DocumentResult(TypedDict):
    summary: str  # One line saying what happened
    path: str
    kind: str  # board, schematic, symbol_library, footprint, library_table, design_rules, project, worksheet
    revision: int
    modified: bool  # Unsaved changes
    undo: int  # Undo steps kept
    redo: int
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many

class _Documents(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    root: str  # The working directory
    documents: list[_DocumentInfo]

class _Done(TypedDict):
    """A summary and nothing else."""
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many

class _Drc(TypedDict):
    summary: str  # One line saying what happened
    violations: list[_DrcViolation] | str  # rows; a line table (one string) when the call's format is table
    unconnected: list[_Unconnected] | str  # rows; a line table (one string) when the call's format is table
    parity: list[_ParityIssue] | str  # rows; a line table (one string) when the call's format is table
    counts: _DrcCounts
    by_type: dict[str, int]  # Violations per type
    kicad_version: str | None
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: int
    unsaved: NotRequired[list[str]]  # Documents judged as they are in memory that differ from their files on disk (session.save writes them; kicad-cli run on the files would judge the saved ones)
    engine: NotRequired[Literal['builtin']]  # engine builtin: the built-in rules ran
    unsupported_rules: NotRequired[list[str]]  # engine builtin: custom rules it skipped
    builtin: NotRequired[_DrcReport]  # engine both: the built-in engine's report
    agreement: NotRequired[dict[str, _Agreement]]  # engine both: per built-in rule

class _DrcCount(TypedDict):
    errors: int
    warnings: int
    unconnected: int
    parity: int

class _DrcCounts(TypedDict):
    """Of every finding, not only those listed: errors and warnings are severities over violations, unconnected items and parity issues alike."""
    violations: int
    unconnected: int
    parity: int
    errors: int
    warnings: int
    library_checks: int  # Library parity findings (lib_footprint_issues...)

class _DrcItem(TypedDict):
    id: str | None
    description: str | None
    at: list[float] | None  # [x, y] mm

class _DrcReport(TypedDict):
    violations: list[_DrcViolation] | str  # rows; a line table (one string) when the call's format is table
    unconnected: list[_Unconnected] | str  # rows; a line table (one string) when the call's format is table
    parity: list[_ParityIssue] | str  # rows; a line table (one string) when the call's format is table
    counts: _DrcCounts
    by_type: dict[str, int]  # Violations per type
    kicad_version: str | None

class _DrcViolation(TypedDict):
    type: str | None
    severity: str | None
    description: str | None
    items: list[_DrcItem]

class _DsnWritten(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    output: str
    bytes: int

class _EdgeDistance(TypedDict):
    ref: str
    mm: float

class _Edited(TypedDict):
    """The base of edit results: what the registry and the edit hooks add."""
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state

class _Erased(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    chip: str
    esptool: list[str]

class _Erc(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    violations: list[_ErcViolation] | str  # rows; a line table (one string) when the call's format is table
    counts: _ErcCounts
    by_type: dict[str, int]
    by_sheet: dict[str, int]  # Violations per sheet instance path
    kicad_version: str | None
    missing_sheets: NotRequired[list[str]]
    revision: int

class _ErcCount(TypedDict):
    errors: int
    warnings: int

class _ErcCounts(TypedDict):
    violations: int
    errors: int
    warnings: int
    library_checks: int

class _ErcItem(TypedDict):
    id: NotRequired[str]
    description: NotRequired[str]
    at: NotRequired[list[float]]  # [x, y] mm

class _ErcViolation(TypedDict):
    type: str | None
    severity: str | None
    description: str | None
    sheet: str | None  # Sheet instance path
    items: list[_ErcItem]

class _ErrorInfo(TypedDict):
    code: str
    message: str
    hint: NotRequired[str]
    data: NotRequired[dict[str, Any]]
    needs_human: NotRequired[dict[str, Any]]

class _FabDrc(TypedDict):
    violations: int
    unconnected: int
    parity: int
    errors: int
    warnings: int
    library_checks: int  # Library parity findings (lib_footprint_issues...)
    blocking: int  # Findings that block the package (forced past when not 0)

class _FabFiles(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    files: list[_FileWritten]
    revision: int

class _FeedbackItem(TypedDict):
    id: str | None
    description: str
    at: list[float]  # [x, y] mm

class _FieldSet(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    sheet: NotRequired[str]  # Reference: the sheet instance whose reference changed
    shared_by: NotRequired[list[str]]  # Sheet instances sharing the change

class _FileWritten(TypedDict):
    path: str  # Relative to the working directory
    bytes: int

class _Filled(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    zones: int  # Zones filled

class _FirmwareBuilt(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    ok: bool
    command: list[str]
    seconds: float  # s
    diagnostics: list[_Diagnostic]  # The first 50
    size: NotRequired[_ImageSize]
    elf: NotRequired[str]

class _FirmwareCreated(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    dir: str
    framework: str
    files: list[str]  # The first 50
    bound: dict[str, str]  # port, id

class _FlashBrief(TypedDict):
    chip: str
    written: list[_Written]

class _Flashed(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    chip: str
    written: list[_Written]
    esptool: list[str]  # esptool's last lines
    boot: NotRequired[_Boot | None]  # The boot that followed, null if none within 3 s
    build: NotRequired[_BuildBrief]

class _Flipped(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    side: str  # front or back

class _FootprintKept(TypedDict):
    ref: str
    board: str  # The board's library id
    symbol: str  # The symbol's Footprint field

class _FootprintResult(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    kind: str
    id: NotRequired[str]
    ref: str
    value: NotRequired[str]
    lib_id: NotRequired[str]
    at: list[float]  # [x, y] mm
    angle: float  # degrees
    side: str
    fields: dict[str, str]
    pads: list[_PadOfFootprint]
    attributes: list[str]
    texts: list[_FootprintText]

_FootprintSwap = TypedDict('_FootprintSwap', {
    'from': str,
    'to': str,
    'ref': str,
    'dropped_pads': NotRequired[list[str]],  # Pads without a match: their nets are dropped
})

class _FootprintText(TypedDict):
    name: str  # Field name, or user for a free text
    text: str
    id: str | None
    at: list[float]  # [x, y] mm
    angle: float  # degrees
    layer: str | None
    visible: bool

class _Gerbers(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    files: list[_FileWritten]
    revision: int
    layers: list[str]
    options: _PlotOptions

class _Image(TypedDict):
    mime_type: str
    data: str  # base64

class _ImageSize(TypedDict):
    image: str
    bytes: int
    limit: NotRequired[int]  # Bytes of the app partition
    free: NotRequired[int]
    used_percent: NotRequired[float]
    limit_from: NotRequired[str]

class _Items(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    total: int  # Rows that match, all pages
    offset: int  # Index of the first row shown
    items: list[_BoardItem] | str  # rows; a line table (one string) when the call's format is table

class _ItemsDeleted(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    dangling: NotRequired[list[list[float]]]  # Wire ends left dangling ([x, y] mm)
    deleted: list[str]  # Ids

class _JobInfo(TypedDict):
    job: str
    command: str
    state: Literal['running', 'done', 'failed', 'cancelled']
    progress: float  # 0..1
    tail: list[str]  # Its last output lines
    seconds: float  # s
    error: NotRequired[_ErrorInfo]

class _JobResult(TypedDict):
    summary: str  # One line saying what happened
    job: str
    command: str
    state: Literal['running', 'done', 'failed', 'cancelled']
    progress: float  # 0..1
    tail: list[str]  # Its last output lines
    seconds: float  # s
    error: NotRequired[_ErrorInfo]
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many

class _JobStatus(TypedDict):
    """With ``job``: that job's fields; without: ``jobs``."""
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    job: NotRequired[str]
    command: NotRequired[str]
    state: NotRequired[Literal['running', 'done', 'failed', 'cancelled']]
    progress: NotRequired[float]  # 0..1
    tail: NotRequired[list[str]]
    seconds: NotRequired[float]  # s
    error: NotRequired[_ErrorInfo]
    jobs: NotRequired[list[_JobInfo] | str]  # rows; a line table (one string) when the call's format is table

class _LabelRow(TypedDict):
    kind: str  # label, global_label, hierarchical_label, sheet_pin
    text: str
    sheet: str
    at: list[float]  # [x, y] mm
    net: NotRequired[str]
    id: NotRequired[str]
    bus: NotRequired[bool]

class _Labelled(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    id: str  # The new item's id (uuid)
    connects: list[str]  # What the point connects to
    dangling: NotRequired[bool]

class _Labels(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    total: int  # Rows that match, all pages
    offset: int  # Index of the first row shown
    labels: list[_LabelRow]

class _Lease(TypedDict):
    holder: str
    since: float  # Unix time

class _LengthGroup(TypedDict):
    rule: str
    condition: str
    constraints: dict[str, dict[str, str]]  # As written: {"length": {"min": "10mm"}}
    nets: list[_NetLength]

class _LengthGroups(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    groups: list[_LengthGroup]

class _LibAdded(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    libraries: list[_LibAddedRow]
    nicknames: list[str]  # The nicknames added, symbol libraries first
    tables: list[str]  # Library tables written (created if absent), workspace-relative
    folder: NotRequired[str]  # Where an archive was extracted (or loose footprints gathered)
    models: int  # 3D models (.step, .wrl) the library holds
    models_relinked: int  # Footprint model paths pointed at the library's own models
    left_out: NotRequired[list[str]]  # Other files of the source (datasheets, KiCad 5 .lib): not registered

class _LibAddedRow(TypedDict):
    nickname: str  # The library's name in its table (Nickname:Item ids)
    kind: Literal['symbol', 'footprint']
    uri: str  # As written in the table: ${KIPRJMOD}/...
    items: int  # Symbols in the file, or footprints in the folder

class _LibFootprint(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    id: str
    description: str
    tags: str
    attributes: list[str]
    fields: dict[str, str]
    courtyard: dict[str, _Courtyard]  # Per courtyard layer
    pads: list[_LibPad]
    models: list[str]

class _LibNewFootprint(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    id: str  # LIBRARY:NAME
    path: str  # The .kicad_mod written, workspace-relative
    pads: int
    courtyard: list[float]  # [width, height] mm
    sources: list[str]  # Where the dimensions come from
    table: NotRequired[str]  # The library table the library was added to (when it was not in one)

class _LibNewSymbol(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    id: str  # LIBRARY:NAME
    path: str  # The .kicad_sym written, workspace-relative
    body: list[float]  # [width, height] mm
    sides: dict[str, list[str]]  # left/right/top/bottom -> pin numbers, top to bottom / left to right
    table: NotRequired[str]  # The library table the library was added to (when it was not in one)

class _LibPad(TypedDict):
    number: str
    type: str
    shape: str
    at: list[float]  # [x, y] mm
    angle: NotRequired[float]  # degrees
    size: NotRequired[list[float]]  # [x, y] mm
    drill: NotRequired[float | list[float]]  # mm, or [w, h] mm for an oval
    layers: list[str]

class _LibPin(TypedDict):
    number: str
    name: str
    type: str  # Electrical type
    unit: int  # 0: common to all units
    at: list[float]  # [x, y] mm
    orientation: float  # degrees
    length: float  # mm
    hidden: NotRequired[bool]

class _LibRow(TypedDict):
    kind: Literal['symbol', 'footprint']
    id: str  # Library:Name
    description: str
    keywords: NotRequired[str]
    pins: NotRequired[int]
    pads: NotRequired[int]
    units: NotRequired[int]

class _LibSearch(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    total: int  # Rows that match, all pages
    offset: int  # Index of the first row shown
    items: list[_LibRow] | str  # rows; a line table (one string) when the call's format is table
    skipped_libraries: NotRequired[list[str]]

class _LibSymbol(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    id: str
    description: str
    keywords: str
    footprint_filters: list[str]
    units: int
    body_styles: int
    power: bool
    fields: dict[str, str]
    pins: list[_LibPin]
    extends: NotRequired[str]
    unit_names: NotRequired[dict[str, str]]

_Link = TypedDict('_Link', {
    'net': str,
    'from': str,  # REF.PAD
    'to': str,
    'from_at': list[float],  # [x, y] mm
    'to_at': list[float],  # [x, y] mm
    'length': float,  # mm
})

class _LiveStatus(TypedDict):
    """The board's attach to a running KiCad PCB editor (session.live)."""
    attached: bool
    path: str | None
    editor: str  # KiCad's version
    kicad_commits: int  # Edits mirrored into KiCad
    kicad_edits_taken: int  # A person's edits in KiCad taken in
    unmirrored: int  # Items KiCad's API could not carry (shown after a save)
    reason: NotRequired[str]  # Why it detached

class _Mcu(TypedDict):
    reference: str
    value: NotRequired[str]
    lib_id: NotRequired[str]

class _McuPin(TypedDict):
    number: str
    name: str
    type: str
    gpio: NotRequired[int]
    net: NotRequired[str]
    power: NotRequired[bool]
    on_net: NotRequired[list[str]]  # What is on the net, one phrase per part
    parts: NotRequired[list[str]]  # REF.PIN of the other pins on the net

class _McuPins(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    schematic: str
    mcu: _Mcu
    pins: list[_McuPin]
    lines: list[str]  # One line per pin that is not power

class _MonitorHolder(TypedDict):
    session: str
    holder: str

class _MonitorInfo(TypedDict):
    summary: str  # One line saying what happened
    session: str
    port: str
    holder: str
    lines: int  # Lines read so far
    boots: int
    ended: bool
    recording: NotRequired[str]
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    reset: NotRequired[bool]  # The board was reset at the start

class _MonitorRead(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    session: str
    events: list[dict[str, Any]]  # Lines: seq, t, kind, text, level; repeats counted; panics decoded
    text: str  # The events as text
    next: int  # The cursor to read on from
    boots: list[_Boot]
    boot_summary: str
    ended: bool
    reset_loop: NotRequired[_ResetLoop]
    truncated: NotRequired[bool]
    matched: NotRequired[dict[str, Any]]  # The until pattern or the expectations matched

class _MonitorWritten(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    session: str
    bytes: int

class _Moved(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    at: list[float]  # Where it is now, [x, y] mm (a footprint's anchor)

class _NetClass(TypedDict):
    """A net class as KiCad keeps it (its project's keys; sizes mm)."""
    name: str

class _NetClassSet(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    netclass: _OpenRow  # The class as the project now holds it (mm)
    project: str

class _NetClasses(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    netclasses: list[_NetClass]

class _NetLength(TypedDict):
    net: str
    length: float  # mm

class _NetRow(TypedDict):
    net: str
    number: int
    pads: int
    tracks: int  # Segments and arcs
    vias: int

class _Nets(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    total: int  # Rows that match, all pages
    offset: int  # Index of the first row shown
    nets: list[_NetRow] | str  # rows; a line table (one string) when the call's format is table

class _NewViolation(TypedDict):
    """A DRC violation the edit introduced (boardwire's built-in rules)."""
    rule: str  # KiCad's violation type, e.g. clearance
    severity: str
    description: str
    items: list[_FeedbackItem]
    at: list[float]  # [x, y] mm
    actual_mm: NotRequired[float]  # What the board has, mm
    required_mm: NotRequired[float]  # What the rule asks, mm
    layer: NotRequired[str]

class _NoConnect(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    id: str  # The new item's id (uuid)
    pins: list[str]

class _OpenRow(TypedDict):
    """An object whose keys are another program's (KiCad's net class settings, a raw report entry): only the keys named here are typed."""

class _Package(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    files: list[_FileWritten]
    revision: int
    zip: _FileWritten
    groups: dict[str, list[str]]  # gerbers, drill, positions, bom: their paths
    layers: list[str]
    bom_source: Literal['schematic', 'board']
    options: _PlotOptions
    preset: Literal['generic', 'jlcpcb']
    drc: _FabDrc
    unsaved: NotRequired[list[str]]  # Documents judged as they are in memory that differ from their files on disk (session.save writes them; kicad-cli run on the files would judge the saved ones)

_PadNetChange = TypedDict('_PadNetChange', {
    'from': str,
    'to': str,
    'ref': str,
    'pad': str,
})

class _PadOfFootprint(TypedDict):
    number: str
    type: str
    shape: str
    at: list[float]  # Board position [x, y] mm
    size: list[float]  # [w, h] mm
    layers: list[str]
    net: NotRequired[str]

class _PadRow(TypedDict):
    number: str
    reference: str
    id: NotRequired[str]
    type: str
    shape: str
    at: list[float]  # [x, y] mm
    angle: float  # Absolute, degrees 0..360
    size: list[float]  # [x, y] mm
    layers: list[str]
    net: NotRequired[str]
    bbox: list[float]  # [x1, y1, x2, y2] mm in board axes
    drill: NotRequired[list[float]]  # [w, h] mm

class _Pads(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    total: int  # Rows that match, all pages
    offset: int  # Index of the first row shown
    pads: list[_PadRow] | str  # rows; a line table (one string) when the call's format is table

class _PaperSet(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    paper: str  # The paper size now set
    previous: str | None  # The paper size before
    off_page: list[str]  # Items outside the frame or on the title block on that paper (the first 20)

class _ParityIssue(TypedDict):
    type: str | None
    description: str | None

class _PartFields(TypedDict):
    LCSC: str
    MPN: str | None
    Manufacturer: str | None

class _PartPin(TypedDict):
    number: str | None
    name: str | None
    type: str | None
    unit: int | None
    pad: str | None

class _PartRow(TypedDict):
    lcsc: str | None
    mpn: str | None
    package: str | None
    tier: str | None
    stock: int | None
    usd: float | None
    footprint: str | None
    description: str | None

class _PartsImported(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    rows: int
    added: int
    replaced: int
    total: int  # Parts in the catalogue

class _PartsPins(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    table: NotRequired[str]  # format lines: the line table
    chosen: NotRequired[int | None]  # format json: the index of the row a build picks
    cut: NotRequired[int]  # format json: rows left out
    symbol: str
    footprint: str | None
    pads_without_pin: list[str]
    pins_without_pad: list[str]
    rows: NotRequired[list[_PartPin]]
    fields: NotRequired[_PartFields]
    catalogue: NotRequired[str]  # The catalogue the part came from (as parts.search's)

class _PartsSearch(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    table: NotRequired[str]  # format lines: the line table
    chosen: NotRequired[int | None]  # format json: the index of the row a build picks
    cut: NotRequired[int]  # format json: rows left out
    total: int
    match: Literal['all', 'some', 'none']
    catalogue: str  # The catalogue searched: "imported (N parts)", "bundled sample (N parts)" (no catalogue imported yet) or "none imported"
    rows: NotRequired[list[_PartRow]]
    missing: NotRequired[bool]  # No row has every word
    library_candidates: NotRequired[list[_LibRow]]

class _PcbUpdated(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    dry_run: bool
    added: list[str]  # References of the footprints added
    references_changed: list[_Change]
    footprints_swapped: list[_FootprintSwap]
    nets_changed: list[_PadNetChange]
    nets_renamed: list[_Change]
    values_changed: list[_RefChange]
    deleted: list[str]
    extra_footprints: list[str]  # Footprints without a symbol, kept
    relinked: NotRequired[list[str]]
    footprints_differ: NotRequired[list[_FootprintKept]]  # swap false: kept with another library id
    problems: NotRequired[list[_Problem]]

class _PinAt(TypedDict):
    number: str
    at: list[float]  # [x, y] mm

class _PinRow(TypedDict):
    number: str
    name: str
    type: str  # Electrical type
    at: list[float]  # On the sheet, [x, y] mm
    net: NotRequired[str]
    unit: int
    hidden: NotRequired[bool]
    sheet: NotRequired[str]  # When the reference is on several sheet instances

class _Pins(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    reference: str
    value: str
    lib_id: str
    sheets: list[str]
    pins: list[_PinRow]

class _Placed(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    id: str  # The new item's id (uuid)
    pads: int
    new_nets: list[str]  # Nets the board did not have (often a typo)

class _PlotOptions(TypedDict):
    protel_extensions: bool
    subtract_mask_from_silk: bool
    x2: bool
    netlist: bool
    aperture_macros: bool
    use_drill_origin: bool

class _Png(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    output: NotRequired[str]  # The file written, when output was given
    image: NotRequired[_Image]

class _Problem(TypedDict):
    ref: str
    message: str

class _ProjectCreated(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    project: str
    board: str
    schematic: str
    template: str
    kicad_version: int
    files: list[_FileWritten]
    library_tables: NotRequired[dict[str, str]]  # What the project's library tables list, and why
    rules: NotRequired[dict[str, float]]  # 2layer-starter: its design rules, mm
    outline: NotRequired[list[float]]  # 2layer-starter: [x1, y1, x2, y2] mm

class _Ran(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    session: str
    events: list[dict[str, Any]]  # Lines: seq, t, kind, text, level; repeats counted; panics decoded
    text: str  # The events as text
    next: int  # The cursor to read on from
    boots: list[_Boot]
    boot_summary: str
    ended: bool
    reset_loop: NotRequired[_ResetLoop]
    truncated: NotRequired[bool]
    matched: NotRequired[dict[str, Any]]  # The until pattern or the expectations matched
    flash: _FlashBrief
    build: NotRequired[_BuildBrief]

class _Rebuilt(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    version: str  # The version folder, OUT/NAME/vNNN
    schematic: str | None
    board: str | None
    stages: list[_StageRow]
    verdict: _Verdict | None
    identical: list[str]  # Project files byte-identical to the version's
    different: list[str]

_RefChange = TypedDict('_RefChange', {
    'from': str,
    'to': str,
    'ref': str,
})

class _Renumbered(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    changes: list[_Annotation]

class _Reset(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    port: str
    reset: bool
    note: NotRequired[str]  # Why not
    boot: NotRequired[_Boot | None]  # The boot that followed, null if none within 3 s

class _ResetLoop(TypedDict):
    cause: str
    boots: int

class _Rotated(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    angle: float  # degrees

class _RouteViolation(TypedDict):
    kind: str  # track or via
    net: str
    reason: str
    start: NotRequired[list[float]]  # [x, y] mm
    end: NotRequired[list[float]]  # [x, y] mm
    at: NotRequired[list[float]]  # [x, y] mm

class _Routed(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    ids: list[str]  # One segment per pair of points
    vias: list[str]  # Ids of the vias added where the layer changes

class _Rubric(TypedDict):
    decoupling: list[_Decoupling]
    connectors_to_edge: list[_EdgeDistance]
    area_used: NotRequired[float | None]  # Courtyard area / board area (null for an empty board)
    silk_findings: int
    schematic_overlaps: NotRequired[int]

class _RulesSet(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    rules: dict[str, float]  # The rules set, mm
    project: str

class _Saved(TypedDict):
    summary: str  # One line saying what happened
    path: str
    kind: str  # board, schematic, symbol_library, footprint, library_table, design_rules, project, worksheet
    revision: int
    modified: bool  # Unsaved changes
    undo: int  # Undo steps kept
    redo: int
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    hash: str  # SHA-256 of the file written
    saved: list[str]  # Every file written: the document's unsaved project files (.kicad_pro, .kicad_dru beside it), then the document

class _SchematicNet(TypedDict):
    net: str
    code: int
    pins: list[str]  # REF.PIN
    sheets: list[str]
    no_connect: NotRequired[bool]

class _ScoreResult(TypedDict):
    summary: str  # One line saying what happened
    overlaps: int  # Courtyard pairs overlapping
    overlapping: list[list[str]]  # The pairs (the first 50)
    overlaps_ignored_by_project: bool
    off_board: int
    off_board_parts: list[str]
    on_art: int  # Parts with a pad on copper or mask art not theirs
    on_art_parts: list[str]
    ratsnest_length: float  # mm
    routability: float  # 0..1
    peak_demand: float
    crossings: int  # Ratsnest crossings
    decoupling: list[_DecouplingCap]
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many

class _SesImported(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    added: int
    removed: int
    kept: int
    outside_outline: int
    unknown_nets: list[str]
    moved_footprints_ignored: list[str]

class _SessionDescribed(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    root: str  # The working directory
    documents: list[_DocumentInfo]
    commands: dict[str, int]  # Commands per scope

class _SheetAdded(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    id: str  # The new item's id (uuid)
    file: str  # The sheet file, relative to the working directory
    created_file: bool
    pins: list[_SheetPin]

_SheetChange = TypedDict('_SheetChange', {
    'from': str,
    'to': str,
    'sheet': str,
})

class _SheetPin(TypedDict):
    name: str
    at: list[float]  # [x, y] mm

class _SheetRow(TypedDict):
    path: str  # Sheet instance path, e.g. /Power/
    name: NotRequired[str]
    file: str
    page: NotRequired[str]
    uuid_path: str
    parent: NotRequired[str]
    symbols: int
    missing: NotRequired[bool]

class _SheetTree(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    sheets: list[_SheetRow]

class _StageRow(TypedDict):
    summary: str
    stage: str
    status: str  # done, failed, skipped...
    seconds: float  # s
    data: NotRequired[dict[str, Any]]

class _Svg(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    mime_type: str
    output: NotRequired[str]
    svg: NotRequired[str]

class _Swapped(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    dropped_pads: list[str]  # Pads of the old footprint without a match

class _SymbolMoved(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    dangling: NotRequired[list[list[float]]]  # Wire ends left dangling ([x, y] mm)
    at: list[float]  # [x, y] mm

class _SymbolPlaced(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    id: str  # The new item's id (uuid)
    reference: str
    value: str
    angle: int  # degrees
    mirror: str  # none, x or y
    pins: list[_PinAt]
    instances: list[str]  # Sheet instance paths

class _SymbolRow(TypedDict):
    reference: str
    value: str
    footprint: NotRequired[str]
    lib_id: str
    unit: int
    sheet: str  # Sheet instance path
    at: list[float]  # [x, y] mm
    angle: float  # degrees
    mirror: NotRequired[str]  # x or y
    dnp: NotRequired[bool]
    in_bom: bool
    on_board: bool
    id: str
    power: NotRequired[bool]

class _SymbolTurned(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    dangling: NotRequired[list[list[float]]]  # Wire ends left dangling ([x, y] mm)
    angle: int  # degrees
    mirror: str  # none, x or y

class _Symbols(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    total: int  # Rows that match, all pages
    offset: int  # Index of the first row shown
    symbols: list[_SymbolRow]

_Tool = TypedDict('_Tool', {
    'tool': str,
    'found': bool,
    'for': str,  # What it is for
    'path': NotRequired[str],
    'version': NotRequired[str],
})

class _Tracks(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    ids: list[str]  # One segment per pair of points

class _TrialRoute(TypedDict):
    routed: int
    total: int

class _Unconnected(TypedDict):
    description: str | None
    items: list[_DrcItem]

class _Unrouted(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    total: int
    links: list[_Link]  # Shortest first per net

class _UnroutedConnection(TypedDict):
    net: str
    between: list[str]
    reason: str

class _Verdict(TypedDict):
    summary: str
    clean: bool
    erc: _ErcCount
    drc: _DrcCount
    unrouted: int
    rubric: _Rubric
    render: str  # board.png, or why not rendered

class _VerdictResult(TypedDict):
    summary: str  # One line saying what happened
    clean: bool
    erc: _ErcCount
    drc: _DrcCount
    unrouted: int
    rubric: _Rubric
    render: str  # board.png, or why not rendered
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many

class _Wired(TypedDict):
    summary: str  # One line saying what happened
    new_ids: NotRequired[list[str]]  # Ids of the items created (the registry adds them to any result)
    new_count: NotRequired[int]  # How many items were created, instead of new_ids when a model reads the result and they are many
    revision: NotRequired[int]  # The edited document's revision after the edit
    new_violations: NotRequired[list[_NewViolation]]  # Board edits: the DRC violations the edit introduced (the first 50)
    live: NotRequired[_LiveStatus]  # With a KiCad editor attached: its state
    ids: list[str]
    junctions: NotRequired[list[list[float]]]  # [x, y] mm
    dangling: NotRequired[list[_DanglingEnd]]

class _Written(TypedDict):
    offset: str  # Hex
    file: str
    bytes: int

class _Agent(Namespace):
    """boardwire.api.agent: generated from the registry."""

    def ask(self, *, text: str, path: str | os.PathLike[str] | None = None) -> _ChatAsked:
        """(The live view's chat box) Send a request to the agents; says whether one is listening.

        Registry command ``agent.ask`` (session).

        Args:
            text (str): (required)
            path (str | os.PathLike[str] | None): The document the request is about; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def chat(self, *, wait: float = 0) -> _ChatTaken:
        """Take the requests typed in the live view's chat box: [{chatId, text, path, at}]; each is yours until agent_reply done or error.

        Registry command ``agent.chat`` (session; units: seconds).

        Args:
            wait (float): Seconds to wait for a request when none is pending (default 0)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            agent.chat(wait=60)
        """
        ...

    def reply(self, *, chatId: str, progress: str | None = None, percent: float | None = None, text: str | None = None, done: bool = False, error: str | None = None) -> _ChatReplied:
        """Answer a chat request: progress, answer text, then done (or error); the edits you made meanwhile are listed on the page with their undo.

        Registry command ``agent.reply`` (session; units: percent 0..100).

        Args:
            chatId (str): (required)
            progress (str | None): The progress line shown on the page
            percent (float | None):
            text (str | None): Answer text, appended
            done (bool): (default False)
            error (str | None): The request failed: why

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            agent.reply(chatId='c1', progress='routing GND', percent=40)
            agent.reply(chatId='c1', text='Moved R1 2 mm right.', done=True)
        """
        ...

    def requests(self) -> _ChatRequests:
        """(The live view's chat box) Every request with its state, answer, progress and edits.

        Registry command ``agent.requests`` (session, read-only).

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

class _Board(Namespace):
    """boardwire.api.board: generated from the registry."""

    def autoplace(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, references: Sequence[str] | None = None, pinned: dict[str, dict[str, Any]] | None = None, area: Sequence[float] | None = None, allow_back: bool = False, edges: dict[str, Literal['left', 'right', 'top', 'bottom']] | None = None, keepouts: Sequence[Sequence[float]] | None = None, clearance: float = 0.25, spacing: float = 0.5, grid: float = 0.127, effort: int = 3, restarts: int = 1, seed: int = 0, time_limit: float = 60, route_trials: int = 0, route_engine: str = 'builtin', decouple: dict[str, str] | None = None, wait_s: float | None = None) -> _Autoplaced:
        """Place footprints at quarter turns in the outline: no courtyard overlaps, short ratsnest, sheets together, decoupling caps at their IC pin, edge connectors, pinned poses kept, keep-outs empty; trials move parts at failed connections; same seed, same result.

        Registry command ``pcb.autoplace`` (edit, long; units: mm, degrees, seconds).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            references (Sequence[str] | None): default: all unlocked
            pinned (dict[str, dict[str, Any]] | None):
            area (Sequence[float] | None): [x1,y1,x2,y2]
            allow_back (bool): (default False)
            edges (dict[str, Literal['left', 'right', 'top', 'bottom']] | None): connector: edge
            keepouts (Sequence[Sequence[float]] | None): [x1,y1,x2,y2]
            clearance (float): courtyard gap (default 0.25)
            spacing (float): routing room 0-1 (default 0.5)
            grid (float): (default 0.127)
            effort (int): (default 3)
            restarts (int): anneals; least crossed kept (default 1)
            seed (int): (default 0)
            time_limit (float): s; per trial too (default 60)
            route_trials (int): (default 0)
            route_engine (str): (default 'builtin')
            decouple (dict[str, str] | None): cap: REF.PIN
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.autoplace(seed=1)
            board.autoplace(edges={'J1': 'left'}, decouple={'C5': 'U1.33'})
            board.autoplace(pinned={'U1': {'at': [50, 40], 'angle': 90}}, allow_back=True)
        """
        ...

    def autoroute(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, engine: str = 'builtin', time_limit: float = 120, effort: int = 2, via_cost: float = 2.0, seed: int = 0, nets: Sequence[str] | None = None, netclasses: Sequence[str] | None = None, area: Sequence[float] | None = None, layers: Sequence[str] | None = None, refill_zones: bool = True, wait_s: float | None = None) -> _Autorouted:
        """Route unrouted connections with net-class widths, clearances and vias, 0/45/90 degrees, each item checked; zones refilled; same seed, same result.

        Registry command ``pcb.autoroute`` (edit, long; units: mm, seconds).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            engine (str): (default 'builtin')
            time_limit (float): s (default 120)
            effort (int): (default 2)
            via_cost (float): mm of track (default 2.0)
            seed (int): (default 0)
            nets (Sequence[str] | None):
            netclasses (Sequence[str] | None):
            area (Sequence[float] | None): [x1,y1,x2,y2]: pads inside
            layers (Sequence[str] | None):
            refill_zones (bool): (default True)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.autoroute(seed=1)
            board.autoroute(nets=['SDA', 'SCL'], layers=['F.Cu', 'B.Cu'], seed=1)
        """
        ...

    def delete(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, reference: str | None = None, ids: Sequence[str] | None = None) -> _Deleted:
        """Delete a footprint (by reference) or items (by id).

        Registry command ``pcb.delete`` (edit, destructive).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            reference (str | None):
            ids (Sequence[str] | None): Item uuids

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def describe(self, *, path: str | os.PathLike[str] | None = None) -> _DocumentDescribed:
        """A one-screen summary to read first: for a board its size, layers, counts, nets, unrouted connections, design rules; for a schematic its sheets, parts, power nets and largest nets.

        Registry command ``query.describe`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def diff_pairs(self, *, path: str | os.PathLike[str] | None = None) -> _DiffPairs:
        """Differential pairs found by KiCad's naming rule (NAME+/NAME-, NAMEP/NAMEN), with each side's routed length and the skew.

        Registry command ``query.diffPairs`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def drc(self, *, path: str | os.PathLike[str] | None = None, severity: Literal['error', 'warning', 'all'] = 'all', refill_zones: bool = False, schematic_parity: bool = False, limit: int = 200, engine: Literal['kicad', 'builtin', 'both'] = 'kicad', wait_s: float | None = None, format: Literal['table', 'json'] | None = None) -> _Drc:
        """KiCad's design rules check (kicad-cli) on the board as it is in memory (nothing is saved): violations (type, severity, description, items with positions), unconnected items, counts. engine builtin runs boardwire's own rules instead (milliseconds), both runs both and compares.

        Registry command ``check.drc`` (check, read-only, long; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            severity (Literal['error', 'warning', 'all']): Report errors only, warnings only, or both (KiCad's default) (default 'all')
            refill_zones (bool): Refill zones (KiCad's filler, on a copy) before checking (default False)
            schematic_parity (bool): Also compare with the schematic next to the board (default False)
            limit (int): Most violations to list (counts cover all) (default 200)
            engine (Literal['kicad', 'builtin', 'both']): kicad: kicad-cli, the judge (default); builtin: boardwire's own rules on the in-memory geometry (milliseconds; the rules of checks.BUILT_IN); both: KiCad's result plus the built-in one and which violations each found alone (default 'kicad')
            wait_s (float | None): s; then a job
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.drc()
        """
        ...

    def export_dsn(self, *, output: str, path: str | os.PathLike[str] | None = None, wait_s: float | None = None) -> _DsnWritten:
        """Write the board as a Specctra DSN (KiCad's exporter) for an external router.

        Registry command ``pcb.exportDsn`` (export, read-only, long).

        Args:
            output (str): .dsn path (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.export_dsn(output='board.dsn')
        """
        ...

    def fill_zones(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, ids: Sequence[str] | None = None, wait_s: float | None = None) -> _Filled:
        """Fill (refill) copper zones with KiCad's own filler (pcbnew in the system Python) and keep the fills in the board.

        Registry command ``pcb.fillZones`` (edit, long).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            ids (Sequence[str] | None): Zones to fill (default all)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def flip(self, *, reference: str, path: str | os.PathLike[str] | None = None, revision: int | None = None) -> _Flipped:
        """Move a footprint to the other side of the board, mirrored as KiCad mirrors it (top-bottom flip about its anchor).

        Registry command ``pcb.flip`` (edit).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            reference (str): (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def footprint(self, *, reference: str, path: str | os.PathLike[str] | None = None) -> _FootprintResult:
        """One footprint: fields, library id, placement, side, its pads with board positions and nets, and its texts (fields and free texts: id, board position, angle, layer, visible).

        Registry command ``query.footprint`` (query, read-only; units: mm, degrees).

        Args:
            reference (str): Footprint reference, e.g. U1 (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.footprint(reference='U1')
        """
        ...

    def graphic(self, *, shape: Literal['line', 'rect', 'circle', 'arc', 'poly'], points: Sequence[Sequence[float]], path: str | os.PathLike[str] | None = None, revision: int | None = None, layer: str = 'Edge.Cuts', width: float = 0.1, fill: bool = False) -> _Created:
        """Add a board drawing (line, rectangle, circle, arc, polygon) on any layer.

        Registry command ``pcb.addGraphic`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            shape (Literal['line', 'rect', 'circle', 'arc', 'poly']): (required)
            points (Sequence[Sequence[float]]): line/rect: 2; circle: centre and a point on it; arc: start, mid, end; poly: 3+ ([x, y] mm) (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            layer (str): (default 'Edge.Cuts')
            width (float): mm (default 0.1)
            fill (bool): (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def import_ses(self, *, session: str, path: str | os.PathLike[str] | None = None, revision: int | None = None, wait_s: float | None = None) -> _SesImported:
        """Replace the board's tracks and vias with a Specctra session's (.ses; KiCad's importer); only routing changes.

        Registry command ``pcb.importSes`` (edit, destructive, long).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            session (str): .ses path (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.import_ses(session='board.ses')
        """
        ...

    def items(self, *, path: str | os.PathLike[str] | None = None, kind: Sequence[Literal['footprint', 'module', 'segment', 'arc', 'via', 'zone', 'gr_line', 'gr_rect', 'gr_circle', 'gr_arc', 'gr_poly', 'gr_curve', 'gr_bezier', 'gr_text', 'gr_text_box', 'group', 'dimension']] | None = None, layer: str | None = None, net: str | None = None, reference: str | None = None, bbox: Sequence[float] | None = None, offset: int = 0, limit: int = 50, format: Literal['table', 'json'] | None = None) -> _Items:
        """Board items filtered by kind, layer, net, footprint reference and bounding box; paged.

        Registry command ``query.items`` (query, read-only; units: mm, degrees).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            kind (Sequence[Literal['footprint', 'module', 'segment', 'arc', 'via', 'zone', 'gr_line', 'gr_rect', 'gr_circle', 'gr_arc', 'gr_poly', 'gr_curve', 'gr_bezier', 'gr_text', 'gr_text_box', 'group', 'dimension']] | None):
            layer (str | None): e.g. F.Cu
            net (str | None):
            reference (str | None): Footprint reference, e.g. R1
            bbox (Sequence[float] | None): [x1, y1, x2, y2] mm
            offset (int): (default 0)
            limit (int): (default 50)
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.items(kind=['via'], net='GND')
        """
        ...

    def length_groups(self, *, path: str | os.PathLike[str] | None = None) -> _LengthGroups:
        """Length-matched groups: the custom rules (.kicad_dru) with a length or skew constraint, the nets their condition names, and each net's routed length.

        Registry command ``query.lengthGroups`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def move(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, reference: str | None = None, id: str | None = None, at: Sequence[float] | None = None, by: Sequence[float] | None = None) -> _Moved:
        """Move a footprint (by reference) or any item (by id) to a position or by an offset; pads and texts follow their footprint.

        Registry command ``pcb.move`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            reference (str | None): Footprint to move
            id (str | None): Or any item's uuid (track, via, drawing, text)
            at (Sequence[float] | None): New position (footprints: anchor) ([x, y] mm)
            by (Sequence[float] | None): Or an offset ([x, y] mm)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.move(reference='R1', at=[120, 80])
            board.move(id='…uuid…', by=[1, 0])
        """
        ...

    def netclasses(self, *, path: str | os.PathLike[str] | None = None) -> _NetClasses:
        """Net classes and their rules (from the board's project file, or the board for KiCad 5).

        Registry command ``query.netclasses`` (query, read-only).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def nets(self, *, path: str | os.PathLike[str] | None = None, offset: int = 0, limit: int = 100, match: str | None = None, format: Literal['table', 'json'] | None = None) -> _Nets:
        """The board's nets (by net number, paged) with how many pads, tracks and vias each has.

        Registry command ``query.nets`` (query, read-only).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            offset (int): (default 0)
            limit (int): (default 100)
            match (str | None): Only nets whose name contains this (case-insensitive), or matches it as a glob with * and ?
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.nets(match='usb*')
        """
        ...

    def outline(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, rect: Sequence[float] | None = None, polygon: Sequence[Sequence[float]] | None = None, replace: bool = True, width: float = 0.1) -> _Created:
        """Set the board outline on Edge.Cuts: a rectangle or a polygon (closed).

        Registry command ``pcb.outline`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            rect (Sequence[float] | None): [x1, y1, x2, y2]
            polygon (Sequence[Sequence[float]] | None): [x, y] mm
            replace (bool): Remove the existing Edge.Cuts drawings first (default True)
            width (float): mm (default 0.1)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.outline(rect=[0, 0, 50, 30])
        """
        ...

    def pads(self, *, path: str | os.PathLike[str] | None = None, reference: str | None = None, net: str | None = None, layer: str | None = None, area: Sequence[float] | None = None, offset: int = 0, limit: int = 200, format: Literal['table', 'json'] | None = None) -> _Pads:
        """Pad positions: the pads of one footprint, or of the board (paged; filter by net, reference, layer, area): number, footprint, type, shape, board position, absolute angle, size, layers, net, and bounding box [x1, y1, x2, y2] in board axes.

        Registry command ``query.pads`` (query, read-only; units: mm, degrees).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            reference (str | None): Footprint reference, e.g. U1; omit for every pad of the board
            net (str | None): Only pads of this net (wildcards * ? allowed)
            layer (str | None): Only pads with copper on this layer, e.g. F.Cu
            area (Sequence[float] | None): [x1, y1, x2, y2] mm: only pads whose box meets this rectangle
            offset (int): (default 0)
            limit (int): (default 200)
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.pads(reference='U1')
            board.pads(net='GND', layer='F.Cu')
            board.pads(area=[100, 50, 120, 60], limit=50)
        """
        ...

    def place(self, *, footprint: str, reference: str, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, value: str | None = None, angle: float = 0, side: Literal['front', 'back'] = 'front', nets: dict[str, str] = ...) -> _Placed:
        """Copy a library footprint (via fp-lib-table) onto the board as KiCad places it, pads given nets.

        Registry command ``pcb.placeFootprint`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            footprint (str): Library id Lib:Name, e.g. Resistor_SMD:R_0805_2012Metric (required)
            reference (str): (required)
            at (Sequence[float]): [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            value (str | None):
            angle (float): degrees (default 0)
            side (Literal['front', 'back']): (default 'front')
            nets (dict[str, str]): Pad number -> net name (new nets are added)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.place(footprint='Resistor_SMD:R_0805_2012Metric', reference='R1', value='10k', at=[100, 50], nets={'1': 'VCC', '2': 'LED'})
        """
        ...

    def render_png(self, *, path: str | os.PathLike[str] | None = None, view: Literal['2d', '3d'] = '2d', layers: Sequence[str] | None = None, side: Literal['top', 'bottom'] = 'top', width: int = 1024, output: str | None = None, page: str | None = None, wait_s: float | None = None) -> _Png:
        """A PNG of the board as it is in memory (chosen layers in 2D, or KiCad's 3D view of one side), or of one schematic sheet.

        Registry command ``render.png`` (export, read-only, long).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            view (Literal['2d', '3d']): (default '2d')
            layers (Sequence[str] | None): 2D: layers to draw (default copper, silk, mask, outline)
            side (Literal['top', 'bottom']): 3D: which side to look at (default 'top')
            width (int): Pixels (default 1024)
            output (str | None): Write the image to this path in the working directory instead of returning it
            page (str | None): Schematic: the page to draw (default: the root sheet's)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.render_png(view='3d')
            board.render_png(layers=['F.Cu', 'Edge.Cuts'])
        """
        ...

    def render_svg(self, *, path: str | os.PathLike[str] | None = None, view: Literal['2d', '3d'] = '2d', layers: Sequence[str] | None = None, side: Literal['top', 'bottom'] = 'top', width: int = 1024, output: str | None = None, page: str | None = None, wait_s: float | None = None) -> _Svg:
        """An SVG of chosen layers of the board, or of one schematic sheet, as it is in memory (KiCad's plotter).

        Registry command ``render.svg`` (export, read-only, long).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            view (Literal['2d', '3d']): (default '2d')
            layers (Sequence[str] | None): 2D: layers to draw (default copper, silk, mask, outline)
            side (Literal['top', 'bottom']): 3D: which side to look at (default 'top')
            width (int): Pixels (default 1024)
            output (str | None): Write the image to this path in the working directory instead of returning it
            page (str | None): Schematic: the page to draw (default: the root sheet's)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def rotate(self, *, reference: str, angle: float, path: str | os.PathLike[str] | None = None, revision: int | None = None, relative: bool = False) -> _Rotated:
        """Turn a footprint about its anchor, as pcbnew does (pads and texts turn with it).

        Registry command ``pcb.rotate`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            reference (str): (required)
            angle (float): Degrees, counter-clockwise as seen from the front (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            relative (bool): Add to the current angle instead of setting it (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.rotate(reference='U1', angle=90)
        """
        ...

    def route(self, *, points: Sequence[Sequence[float]], layers: Sequence[str], width: float, path: str | os.PathLike[str] | None = None, revision: int | None = None, net: str | None = None, via_size: float | None = None, via_drill: float | None = None) -> _Routed:
        """Route a polyline that may change layer: a through via is added at every point where consecutive segments change layer.

        Registry command ``pcb.route`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            points (Sequence[Sequence[float]]): [x, y] mm (required)
            layers (Sequence[str]): Layer of each segment (one per pair of points), or one for all (required)
            width (float): mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            net (str | None):
            via_size (float | None): Default: the net class's via diameter (mm)
            via_drill (float | None): Default: the net class's via drill (mm)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.route(points=[[100, 50], [110, 50], [110, 60]], layers=['F.Cu', 'B.Cu'], width=0.25, net='SDA')
        """
        ...

    def score_placement(self, *, path: str | os.PathLike[str] | None = None, area: Sequence[float] | None = None, decouple: dict[str, str] | None = None) -> _ScoreResult:
        """Judge a placement: courtyard overlaps, parts off the board, ratsnest length, routability (0-1), each decoupling cap's distance to its IC pin (pad edge to edge) against its target.

        Registry command ``pcb.scorePlacement`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            area (Sequence[float] | None): [x1,y1,x2,y2]
            decouple (dict[str, str] | None): capacitor -> REF.PIN it serves (default: each small one to a free supply pin, the IC with most supply pins first)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.score_placement()
        """
        ...

    def set_design_rules(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, min_clearance: float | None = None, min_track_width: float | None = None, min_via_diameter: float | None = None, min_via_annular_width: float | None = None, min_through_hole_diameter: float | None = None, min_hole_to_hole: float | None = None, min_copper_edge_clearance: float | None = None, min_silk_clearance: float | None = None) -> _RulesSet:
        """Set the board's minimum design rules (Board Setup > Constraints) in its project file.

        Registry command ``pcb.setDesignRules`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            min_clearance (float | None): mm
            min_track_width (float | None): mm
            min_via_diameter (float | None): mm
            min_via_annular_width (float | None): mm
            min_through_hole_diameter (float | None): mm
            min_hole_to_hole (float | None): mm
            min_copper_edge_clearance (float | None): mm
            min_silk_clearance (float | None): mm

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.set_design_rules(min_clearance=0.15, min_track_width=0.15)
        """
        ...

    def set_field(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, reference: str | None = None, id: str | None = None, field: str | None = None, value: str | None = None, dnp: bool | None = None, exclude_from_bom: bool | None = None, exclude_from_pos_files: bool | None = None, board_only: bool | None = None, at: Sequence[float] | None = None, angle: float | None = None, visible: bool | None = None) -> _Edited:
        """Set a footprint's reference, value or any property, its DNP / BOM / position-file / board-only flags, and move, turn, show or hide a field's text (query.footprint lists the texts).

        Registry command ``pcb.setField`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            reference (str | None): The footprint; or give id
            id (str | None): Or the id of a field's text (as DRC names it): its footprint and field
            field (str | None): Reference, Value, Datasheet or any property (change the footprint itself with pcb.swapFootprint)
            value (str | None):
            dnp (bool | None): Do not populate
            exclude_from_bom (bool | None):
            exclude_from_pos_files (bool | None):
            board_only (bool | None): Not in schematic
            at (Sequence[float] | None): Move the field's text to this board position (mm) ([x, y] mm)
            angle (float | None): Turn the field's text to this absolute angle (degrees)
            visible (bool | None): Show or hide the field's text

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.set_field(reference='R1', field='Value', value='4k7')
            board.set_field(reference='R7', dnp=True)
            board.set_field(reference='U1', field='Reference', at=[120, 41.5], angle=0, visible=True)
        """
        ...

    def set_netclass(self, *, name: str, path: str | os.PathLike[str] | None = None, revision: int | None = None, nets: Sequence[str] | None = None, clearance: float | None = None, track_width: float | None = None, via_diameter: float | None = None, via_drill: float | None = None, diff_pair_width: float | None = None, diff_pair_gap: float | None = None) -> _NetClassSet:
        """Create or change a net class (clearance, widths, via sizes) and assign nets to it, in the board's project file.

        Registry command ``pcb.setNetclass`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            name (str): Net class name (created if new; KiCad compares names without case) (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            nets (Sequence[str] | None): Nets to put in the class (exact names or KiCad wildcards)
            clearance (float | None): mm
            track_width (float | None): mm
            via_diameter (float | None): mm
            via_drill (float | None): mm
            diff_pair_width (float | None): mm
            diff_pair_gap (float | None): mm

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.set_netclass(name='Power', nets=['VCC', 'GND'], track_width=0.5)
        """
        ...

    def set_pad_net(self, *, reference: str, pad: str, net: str, path: str | os.PathLike[str] | None = None, revision: int | None = None) -> _Edited:
        """Give one pad a net (all pads with that number, as KiCad does for repeated numbers).

        Registry command ``pcb.setPadNet`` (edit).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            reference (str): (required)
            pad (str): Pad number (required)
            net (str): Net name; empty to clear; a new name is added to the board (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def swap(self, *, reference: str, footprint: str, path: str | os.PathLike[str] | None = None, revision: int | None = None) -> _Swapped:
        """Replace a footprint with another library footprint in the same place, side and angle, keeping its reference, value, other fields, DNP/BOM flags, id, schematic link and pad nets by pad number.

        Registry command ``pcb.swapFootprint`` (edit).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            reference (str): (required)
            footprint (str): New library id Lib:Name (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def text(self, *, text: str, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, layer: str = 'F.SilkS', angle: float = 0, size: float = 1.0, thickness: float = 0.15) -> _Created:
        """Add text to the board (mirrored on back layers, as KiCad does).

        Registry command ``pcb.addText`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            text (str): (required)
            at (Sequence[float]): [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            layer (str): (default 'F.SilkS')
            angle (float): degrees (default 0)
            size (float): mm (default 1.0)
            thickness (float): mm (default 0.15)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def track(self, *, points: Sequence[Sequence[float]], width: float, path: str | os.PathLike[str] | None = None, revision: int | None = None, layer: str = 'F.Cu', net: str | None = None) -> _Tracks:
        """Add a track (one segment per pair of consecutive points) on one copper layer.

        Registry command ``pcb.addTrack`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            points (Sequence[Sequence[float]]): Polyline; one segment per pair of points ([x, y] mm) (required)
            width (float): mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            layer (str): (default 'F.Cu')
            net (str | None):

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.track(points=[[100, 50], [110, 50], [110, 60]], width=0.25, layer='F.Cu', net='GND')
        """
        ...

    def unrouted(self, *, path: str | os.PathLike[str] | None = None, offset: int = 0, limit: int = 100) -> _Unrouted:
        """The ratsnest: connections not routed yet, computed from the board's own copper (pads, tracks, vias, zone fills), shortest first per net.

        Registry command ``query.unrouted`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            offset (int): (default 0)
            limit (int): (default 100)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def via(self, *, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, size: float | None = None, drill: float | None = None, net: str | None = None) -> _Created:
        """Add a through via.

        Registry command ``pcb.addVia`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            at (Sequence[float]): [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            size (float | None): Pad diameter; default: the net class's (mm)
            drill (float | None): Default: the net class's (mm)
            net (str | None):

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.via(at=[110, 60], net='GND')
        """
        ...

    def zone(self, *, outline: Sequence[Sequence[float]], path: str | os.PathLike[str] | None = None, revision: int | None = None, layer: str = 'F.Cu', net: str | None = None, clearance: float = 0.5, min_width: float = 0.25, priority: int = 0, name: str | None = None, pads: Literal['thermal', 'solid', 'thermal_tht'] = 'thermal') -> _Created:
        """Add a copper zone (unfilled; run pcb.fillZones).

        Registry command ``pcb.addZone`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            outline (Sequence[Sequence[float]]): [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the board given by `--board` / `connect(board=...)`, else the only open board
            revision (int | None): Fail with stale-revision unless the document is at this revision
            layer (str): (default 'F.Cu')
            net (str | None): Net name, e.g. GND
            clearance (float): (default 0.5)
            min_width (float): mm (default 0.25)
            priority (int): (default 0)
            name (str | None):
            pads (Literal['thermal', 'solid', 'thermal_tht']): Pad connection: thermal reliefs, solid, or reliefs on THT pads only (default 'thermal')

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            board.zone(outline=[[0, 0], [50, 0], [50, 30], [0, 30]], layer='B.Cu', net='GND')
        """
        ...

class _Check(Namespace):
    """boardwire.api.check: generated from the registry."""

    def drc(self, *, path: str | os.PathLike[str] | None = None, severity: Literal['error', 'warning', 'all'] = 'all', refill_zones: bool = False, schematic_parity: bool = False, limit: int = 200, engine: Literal['kicad', 'builtin', 'both'] = 'kicad', wait_s: float | None = None, format: Literal['table', 'json'] | None = None) -> _Drc:
        """KiCad's design rules check (kicad-cli) on the board as it is in memory (nothing is saved): violations (type, severity, description, items with positions), unconnected items, counts. engine builtin runs boardwire's own rules instead (milliseconds), both runs both and compares.

        Registry command ``check.drc`` (check, read-only, long; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            severity (Literal['error', 'warning', 'all']): Report errors only, warnings only, or both (KiCad's default) (default 'all')
            refill_zones (bool): Refill zones (KiCad's filler, on a copy) before checking (default False)
            schematic_parity (bool): Also compare with the schematic next to the board (default False)
            limit (int): Most violations to list (counts cover all) (default 200)
            engine (Literal['kicad', 'builtin', 'both']): kicad: kicad-cli, the judge (default); builtin: boardwire's own rules on the in-memory geometry (milliseconds; the rules of checks.BUILT_IN); both: KiCad's result plus the built-in one and which violations each found alone (default 'kicad')
            wait_s (float | None): s; then a job
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            check.drc(path='board.kicad_pcb')
        """
        ...

    def erc(self, *, path: str | os.PathLike[str] | None = None, severity: Literal['error', 'warning', 'all'] = 'all', limit: int = 200, wait_s: float | None = None, format: Literal['table', 'json'] | None = None) -> _Erc:
        """KiCad's electrical rules check (kicad-cli) on the schematic hierarchy as it is in memory (nothing is saved): violations with type, severity, description, sheet, items (id, position), and counts by type and sheet. Give the root sheet.

        Registry command ``check.erc`` (check, read-only, long; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            severity (Literal['error', 'warning', 'all']): Report errors only, warnings only, or both (KiCad's default) (default 'all')
            limit (int): Most violations to list (counts cover all) (default 200)
            wait_s (float | None): s; then a job
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            check.erc(path='board.kicad_sch')
        """
        ...

class _Design(Namespace):
    """boardwire.api.design: generated from the registry."""

    def brief(self) -> _DesignBrief:
        """What a design document must contain (its JSON Schema), the checks it must pass, the build stages, and an example; write one, then design.check and design.build.

        Registry command ``design.brief`` (query, read-only).

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def build(self, *, design: dict[str, Any] | None = None, file: str | None = None, out: str = 'builds', until: Literal['project', 'schematic', 'erc', 'update', 'outline', 'placement', 'route', 'zones', 'save', 'drc', 'verdict', 'fab'] | None = None, wait_s: float | None = None) -> _Built:
        """Build the board from a design document (parts, nets, board) into a new version folder OUT/NAME/vNNN; stages: project, schematic, erc, update, outline, placement (constraints kept), route, zones (GND on B.Cu), save, drc (with parity), verdict, fab (fab.zip when clean). Errors: design-errors with design.check's errors.

        Registry command ``design.build`` (session, long).

        Args:
            design (dict[str, Any] | None): The design document (see design.brief)
            file (str | None): Or a design JSON file in the working directory
            out (str): Folder of the version folders (OUT/NAME/vNNN) (default 'builds')
            until (Literal['project', 'schematic', 'erc', 'update', 'outline', 'placement', 'route', 'zones', 'save', 'drc', 'verdict', 'fab'] | None): Stop after this stage
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            design.build(file='blinker.json')
            design.build(file='usbc.json', until='erc')
        """
        ...

    def check(self, *, design: dict[str, Any] | None = None, file: str | None = None) -> _DesignChecked:
        """Validate a design: schema, then each component resolved (catalogue part -> symbol, footprint, LCSC/MPN fields), pins, nets of one pin, unconnected pins, power without a source, footprints that do not fit the symbol. Findings carry code, where, message and fix; components as a table.

        Registry command ``design.check`` (query, read-only).

        Args:
            design (dict[str, Any] | None): The design document (see design.brief)
            file (str | None): Or a design JSON file in the working directory

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            design.check(file='blinker.json')
        """
        ...

    def rebuild(self, *, version: str, router: dict[str, Any] | None = None, pinned: dict[str, dict[str, Any]] | None = None, wait_s: float | None = None) -> _Rebuilt:
        """Build a version again into a new version folder from its design.json and settings.json (same id seed): unchanged, the KiCad project files are byte-identical (identical lists them); router or pinned change what they name.

        Registry command ``design.rebuild`` (session, long).

        Args:
            version (str): A version folder, e.g. builds/blinker/v001 (required)
            router (dict[str, Any] | None): Changed router settings
            pinned (dict[str, dict[str, Any]] | None): Changed or added pinned placements
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            design.rebuild(version='builds/blinker/v001')
        """
        ...

    def verdict(self, *, board: str, schematic: str | None = None, wait_s: float | None = None) -> _VerdictResult:
        """Judge any board as design.build judges its own: ERC and DRC counts (kicad-cli, with parity), unrouted, a rubric (decoupling distances, connectors to the edge, silk findings, schematic text overlaps) and a render (board.png beside the board).

        Registry command ``design.verdict`` (check, read-only, long).

        Args:
            board (str): .kicad_pcb (its .kicad_sch beside it) (required)
            schematic (str | None):
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            design.verdict(board='builds/blinker/v001/blinker.kicad_pcb')
        """
        ...

class _Fab(Namespace):
    """boardwire.api.fab: generated from the registry."""

    def bom(self, *, path: str | os.PathLike[str] | None = None, output: str = 'fab', created: datetime | None = None, exclude_dnp: bool = True, source: Literal['auto', 'schematic', 'board'] = 'auto', wait_s: float | None = None) -> _Bom:
        """Bill of materials: a grouped CSV BOM (Reference, Value, Footprint, Qty) from the schematic (kicad-cli), else the footprints; result's source says which.

        Registry command ``fab.bom`` (export, read-only, long; units: mm; sizes in bytes).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            output (str): Output folder (default 'fab')
            created (datetime | None): ISO 8601 time stamped in the files (default: now)
            exclude_dnp (bool): (default True)
            source (Literal['auto', 'schematic', 'board']): auto: the board's NAME.kicad_sch if any, else footprints (default 'auto')
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fab.bom(path='board.kicad_pcb')
        """
        ...

    def drill(self, *, path: str | os.PathLike[str] | None = None, output: str = 'fab', created: datetime | None = None, drill_map: bool = False, separate_th: bool = True, wait_s: float | None = None) -> _FabFiles:
        """Excellon drill files (mm) of the in-memory board (kicad-cli), optional drill map.

        Registry command ``fab.drill`` (export, read-only, long; units: mm; sizes in bytes).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            output (str): Output folder (default 'fab')
            created (datetime | None): ISO 8601 time stamped in the files (default: now)
            drill_map (bool): (default False)
            separate_th (bool): PTH and NPTH holes in separate files (default True)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fab.drill(path='board.kicad_pcb', drill_map=True)
        """
        ...

    def gerbers(self, *, path: str | os.PathLike[str] | None = None, output: str = 'fab', created: datetime | None = None, layers: Sequence[str] | None = None, protel_extensions: bool | None = None, subtract_mask_from_silk: bool | None = None, wait_s: float | None = None) -> _Gerbers:
        """Gerber X2 and job files of the in-memory board (kicad-cli); unset options follow its plot settings.

        Registry command ``fab.gerbers`` (export, read-only, long; units: mm; sizes in bytes).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            output (str): Output folder (default 'fab')
            created (datetime | None): ISO 8601 time stamped in the files (default: now)
            layers (Sequence[str] | None): Default: copper, paste, silk, mask, Edge.Cuts
            protel_extensions (bool | None): Default: board's setting
            subtract_mask_from_silk (bool | None): Default: board's setting
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fab.gerbers(path='board.kicad_pcb')
            fab.gerbers(path='board.kicad_pcb', layers=['F.Cu', 'B.Cu', 'Edge.Cuts'], output='gerbers')
        """
        ...

    def package(self, *, path: str | os.PathLike[str] | None = None, output: str = 'fab', created: datetime | None = None, exclude_dnp: bool = True, side: Literal['both', 'front', 'back'] = 'both', drill_map: bool = False, separate_th: bool = True, layers: Sequence[str] | None = None, protel_extensions: bool | None = None, subtract_mask_from_silk: bool | None = None, preset: Literal['generic', 'jlcpcb'] = 'generic', force: bool = False, wait_s: float | None = None) -> _Package:
        """DRC gate, then Gerbers, drill, positions, BOM, fab.zip of the in-memory board; DRC errors refuse (drc-errors) unless force.

        Registry command ``fab.package`` (export, read-only, long; units: mm; sizes in bytes).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            output (str): Output folder (default 'fab')
            created (datetime | None): ISO 8601 time stamped in the files (default: now)
            exclude_dnp (bool): (default True)
            side (Literal['both', 'front', 'back']): (default 'both')
            drill_map (bool): (default False)
            separate_th (bool): PTH and NPTH holes in separate files (default True)
            layers (Sequence[str] | None): Default: copper, paste, silk, mask, Edge.Cuts
            protel_extensions (bool | None): Default: board's setting
            subtract_mask_from_silk (bool | None): Default: board's setting
            preset (Literal['generic', 'jlcpcb']): jlcpcb: JLC's names, origin, BOM/CPL columns (default 'generic')
            force (bool): Write despite DRC errors (default False)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fab.package(path='board.kicad_pcb')
            fab.package(path='board.kicad_pcb', preset='jlcpcb')
        """
        ...

    def positions(self, *, path: str | os.PathLike[str] | None = None, output: str = 'fab', created: datetime | None = None, exclude_dnp: bool = True, side: Literal['both', 'front', 'back'] = 'both', wait_s: float | None = None) -> _FabFiles:
        """Pick-and-place CSV of the in-memory board (kicad-cli): mm, degrees.

        Registry command ``fab.positions`` (export, read-only, long; units: mm; sizes in bytes).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            output (str): Output folder (default 'fab')
            created (datetime | None): ISO 8601 time stamped in the files (default: now)
            exclude_dnp (bool): (default True)
            side (Literal['both', 'front', 'back']): (default 'both')
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fab.positions(path='board.kicad_pcb', side='front')
        """
        ...

class _Fw(Namespace):
    """boardwire.api.fw: generated from the registry."""

    def board_info(self, *, dir: str = '.', port: str | None = None, stub: bool = True, wait_s: float | None = None) -> _BoardInfo:
        """Chip, revision, crystal, flash size and MAC (the board id) through esptool; resets the board.

        Registry command ``fw.boardInfo`` (session, long).

        Args:
            dir (str): Firmware project folder (default '.')
            port (str | None): Port, URL or board id (default: the bound board)
            stub (bool): Use esptool's flasher stub (default True)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fw.board_info(port='/dev/ttyUSB0')
        """
        ...

    def build(self, *, dir: str = '.', timeout_s: float = 1800, wait_s: float | None = None) -> _FirmwareBuilt:
        """Build with the project's build system: compiler messages as diagnostics (file, line, column, code), image size against the app partition (too large: image-too-large).

        Registry command ``fw.build`` (export, read-only, long).

        Args:
            dir (str): Firmware project folder (default '.')
            timeout_s (float): Seconds before it is stopped (default 1800)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fw.build(dir='blinky')
        """
        ...

    def devices(self) -> _Devices:
        """Attached boards, untouched: ports with USB ids, board id (MAC) once read, monitor sessions, lease holders.

        Registry command ``fw.devices`` (session, read-only).

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def doctor(self) -> _Doctor:
        """Firmware tools found offline: ESP-IDF, PlatformIO, Arduino CLI, cargo/espflash, make, RISC-V/Xtensa compilers, picolibc, esptool, pyserial.

        Registry command ``fw.doctor`` (query, read-only).

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def erase(self, *, dir: str = '.', port: str | None = None, wait_s: float | None = None) -> _Erased:
        """Erase the whole flash. Needs [agent] erase = true.

        Registry command ``fw.erase`` (session, destructive, long).

        Args:
            dir (str): Firmware project folder (default '.')
            port (str | None): Port, URL or board id (default: the bound board)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def flash(self, *, dir: str = '.', port: str | None = None, build: bool = True, erase_all: bool = False, no_stub: bool = False, wait_s: float | None = None) -> _Flashed:
        """Build, check the image fits, flash with esptool (verified), reset. Policy: by default only the project's bound board.

        Registry command ``fw.flash`` (session, destructive, long).

        Args:
            dir (str): Firmware project folder (default '.')
            port (str | None): Port, URL or board id (default: the bound board)
            build (bool): Build first (default True)
            erase_all (bool): Erase all first (policy: erase) (default False)
            no_stub (bool): ROM bootloader only (default False)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fw.flash(dir='blinky')
        """
        ...

    def monitor_read(self, *, until: str | None = None, expect: Sequence[str] | None = None, reject: Sequence[str] | None = None, session: str | None = None, since: Literal['new', 'boot', 'start'] = 'new', cursor: int | None = None, wait_s: float | None = None, max_events: int = 200, max_bytes: int = 16384, level: Literal['trace', 'debug', 'info', 'warn', 'error'] | None = None, pattern: str | None = None) -> _MonitorRead:
        """Read a monitor session: repeats collapsed xN, boots with reset reasons, panics decoded with source lines, watchdog/brown-out/reset loops named; until/expect/reject wait up to wait_s.

        Registry command ``fw.monitor.read`` (session, read-only).

        Args:
            until (str | None): Stop at a line matching this regex
            expect (Sequence[str] | None): Regexes to match in order
            reject (Sequence[str] | None): Regexes that fail the call
            session (str | None): Default: the only one
            since (Literal['new', 'boot', 'start']): new: since last read (default 'new')
            cursor (int | None): An earlier read's next
            wait_s (float | None): 25 with patterns, else 2
            max_events (int): (default 200)
            max_bytes (int): (default 16384)
            level (Literal['trace', 'debug', 'info', 'warn', 'error'] | None): Drop lines below
            pattern (str | None): Keep matching lines

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fw.monitor_read(since='boot')
            fw.monitor_read(expect=['WiFi connected', 'got ip'], reject=['Guru Meditation'])
        """
        ...

    def monitor_start(self, *, dir: str = '.', port: str | None = None, baud: int | None = None, reset: bool = True, replay: str | None = None, speed: float = 0.0, record: str | None = None) -> _MonitorInfo:
        """Open (or return) a monitor session on a board, or replay a recording; record writes one.

        Registry command ``fw.monitor.start`` (session).

        Args:
            dir (str): Firmware project folder (default '.')
            port (str | None): Port, URL or board id (default: the bound board)
            baud (int | None): Default 115200
            reset (bool): Reset so the log starts at boot (default True)
            replay (str | None): Play this recording instead
            speed (float): Replay pace (0: at once) (default 0.0)
            record (str | None): Record to this file

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fw.monitor_start(dir='blinky')
            fw.monitor_start(replay='boot.jsonl')
            fw.monitor_start(dir='blinky', record='logs/run1.jsonl')
        """
        ...

    def monitor_stop(self, *, session: str | None = None) -> _MonitorInfo:
        """Close a monitor session and its recording.

        Registry command ``fw.monitor.stop`` (session).

        Args:
            session (str | None):

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def monitor_write(self, *, text: str, session: str | None = None, newline: bool = True) -> _MonitorWritten:
        """Send text to the board's serial input.

        Registry command ``fw.monitor.write`` (session).

        Args:
            text (str): Text to send (control characters too: Ctrl-C is \\u0003) (required)
            session (str | None):
            newline (bool): Append \\n (default True)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def new(self, *, name: str, dir: str = '.', chip: str = 'esp32c3', framework: Literal['auto', 'baremetal', 'idf', 'platformio', 'arduino'] = 'auto', port: str | None = None, board_id: str | None = None, kicad: str | None = None, wait_s: float | None = None) -> _FirmwareCreated:
        """New firmware project bound to a board, with AGENTS.md listing its pins from the schematic; by the installed framework, else bare-metal ESP32-C3 (Debian's RISC-V GCC).

        Registry command ``fw.new`` (export, read-only, long).

        Args:
            name (str): Folder dir/name is created (required)
            dir (str): Parent folder (default '.')
            chip (str): esptool chip name (default 'esp32c3')
            framework (Literal['auto', 'baremetal', 'idf', 'platformio', 'arduino']): auto: an installed one, else bare-metal ESP32-C3 (default 'auto')
            port (str | None): Bound port
            board_id (str | None): Bound board id (MAC)
            kicad (str | None): The board's root .kicad_sch
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fw.new(name='blinky', chip='esp32c3', port='/dev/ttyUSB0', kicad='hw/board.kicad_sch')
        """
        ...

    def pins(self, *, path: str | os.PathLike[str] | None = None, dir: str = '.', reference: str | None = None, gpio_only: bool = True) -> _McuPins:
        """The MCU's pins from the KiCad schematic: GPIO, net, and what is on it (LED D1 through R3, pull-up R4 to +3.3V, button to GND, a chip's pin).

        Registry command ``fw.pins`` (query, read-only).

        Args:
            path (str | os.PathLike[str] | None): Root .kicad_sch (default: the project's); default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            dir (str): Firmware project folder (default '.')
            reference (str | None): MCU reference (default: the ESP32)
            gpio_only (bool): Only pins with a GPIO number (default True)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fw.pins(dir='firmware')
            fw.pins(path='hw/board.kicad_sch', reference='U1')
        """
        ...

    def reset(self, *, dir: str = '.', port: str | None = None) -> _Reset:
        """Reset the board (RTS); with a monitor open, name the new boot's reason.

        Registry command ``fw.reset`` (session).

        Args:
            dir (str): Firmware project folder (default '.')
            port (str | None): Port, URL or board id (default: the bound board)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def run(self, *, until: str | None = None, expect: Sequence[str] | None = None, reject: Sequence[str] | None = None, dir: str = '.', port: str | None = None, build: bool = True, erase_all: bool = False, no_stub: bool = False, timeout_s: float | None = None, record: str | None = None, wait_s: float | None = None) -> _Ran:
        """Build, flash, open a monitor and watch until a pattern (until; expect in order; reject fails); the session stays open.

        Registry command ``fw.run`` (session, destructive, long).

        Args:
            until (str | None): Stop at a line matching this regex
            expect (Sequence[str] | None): Regexes to match in order
            reject (Sequence[str] | None): Regexes that fail the call
            dir (str): Firmware project folder (default '.')
            port (str | None): Port, URL or board id (default: the bound board)
            build (bool): Build first (default True)
            erase_all (bool): Erase all first (policy: erase) (default False)
            no_stub (bool): ROM bootloader only (default False)
            timeout_s (float | None): Seconds to watch (30 with patterns, else 5)
            record (str | None): Record to this file
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            fw.run(dir='blinky', until='blink 3')
            fw.run(dir='blinky', expect=['started', 'blink 1'], reject=['Guru Meditation'])
        """
        ...

class _Job(Namespace):
    """boardwire.api.job: generated from the registry."""

    def cancel(self, *, job: str) -> _JobResult:
        """Cancel a job: its child processes are killed, documents stay as before it.

        Registry command ``job.cancel`` (session).

        Args:
            job (str): Job id (required)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def status(self, *, job: str | None = None, format: Literal['table', 'json'] | None = None) -> _JobStatus:
        """A job's state (running, done, failed, cancelled), progress and last output lines; without job, every job kept (the newest 64).

        Registry command ``job.status`` (session, read-only).

        Args:
            job (str | None): Default: every job kept
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def wait(self, *, job: str, wait_s: float = 25.0) -> dict[str, Any]:
        """Wait for a job: the long call's own result (or error), or the job again if still running. Cancelling this call cancels the job.

        Registry command ``job.wait`` (session, read-only).

        Args:
            job (str): Job id (required)
            wait_s (float): s (default 25.0)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

class _Lib(Namespace):
    """boardwire.api.lib: generated from the registry."""

    def add(self, *, source: str, name: str | None = None, project: str | None = None) -> _LibAdded:
        """Add a vendor's KiCad library (folder or .zip of .kicad_sym files, .pretty footprint folders or loose .kicad_mod, .step/.wrl 3D models) to the project's sym-lib-table/fp-lib-table (created if absent) with ${KIPRJMOD}-relative paths, as KiCad's library manager does; its parts are then Nickname:Item for sch.placeSymbol, design.build, lib.search and kicad-cli. A folder is registered in place; a .zip is extracted into libs/NAME/; loose footprints go into libs/NAME/NAME.pretty; footprint 3D model paths that point nowhere are pointed at the library's model of that file name. Nicknames are the file names (symbol library X.kicad_sym: X). Errors: path-outside-workspace (source or project), not-found (no source, no library in it), invalid-args (a nickname already in the tables, libs/NAME exists, neither a folder nor a zip archive), unsafe-archive (an entry leaving its folder: absolute, .., a link; too big; nothing extracted).

        Registry command ``lib.add`` (session).

        Args:
            source (str): Folder or .zip with .kicad_sym files and/or .pretty folders (.kicad_mod; .step/.wrl models), inside the working directory (required)
            name (str | None): Nickname of loose footprints, also naming where an archive goes (libs/NAME); default: the source's name
            project (str | None): Project folder (or a file in it) whose sym-lib-table/fp-lib-table get the rows; default: the working directory

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            lib.add(source='downloads/LM358DR.zip')
            lib.add(source='vendor/acme_kicad', project='board')
        """
        ...

    def footprint(self, *, id: str, project: str | None = None) -> _LibFootprint:
        """One library footprint: pads (number, type, shape, position relative to the footprint origin, angle, size, drill, layers; mm), courtyard bounding box per side (F.CrtYd, B.CrtYd: min, max, size in mm), description, tags, attributes (smd, through_hole, exclude_from_bom...), fields and 3D models. Errors: invalid-args for an id that is not Library:Name; not-found for an unknown library (with similar names) or footprint.

        Registry command ``lib.footprint`` (query, read-only; units: mm, degrees).

        Args:
            id (str): Library:Name as in lib.search rows, e.g. Device:R (required)
            project (str | None): Folder (or a file in it) whose sym-lib-table/fp-lib-table apply; default: the working directory

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            lib.footprint(id='Resistor_SMD:R_0603_1608Metric')
        """
        ...

    def new_footprint(self, *, package: Literal['chip', 'soic', 'sot23', 'qfn', 'pin_header', 'castellated'], size: Literal['0402', '0603', '0805', '1206'] | None = None, prefix: str = 'R', pins: int | None = None, rows: Literal[1, 2] = 1, body: Sequence[float] | None = None, pitch: float | None = None, exposed_pad: float | None = None, sides: Sequence[int] | None = None, pad: Sequence[float] | None = None, name: str | None = None, library: str = 'Project', project: str | None = None, overwrite: bool = False) -> _LibNewFootprint:
        """Draw a footprint from a package description into the project library LIBRARY.pretty (registered in fp-lib-table if it is not; KiCad 9 format): chip 0402/0603/0805/1206, SOIC-8/14/16 (JEDEC MS-012), SOT-23/-5/-6, QFN-n with exposed pad (JEDEC MO-220), 2.54 mm pin headers 1xN/2xN, modules with castellated edge pads. SMD pads are IPC-7351B nominal (level B) land patterns; pads of different numbers stay 0.2 mm apart; courtyard 0.25 mm (0.5 mm for headers and modules) around body and pads; silkscreen clear of pads with a pin 1 mark; F.Fab outline with ${REFERENCE}. Returns the id (LIBRARY:NAME for pcb.placeFootprint, design.build), the file, pad count, courtyard size and the sources of the dimensions. Errors: invalid-args (a package value it lacks or that does not fit; a footprint of that name exists and overwrite is false; the library nickname names another library), path-outside-workspace (project).

        Registry command ``lib.newFootprint`` (session; units: mm).

        Args:
            package (Literal['chip', 'soic', 'sot23', 'qfn', 'pin_header', 'castellated']): chip: 2-terminal SMD (size); soic: JEDEC MS-012 (pins 8/14/16); sot23: pins 3/5/6; qfn: pins, body, pitch, exposed_pad; pin_header: 2.54 mm, rows 1/2, pins per row; castellated: module with edge pads (body, pitch, sides) (required)
            size (Literal['0402', '0603', '0805', '1206'] | None): chip: EIA size
            prefix (str): chip: name prefix (R, C, L...) (default 'R')
            pins (int | None): Pins (pin_header: per row)
            rows (Literal[1, 2]): pin_header: rows (default 1)
            body (Sequence[float] | None): qfn: [side] mm; castellated: [width, length] mm
            pitch (float | None): qfn: 0.4/0.5/0.65 (default 0.5); castellated: mm
            exposed_pad (float | None): qfn: exposed pad side, mm
            sides (Sequence[int] | None): castellated: pads on [left, bottom, right, top?]
            pad (Sequence[float] | None): castellated: pad [length across the edge, width] mm; default [1.5, 0.9]
            name (str | None): Footprint name; default from the package
            library (str): Footprint library nickname: the project's LIBRARY.pretty (default 'Project')
            project (str | None): Project folder (or a file in it); default: the working directory
            overwrite (bool): Replace a footprint of that name (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            lib.new_footprint(package='chip', size='0603')
            lib.new_footprint(package='qfn', pins=16, body=[3], exposed_pad=1.7)
            lib.new_footprint(package='pin_header', pins=4, library='Connectors')
        """
        ...

    def new_symbol(self, *, name: str, pins: Sequence[dict[str, Any]], reference: str = 'U', value: str | None = None, footprint: str = '', datasheet: str = '', description: str = '', keywords: str = '', library: str = 'Project', project: str | None = None, overwrite: bool = False) -> _LibNewSymbol:
        """Draw a one-unit schematic symbol from a pin table into the project library LIBRARY.kicad_sym (created, and registered in sym-lib-table, if it is not; KiCad 9 format), as KiCad's library conventions draw one: rectangle body, 2.54 mm (100 mil) pins on the 100 mil grid, power_in pins at the top (ground: GND, VSS, VEE... at the bottom), inputs/passive left, outputs right, bidirectional on the shorter side, each side grouped by type with a gap between groups, body sized to the pin names; Reference, Value, Footprint, Datasheet, Description fields. A pin's side overrides. Returns the id (LIBRARY:NAME for sch.placeSymbol, design.build), the file, the body size and each side's pin numbers. Errors: invalid-args (a pin number twice, a symbol of that name exists and overwrite is false, the nickname names another library), path-outside-workspace (project).

        Registry command ``lib.newSymbol`` (session; units: mm).

        Args:
            name (str): Symbol name (the Value by default) (required)
            pins (Sequence[dict[str, Any]]): (required)
            reference (str): Reference prefix (default 'U')
            value (str | None):
            footprint (str): Default footprint, Lib:Name (default '')
            datasheet (str): (default '')
            description (str): (default '')
            keywords (str): (default '')
            library (str): Symbol library nickname (the project's library of that name, made if absent) (default 'Project')
            project (str | None): Project folder (or a file in it); default: the working directory
            overwrite (bool): Replace a symbol of that name (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            lib.new_symbol(name='TMP117', pins=[{'number': '1', 'name': 'SCL', 'type': 'input'}, {'number': '2', 'name': 'GND', 'type': 'power_in'}, {'number': '5', 'name': 'V+', 'type': 'power_in'}, {'number': '6', 'name': 'SDA', 'type': 'bidirectional'}], footprint='Package_SON:WSON-6-1EP_2x2mm_P0.65mm_EP1x1.6mm')
        """
        ...

    def search(self, *, query: str, kind: Literal['symbol', 'footprint', 'both'] = 'both', project: str | None = None, offset: int = 0, limit: int = 20, format: Literal['table', 'json'] | None = None) -> _LibSearch:
        """Find parts: search the symbol and footprint libraries (project tables, then global ones) by name, keywords, description and footprint filters (e.g. 0603 resistor, LM358); best first (exact name, all words in the name, all anywhere, some). With kind both, the best symbol and the best footprint both lead. Rows: kind, id (Library:Name for lib.symbol / lib.footprint / placing), description, keywords, pins or pads (distinct numbers), units. The first search indexes the libraries (10-25 s, 2 s cached).

        Registry command ``lib.search`` (query, read-only).

        Args:
            query (str): Words to find in names, keywords, descriptions, footprint filters, e.g. '0603 resistor', 'LM358', 'USB-C receptacle' (required)
            kind (Literal['symbol', 'footprint', 'both']): (default 'both')
            project (str | None): Folder (or a file in it) whose sym-lib-table/fp-lib-table apply; default: the working directory
            offset (int): (default 0)
            limit (int): (default 20)
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            lib.search(query='0603 resistor')
            lib.search(query='LM358', kind='symbol')
            lib.search(query='USB-C receptacle', kind='footprint', limit=5)
        """
        ...

    def symbol(self, *, id: str, project: str | None = None) -> _LibSymbol:
        """One library symbol: units, pins (number, name, electrical type, unit — 0 means common to all units — position and length in mm relative to the symbol's origin as placed unrotated in a schematic, x right, y down; orientation is the direction from the pin's connection point into the body: 0 right, 90 up, 180 left, 270 down), description, keywords, footprint filters and fields. A derived symbol (extends) shows its parent's pins. Pins of the alternate (De Morgan) body style are not listed; body_styles says whether there is one. Errors: invalid-args for an id that is not Library:Name; not-found for an unknown library (with similar names) or symbol.

        Registry command ``lib.symbol`` (query, read-only; units: mm, degrees).

        Args:
            id (str): Library:Name as in lib.search rows, e.g. Device:R (required)
            project (str | None): Folder (or a file in it) whose sym-lib-table/fp-lib-table apply; default: the working directory

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            lib.symbol(id='Device:R')
            lib.symbol(id='Amplifier_Operational:LM358')
        """
        ...

class _Parts(Namespace):
    """boardwire.api.parts: generated from the registry."""

    def import_(self, *, file: str) -> _PartsImported:
        """Index a catalogue file (jlcpcb-parts-database CSV or jlcparts SQLite) into the project's local catalogue (.boardwire/parts.sqlite); rows with the same LCSC code are replaced. Errors: invalid-args for a file in neither format.

        Registry command ``parts.import`` (session).

        Args:
            file (str): A jlcpcb-parts-database CSV or a jlcparts cache.sqlite3, in the working directory (required)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            parts.import_(file='jlcpcb-components-basic-preferred.csv')
        """
        ...

    def pins(self, *, part: str | None = None, symbol: str | None = None, footprint: str | None = None, format: Literal['lines', 'json'] = 'lines') -> _PartsPins:
        """A part's pins mapped to its KiCad symbol and footprint pads (by number): number, name, type, unit, pad; pads without a pin and pins without a pad. Give an LCSC code (the catalogue, as parts.search reads it, picks symbol and footprint) or a symbol. Errors: not-found for an unknown part, symbol or footprint.

        Registry command ``parts.pins`` (query, read-only).

        Args:
            part (str | None): LCSC code, e.g. C6186
            symbol (str | None): Library:Name, instead of part
            footprint (str | None): Library:Name; default the part's
            format (Literal['lines', 'json']): (default 'lines')

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            parts.pins(part='C6186')
            parts.pins(symbol='Device:R', footprint='Resistor_SMD:R_0603_1608Metric')
        """
        ...

    def search(self, *, query: str, kind: Literal['led', 'resistor', 'capacitor', 'inductor', 'crystal', 'fuse', 'diode', 'transistor', 'connector', 'switch', 'regulator', 'ic'] | None = None, package: str | None = None, basic: bool = False, in_stock: bool = False, limit: int = 10, offset: int = 0, format: Literal['lines', 'json'] = 'lines') -> _PartsSearch:
        """Find a part to buy (resistor, capacitor, regulator, IC) in the parts catalogue (parts.import; else a bundled 180-part JLCPCB sample), with its LCSC code and MPN: every word must match (values in any spelling: 10k, 4k7, 100nF, 0.1uF); ranked basic, preferred, in stock, cheapest; > marks the row a build picks. Columns: lcsc, mpn, package, tier, stock, usd, footprint, description. No row with every word: says missing, lists KiCad library candidates.

        Registry command ``parts.search`` (query, read-only).

        Args:
            query (str): Part number, value, package, words, e.g. '10k resistor 0402' (required)
            kind (Literal['led', 'resistor', 'capacitor', 'inductor', 'crystal', 'fuse', 'diode', 'transistor', 'connector', 'switch', 'regulator', 'ic'] | None):
            package (str | None): e.g. 0603, SOT-223
            basic (bool): Only JLCPCB basic or preferred parts (default False)
            in_stock (bool): (default False)
            limit (int): (default 10)
            offset (int): (default 0)
            format (Literal['lines', 'json']): (default 'lines')

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            parts.search(query='AMS1117-3.3')
            parts.search(query='100nF 0603 capacitor', basic=True)
            parts.search(query='10k', kind='resistor', package='0402', format='json')
        """
        ...

class _Project(Namespace):
    """boardwire.api.project: generated from the registry."""

    def back_annotate(self, *, schematic: str, board: str, dry_run: bool = False, revision: int | None = None) -> _BackAnnotated:
        """KiCad's Update Schematic from PCB: each symbol instance gets the reference of the footprint linked to it by path.

        Registry command ``project.backAnnotate`` (edit).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            schematic (str): Root .kicad_sch (required)
            board (str): .kicad_pcb (required)
            dry_run (bool): Report only (default False)
            revision (int | None): Expected revision of the edited file

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            project.back_annotate(schematic='t.kicad_sch', board='t.kicad_pcb', dry_run=True)
        """
        ...

    def new(self, *, name: str, template: Literal['blank', '2layer-starter'] = 'blank', folder: str | None = None, kicad_version: Literal[9, 10] = 9, library_tables_from: str | None = None) -> _ProjectCreated:
        """A new KiCad 9 (default: kicad-cli here checks it) or 10 project: NAME.kicad_pro, .kicad_sch, .kicad_pcb, library tables. Never overwrites (invalid-args).

        Registry command ``project.new`` (session).

        Args:
            name (str): (required)
            template (Literal['blank', '2layer-starter']): 2layer-starter: 50x40 mm outline, 0.2 mm clearance/track, 0.6/0.3 mm vias (default 'blank')
            folder (str | None): Default: a new folder NAME
            kicad_version (Literal[9, 10]): (default 9)
            library_tables_from (str | None): Folder whose library tables come first

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            project.new(name='blinky', template='2layer-starter')
            project.new(name='sensor', folder='.')
        """
        ...

    def update_pcb(self, *, schematic: str, board: str, dry_run: bool = False, revision: int | None = None, swap: bool = True, delete_extra: bool = False) -> _PcbUpdated:
        """KiCad's Update PCB from Schematic: footprints linked by symbol path (else reference) get its reference, footprint, value and pad nets; missing ones are added below the board.

        Registry command ``project.updatePcb`` (edit).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            schematic (str): Root .kicad_sch (required)
            board (str): .kicad_pcb (required)
            dry_run (bool): Report only (default False)
            revision (int | None): Expected revision of the edited file
            swap (bool): Replace footprints of another lib id (KiCad's default; false lists them) (default True)
            delete_extra (bool): Delete footprints without symbol (not board_only/locked) (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            project.update_pcb(schematic='t.kicad_sch', board='t.kicad_pcb')
            project.update_pcb(schematic='t.kicad_sch', board='t.kicad_pcb', dry_run=True, delete_extra=True)
        """
        ...

class _Query(Namespace):
    """boardwire.api.query: generated from the registry."""

    def connectivity(self, *, path: str | os.PathLike[str] | None = None, net: str | None = None, reference: str | None = None, include_single: bool = True, offset: int = 0, limit: int = 200) -> _Connectivity:
        """Schematic nets of the whole hierarchy as KiCad names them (/sheet/LABEL, GLOBAL, Net-(R1-Pad1)), each with its pins as REF.PIN (the pins KiCad's netlist lists) and the sheets it spans; filtered by net name or reference; paged.

        Registry command ``query.connectivity`` (query, read-only).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            net (str | None): Net name, or a pattern with * and ? (/SDA*)
            reference (str | None): Only nets touching this symbol reference
            include_single (bool): Include nets with a single pin (default True)
            offset (int): (default 0)
            limit (int): (default 200)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            query.connectivity(path='board.kicad_sch')
            query.connectivity(path='board.kicad_sch', net='GND')
        """
        ...

    def describe(self, *, path: str | os.PathLike[str] | None = None) -> _DocumentDescribed:
        """A one-screen summary to read first: for a board its size, layers, counts, nets, unrouted connections, design rules; for a schematic its sheets, parts, power nets and largest nets.

        Registry command ``query.describe`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def diff_pairs(self, *, path: str | os.PathLike[str] | None = None) -> _DiffPairs:
        """Differential pairs found by KiCad's naming rule (NAME+/NAME-, NAMEP/NAMEN), with each side's routed length and the skew.

        Registry command ``query.diffPairs`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def footprint(self, *, reference: str, path: str | os.PathLike[str] | None = None) -> _FootprintResult:
        """One footprint: fields, library id, placement, side, its pads with board positions and nets, and its texts (fields and free texts: id, board position, angle, layer, visible).

        Registry command ``query.footprint`` (query, read-only; units: mm, degrees).

        Args:
            reference (str): Footprint reference, e.g. U1 (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            query.footprint(path='b.kicad_pcb', reference='U1')
        """
        ...

    def items(self, *, path: str | os.PathLike[str] | None = None, kind: Sequence[Literal['footprint', 'module', 'segment', 'arc', 'via', 'zone', 'gr_line', 'gr_rect', 'gr_circle', 'gr_arc', 'gr_poly', 'gr_curve', 'gr_bezier', 'gr_text', 'gr_text_box', 'group', 'dimension']] | None = None, layer: str | None = None, net: str | None = None, reference: str | None = None, bbox: Sequence[float] | None = None, offset: int = 0, limit: int = 50, format: Literal['table', 'json'] | None = None) -> _Items:
        """Board items filtered by kind, layer, net, footprint reference and bounding box; paged.

        Registry command ``query.items`` (query, read-only; units: mm, degrees).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            kind (Sequence[Literal['footprint', 'module', 'segment', 'arc', 'via', 'zone', 'gr_line', 'gr_rect', 'gr_circle', 'gr_arc', 'gr_poly', 'gr_curve', 'gr_bezier', 'gr_text', 'gr_text_box', 'group', 'dimension']] | None):
            layer (str | None): e.g. F.Cu
            net (str | None):
            reference (str | None): Footprint reference, e.g. R1
            bbox (Sequence[float] | None): [x1, y1, x2, y2] mm
            offset (int): (default 0)
            limit (int): (default 50)
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            query.items(path='b.kicad_pcb', kind=['via'], net='GND')
        """
        ...

    def labels(self, *, path: str | os.PathLike[str] | None = None, kind: Sequence[Literal['label', 'global_label', 'hierarchical_label', 'sheet_pin']] | None = None, text: str | None = None, sheet: str | None = None, offset: int = 0, limit: int = 200) -> _Labels:
        """Net labels of the hierarchy per sheet instance (local, global, hierarchical, and sheet pins), with position and the net each names; bus labels are marked bus.

        Registry command ``query.labels`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            kind (Sequence[Literal['label', 'global_label', 'hierarchical_label', 'sheet_pin']] | None):
            text (str | None): Label text, or a pattern with * and ?
            sheet (str | None): Sheet instance path, e.g. / or /Power/
            offset (int): (default 0)
            limit (int): (default 200)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            query.labels(path='board.kicad_sch', kind=['global_label'])
        """
        ...

    def length_groups(self, *, path: str | os.PathLike[str] | None = None) -> _LengthGroups:
        """Length-matched groups: the custom rules (.kicad_dru) with a length or skew constraint, the nets their condition names, and each net's routed length.

        Registry command ``query.lengthGroups`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def netclasses(self, *, path: str | os.PathLike[str] | None = None) -> _NetClasses:
        """Net classes and their rules (from the board's project file, or the board for KiCad 5).

        Registry command ``query.netclasses`` (query, read-only).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def nets(self, *, path: str | os.PathLike[str] | None = None, offset: int = 0, limit: int = 100, match: str | None = None, format: Literal['table', 'json'] | None = None) -> _Nets:
        """The board's nets (by net number, paged) with how many pads, tracks and vias each has.

        Registry command ``query.nets`` (query, read-only).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            offset (int): (default 0)
            limit (int): (default 100)
            match (str | None): Only nets whose name contains this (case-insensitive), or matches it as a glob with * and ?
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            query.nets(path='b.kicad_pcb', match='usb*')
        """
        ...

    def pads(self, *, path: str | os.PathLike[str] | None = None, reference: str | None = None, net: str | None = None, layer: str | None = None, area: Sequence[float] | None = None, offset: int = 0, limit: int = 200, format: Literal['table', 'json'] | None = None) -> _Pads:
        """Pad positions: the pads of one footprint, or of the board (paged; filter by net, reference, layer, area): number, footprint, type, shape, board position, absolute angle, size, layers, net, and bounding box [x1, y1, x2, y2] in board axes.

        Registry command ``query.pads`` (query, read-only; units: mm, degrees).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            reference (str | None): Footprint reference, e.g. U1; omit for every pad of the board
            net (str | None): Only pads of this net (wildcards * ? allowed)
            layer (str | None): Only pads with copper on this layer, e.g. F.Cu
            area (Sequence[float] | None): [x1, y1, x2, y2] mm: only pads whose box meets this rectangle
            offset (int): (default 0)
            limit (int): (default 200)
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            query.pads(path='b.kicad_pcb', reference='U1')
            query.pads(path='b.kicad_pcb', net='GND', layer='F.Cu')
            query.pads(path='b.kicad_pcb', area=[100, 50, 120, 60], limit=50)
        """
        ...

    def pins(self, *, reference: str, path: str | os.PathLike[str] | None = None, sheet: str | None = None) -> _Pins:
        """The pins of one symbol (every placed unit): number, name, electrical type, position on the sheet, and the net each is on.

        Registry command ``query.pins`` (query, read-only; units: mm).

        Args:
            reference (str): Symbol reference, e.g. U1 (all its units) (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            sheet (str | None): Sheet instance path when the reference is on several instances

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            query.pins(path='board.kicad_sch', reference='U1')
        """
        ...

    def sheet_tree(self, *, path: str | os.PathLike[str] | None = None) -> _SheetTree:
        """The sheet hierarchy from a root sheet: each sheet instance's path, name, file, page number, parent and symbol count; a sheet file that cannot be found is marked missing.

        Registry command ``query.sheetTree`` (query, read-only).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            query.sheet_tree(path='board.kicad_sch')
        """
        ...

    def symbols(self, *, path: str | os.PathLike[str] | None = None, reference: str | None = None, lib_id: str | None = None, sheet: str | None = None, power: bool | None = None, offset: int = 0, limit: int = 100) -> _Symbols:
        """Placed symbols of the whole hierarchy, once per sheet instance with that instance's reference and unit: value, footprint, library id, position, angle, mirror, dnp, in_bom, on_board; filtered by reference, library id, sheet; paged.

        Registry command ``query.symbols`` (query, read-only; units: mm, degrees).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            reference (str | None): Reference, or a pattern with * and ? (U*)
            lib_id (str | None): Library id, or a pattern (Device:R*)
            sheet (str | None): Sheet instance path, e.g. / or /Power/
            power (bool | None): Only power symbols (true) or none of them (false)
            offset (int): (default 0)
            limit (int): (default 100)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            query.symbols(path='board.kicad_sch', reference='U*')
            query.symbols(path='board.kicad_sch', sheet='/Power/')
        """
        ...

    def unrouted(self, *, path: str | os.PathLike[str] | None = None, offset: int = 0, limit: int = 100) -> _Unrouted:
        """The ratsnest: connections not routed yet, computed from the board's own copper (pads, tracks, vias, zone fills), shortest first per net.

        Registry command ``query.unrouted`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            offset (int): (default 0)
            limit (int): (default 100)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

class _Render(Namespace):
    """boardwire.api.render: generated from the registry."""

    def png(self, *, path: str | os.PathLike[str] | None = None, view: Literal['2d', '3d'] = '2d', layers: Sequence[str] | None = None, side: Literal['top', 'bottom'] = 'top', width: int = 1024, output: str | None = None, page: str | None = None, wait_s: float | None = None) -> _Png:
        """A PNG of the board as it is in memory (chosen layers in 2D, or KiCad's 3D view of one side), or of one schematic sheet.

        Registry command ``render.png`` (export, read-only, long).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            view (Literal['2d', '3d']): (default '2d')
            layers (Sequence[str] | None): 2D: layers to draw (default copper, silk, mask, outline)
            side (Literal['top', 'bottom']): 3D: which side to look at (default 'top')
            width (int): Pixels (default 1024)
            output (str | None): Write the image to this path in the working directory instead of returning it
            page (str | None): Schematic: the page to draw (default: the root sheet's)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            render.png(path='board.kicad_pcb', view='3d')
            render.png(path='board.kicad_pcb', layers=['F.Cu', 'Edge.Cuts'])
        """
        ...

    def svg(self, *, path: str | os.PathLike[str] | None = None, view: Literal['2d', '3d'] = '2d', layers: Sequence[str] | None = None, side: Literal['top', 'bottom'] = 'top', width: int = 1024, output: str | None = None, page: str | None = None, wait_s: float | None = None) -> _Svg:
        """An SVG of chosen layers of the board, or of one schematic sheet, as it is in memory (KiCad's plotter).

        Registry command ``render.svg`` (export, read-only, long).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            view (Literal['2d', '3d']): (default '2d')
            layers (Sequence[str] | None): 2D: layers to draw (default copper, silk, mask, outline)
            side (Literal['top', 'bottom']): 3D: which side to look at (default 'top')
            width (int): Pixels (default 1024)
            output (str | None): Write the image to this path in the working directory instead of returning it
            page (str | None): Schematic: the page to draw (default: the root sheet's)
            wait_s (float | None): s; then a job

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

class _Sch(Namespace):
    """boardwire.api.sch: generated from the registry."""

    def add_sheet(self, *, name: str, file: str, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, size: Sequence[float] = ..., pins: Sequence[dict[str, Any]] = ...) -> _SheetAdded:
        """Place a hierarchical sheet symbol with sheet pins, and create its file (an empty KiCad 9 schematic) when missing. The same file may be placed several times (each placement is a sheet instance with its own references). Pins sit on the left or right edge at 2.54 mm steps from the top unless offset is given; each joins the child's hierarchical label of its name. Errors: invalid-args for a duplicate sheet name or pin name, or a file that would contain itself.

        Registry command ``sch.addSheet`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            name (str): Sheet name (unique on the parent sheet) (required)
            file (str): Sheet file, relative to the parent's folder; created (empty, KiCad 9) if missing (required)
            at (Sequence[float]): Top-left corner [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            size (Sequence[float]): [width, height] mm (default [25.4, 20.32])
            pins (Sequence[dict[str, Any]]):

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.add_sheet(name='power', file='power.kicad_sch', at=[50.8, 50.8], size=[30, 20], pins=[{'name': 'VIN', 'shape': 'input'}])
        """
        ...

    def annotate(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, scheme: Literal['incremental', 'sheet'] = 'incremental', all: bool = False) -> _Renumbered:
        """Give references to unannotated symbols (R?, #PWR?) of the whole design, per sheet instance in hierarchy order, sorted by X then Y position as KiCad's default does; each prefix numbered from the first free number (power symbols as #PWR01). Multi-unit symbols of the same part and value share a reference.

        Registry command ``sch.annotate`` (edit).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            scheme (Literal['incremental', 'sheet']): incremental: R1, R2... over the design (KiCad's default); sheet: 100 x sheet number + n (R101 on page 1, R201 on page 2) (default 'incremental')
            all (bool): Renumber every symbol, not only the unannotated (R?) ones (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.annotate()
            sch.annotate(scheme='sheet', all=True)
        """
        ...

    def bus_entry(self, *, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, size: Sequence[float] = ...) -> _Created:
        """Add a wire-to-bus entry from at to at + size.

        Registry command ``sch.busEntry`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            at (Sequence[float]): The end on the bus [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            size (Sequence[float]): [dx, dy] mm to the wire end (default [2.54, 2.54])

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.bus_entry(at=[101.6, 50.8], size=[2.54, 2.54])
        """
        ...

    def connect(self, *, nets: dict[str, Sequence[str]], path: str | os.PathLike[str] | None = None, revision: int | None = None, power: Sequence[str] | None = None, no_connect: Sequence[str] = ..., flags: bool = True) -> _Connected:
        """Connect placed symbols' pins by net: a short wire and a net label at each pin, power symbols for power nets (ground down, supplies up), PWR_FLAGs where a power net has no source (beside the net, else apart with the net drawn again; flags_missing names nets with no room for one), no-connect flags; on the 50 mil grid, wires lengthened until no label, field or symbol box overlaps another, inside the paper's frame and off its title block when the symbols are. Result: counts, any overlaps left, off_page items. Then sch.annotate for #PWR references. Errors: invalid-args for an unknown reference or pin, or a pin in two nets.

        Registry command ``sch.connect`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            nets (dict[str, Sequence[str]]): Net name -> pins "REF.PIN", e.g. {"LED": ["U1.3", "R1.1"]} (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            power (Sequence[str] | None): Nets drawn as power symbols; default GND*, +*, VCC, VDD, VBUS...
            no_connect (Sequence[str]): Pins "REF.PIN" to flag as unconnected
            flags (bool): PWR_FLAG on power nets without a power output pin (default True)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.connect(nets={'LED': ['U1.3', 'R1.1'], 'GND': ['U1.1', 'C1.2']}, no_connect=['U1.5'])
        """
        ...

    def connectivity(self, *, path: str | os.PathLike[str] | None = None, net: str | None = None, reference: str | None = None, include_single: bool = True, offset: int = 0, limit: int = 200) -> _Connectivity:
        """Schematic nets of the whole hierarchy as KiCad names them (/sheet/LABEL, GLOBAL, Net-(R1-Pad1)), each with its pins as REF.PIN (the pins KiCad's netlist lists) and the sheets it spans; filtered by net name or reference; paged.

        Registry command ``query.connectivity`` (query, read-only).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            net (str | None): Net name, or a pattern with * and ? (/SDA*)
            reference (str | None): Only nets touching this symbol reference
            include_single (bool): Include nets with a single pin (default True)
            offset (int): (default 0)
            limit (int): (default 200)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.connectivity()
            sch.connectivity(net='GND')
        """
        ...

    def delete(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, reference: str | None = None, sheet: str | None = None, ids: Sequence[str] | None = None) -> _ItemsDeleted:
        """Delete a symbol (by reference: from its sheet file, so from every instance of that file) or items by id. A library definition no symbol uses any more leaves lib_symbols, as KiCad drops it. Wire ends that become dangling are listed.

        Registry command ``sch.delete`` (edit, destructive).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            reference (str | None):
            sheet (str | None):
            ids (Sequence[str] | None): Item uuids on this sheet

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.delete(reference='R1')
            sch.delete(ids=['…uuid…'])
        """
        ...

    def describe(self, *, path: str | os.PathLike[str] | None = None) -> _DocumentDescribed:
        """A one-screen summary to read first: for a board its size, layers, counts, nets, unrouted connections, design rules; for a schematic its sheets, parts, power nets and largest nets.

        Registry command ``query.describe`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def erc(self, *, path: str | os.PathLike[str] | None = None, severity: Literal['error', 'warning', 'all'] = 'all', limit: int = 200, wait_s: float | None = None, format: Literal['table', 'json'] | None = None) -> _Erc:
        """KiCad's electrical rules check (kicad-cli) on the schematic hierarchy as it is in memory (nothing is saved): violations with type, severity, description, sheet, items (id, position), and counts by type and sheet. Give the root sheet.

        Registry command ``check.erc`` (check, read-only, long; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            severity (Literal['error', 'warning', 'all']): Report errors only, warnings only, or both (KiCad's default) (default 'all')
            limit (int): Most violations to list (counts cover all) (default 200)
            wait_s (float | None): s; then a job
            format (Literal['table', 'json'] | None): table: one line per row under a line of column names (default over MCP); json: row objects

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.erc()
        """
        ...

    def global_label(self, *, text: str, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, angle: Literal[0, 90, 180, 270] = 0, shape: Literal['input', 'output', 'bidirectional', 'tri_state', 'passive'] = 'bidirectional') -> _Labelled:
        """Add a global label (joins same-named global labels and power nets on every sheet), with a shape: input, output, bidirectional, tri_state, passive.

        Registry command ``sch.globalLabel`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            text (str): Net name (required)
            at (Sequence[float]): Connection point [x, y] mm (on a wire or a pin) (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            angle (Literal[0, 90, 180, 270]): 0: text to the right of the point, 180: to the left, 90 up, 270 down (default 0)
            shape (Literal['input', 'output', 'bidirectional', 'tri_state', 'passive']): (default 'bidirectional')

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.global_label(text='VBUS', at=[110.49, 50.8], shape='input')
        """
        ...

    def hierarchical_label(self, *, text: str, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, angle: Literal[0, 90, 180, 270] = 0, shape: Literal['input', 'output', 'bidirectional', 'tri_state', 'passive'] = 'bidirectional') -> _Labelled:
        """Add a hierarchical label: joins the sheet pin of the same name on the sheet symbol that places this sheet.

        Registry command ``sch.hierarchicalLabel`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            text (str): Net name (required)
            at (Sequence[float]): Connection point [x, y] mm (on a wire or a pin) (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            angle (Literal[0, 90, 180, 270]): 0: text to the right of the point, 180: to the left, 90 up, 270 down (default 0)
            shape (Literal['input', 'output', 'bidirectional', 'tri_state', 'passive']): (default 'bidirectional')

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.hierarchical_label(text='IN', at=[50.8, 50.8], shape='input')
        """
        ...

    def junction(self, *, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None) -> _Created:
        """Add a junction dot (connects wires crossing or touching there); wires passing through the point are split there, as KiCad does.

        Registry command ``sch.junction`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            at (Sequence[float]): [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.junction(at=[110.49, 50.8])
        """
        ...

    def label(self, *, text: str, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, angle: Literal[0, 90, 180, 270] = 0) -> _Labelled:
        """Add a local net label (joins same-named labels on this sheet instance). The result says what the point connects to; a label on nothing is reported as dangling.

        Registry command ``sch.label`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            text (str): Net name (required)
            at (Sequence[float]): Connection point [x, y] mm (on a wire or a pin) (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            angle (Literal[0, 90, 180, 270]): 0: text to the right of the point, 180: to the left, 90 up, 270 down (default 0)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.label(text='SDA', at=[110.49, 50.8])
        """
        ...

    def labels(self, *, path: str | os.PathLike[str] | None = None, kind: Sequence[Literal['label', 'global_label', 'hierarchical_label', 'sheet_pin']] | None = None, text: str | None = None, sheet: str | None = None, offset: int = 0, limit: int = 200) -> _Labels:
        """Net labels of the hierarchy per sheet instance (local, global, hierarchical, and sheet pins), with position and the net each names; bus labels are marked bus.

        Registry command ``query.labels`` (query, read-only; units: mm).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            kind (Sequence[Literal['label', 'global_label', 'hierarchical_label', 'sheet_pin']] | None):
            text (str | None): Label text, or a pattern with * and ?
            sheet (str | None): Sheet instance path, e.g. / or /Power/
            offset (int): (default 0)
            limit (int): (default 200)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.labels(kind=['global_label'])
        """
        ...

    def mirror(self, *, reference: str, axis: Literal['x', 'y'], path: str | os.PathLike[str] | None = None, revision: int | None = None, sheet: str | None = None) -> _SymbolTurned:
        """Mirror a symbol about its anchor as KiCad's Mirror X / Mirror Y do; the file keeps KiCad's canonical angle + mirror form. Wire ends left dangling are listed.

        Registry command ``sch.mirror`` (edit).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            reference (str): Symbol reference (as shown on the sheet instance) (required)
            axis (Literal['x', 'y']): x: flip top-bottom (about the horizontal axis); y: flip left-right (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            sheet (str | None): Sheet instance path (e.g. /amp_left/) where the reference is on several

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.mirror(reference='U1', axis='y')
        """
        ...

    def move(self, *, path: str | os.PathLike[str] | None = None, revision: int | None = None, reference: str | None = None, sheet: str | None = None, id: str | None = None, at: Sequence[float] | None = None, by: Sequence[float] | None = None) -> _SymbolMoved:
        """Move a symbol (with its fields) or any item by id to a position or by an offset. Wires attached to a moved symbol are not dragged (as KiCad's Move, not Drag): the result lists wire ends left dangling.

        Registry command ``sch.move`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            reference (str | None): A symbol
            sheet (str | None): Sheet instance path for an ambiguous reference
            id (str | None): Or any item's uuid on this sheet (wire, label, junction, no-connect, sheet)
            at (Sequence[float] | None): New position (symbols: anchor; wires: first point) ([x, y] mm)
            by (Sequence[float] | None): Or an offset [dx, dy] mm ([x, y] mm)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.move(reference='R1', at=[120.65, 80.01])
            sch.move(id='…uuid…', by=[2.54, 0])
        """
        ...

    def no_connect(self, *, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None) -> _NoConnect:
        """Add a no-connect flag (on a pin left open on purpose: ERC then accepts it).

        Registry command ``sch.noConnect`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            at (Sequence[float]): [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.no_connect(at=[120.65, 80.01])
        """
        ...

    def pins(self, *, reference: str, path: str | os.PathLike[str] | None = None, sheet: str | None = None) -> _Pins:
        """The pins of one symbol (every placed unit): number, name, electrical type, position on the sheet, and the net each is on.

        Registry command ``query.pins`` (query, read-only; units: mm).

        Args:
            reference (str): Symbol reference, e.g. U1 (all its units) (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            sheet (str | None): Sheet instance path when the reference is on several instances

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.pins(reference='U1')
        """
        ...

    def place_symbol(self, *, symbol: str, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, angle: Literal[0, 90, 180, 270] = 0, mirror: Literal['none', 'x', 'y'] = 'none', unit: int = 1, reference: str | None = None, value: str | None = None, footprint: str | None = None, fields: dict[str, str] = ...) -> _SymbolPlaced:
        """Place a library symbol (via sym-lib-table; its definition copied into lib_symbols, flattened) as KiCad places it: fields moved with the symbol, one pin entry per library pin, one instance path per placement of this sheet file (reference default PREFIX?, e.g. R?). angle 0/90/180/270 counter-clockwise. Returns the pins' positions (mm). Errors: not-found (library, symbol), invalid-args (unit it lacks, reference in use), unsupported-format (before KiCad 8).

        Registry command ``sch.placeSymbol`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            symbol (str): Library id Lib:Name, e.g. Device:R (required)
            at (Sequence[float]): Symbol anchor [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            angle (Literal[0, 90, 180, 270]): Degrees, counter-clockwise (default 0)
            mirror (Literal['none', 'x', 'y']): x: mirrored top-bottom (about the X axis); y: left-right (default 'none')
            unit (int): (default 1)
            reference (str | None): Default: the library prefix and ?, e.g. R? (see sch.annotate)
            value (str | None): Default: the library's value
            footprint (str | None): Lib:Name of a footprint
            fields (dict[str, str]): Other fields; a new one is added hidden

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.place_symbol(symbol='Device:R', at=[101.6, 50.8], angle=90, value='10k', footprint='Resistor_SMD:R_0603_1608Metric')
        """
        ...

    def power(self, *, at: Sequence[float], path: str | os.PathLike[str] | None = None, revision: int | None = None, symbol: str = 'power:GND', angle: Literal[0, 90, 180, 270] = 0, mirror: Literal['none', 'x', 'y'] = 'none', reference: str | None = None, value: str | None = None) -> _SymbolPlaced:
        """Place a power symbol (power:GND, power:+3V3...): its pin joins the global net named by its value. Errors as sch.placeSymbol; invalid-args for a symbol that is not a power symbol.

        Registry command ``sch.power`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            at (Sequence[float]): [x, y] mm (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            symbol (str): A power symbol, e.g. power:GND, power:+3V3 (default 'power:GND')
            angle (Literal[0, 90, 180, 270]): (default 0)
            mirror (Literal['none', 'x', 'y']): (default 'none')
            reference (str | None): Default #PWR?
            value (str | None): The net name; default the library's

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.power(symbol='power:+3V3', at=[101.6, 40.64])
        """
        ...

    def rotate(self, *, reference: str, angle: Literal[0, 90, 180, 270], path: str | os.PathLike[str] | None = None, revision: int | None = None, sheet: str | None = None, relative: bool = False) -> _SymbolTurned:
        """Turn a symbol about its anchor (fields turn with it, as in KiCad); a mirrored symbol stays mirrored. Wire ends left dangling are listed.

        Registry command ``sch.rotate`` (edit; units: mm, degrees).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            reference (str): Symbol reference (as shown on the sheet instance) (required)
            angle (Literal[0, 90, 180, 270]): Degrees counter-clockwise (0/90/180/270) (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            sheet (str | None): Sheet instance path (e.g. /amp_left/) where the reference is on several
            relative (bool): Turn by angle instead of setting it (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.rotate(reference='R1', angle=90)
        """
        ...

    def set_field(self, *, reference: str, field: str, path: str | os.PathLike[str] | None = None, revision: int | None = None, sheet: str | None = None, value: str | None = None, hidden: bool | None = None, at: Sequence[float] | None = None, angle: Literal[0, 90] | None = None) -> _FieldSet:
        """Set, move (at, mm), turn (angle 0/90) or hide a field of a placed symbol; value may be left out to only move or hide it. Reference is per sheet instance (only the named instance changes); every other field is stored once per sheet file, so where that file is placed several times the change is shared: shared_by lists the instance paths. A field the symbol lacks is added (hidden, at the anchor). Errors: not-found for an unknown reference; invalid-args for an ambiguous one (give sheet) or a duplicate reference.

        Registry command ``sch.setField`` (edit).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            reference (str): Symbol reference (as shown on the sheet instance) (required)
            field (str): Reference, Value, Footprint, Datasheet, Description or any field (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            sheet (str | None): Sheet instance path (e.g. /amp_left/) where the reference is on several
            value (str | None): Default: unchanged (required for a new field)
            hidden (bool | None): Show or hide the field (new fields are hidden)
            at (Sequence[float] | None): Move the field's text to [x, y] mm on the sheet
            angle (Literal[0, 90] | None): Text angle on the sheet

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.set_field(reference='R1', field='Value', value='4k7')
            sch.set_field(reference='R201', sheet='/amp_left/', field='Reference', value='R250')
        """
        ...

    def set_paper(self, *, paper: Literal['A4', 'A3', 'A2', 'A1', 'A0'], path: str | os.PathLike[str] | None = None, revision: int | None = None) -> _PaperSet:
        """Set a schematic sheet's paper size (A4 297 x 210 mm up to A0 1189 x 841 mm, landscape, KiCad's default drawing sheet). Result: the paper before, and off_page: symbols, fields and labels outside the frame or on the title block on the new paper (the first 20).

        Registry command ``sch.setPaper`` (edit).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            paper (Literal['A4', 'A3', 'A2', 'A1', 'A0']): ISO paper size, landscape (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.set_paper(paper='A3')
        """
        ...

    def sheet_tree(self, *, path: str | os.PathLike[str] | None = None) -> _SheetTree:
        """The sheet hierarchy from a root sheet: each sheet instance's path, name, file, page number, parent and symbol count; a sheet file that cannot be found is marked missing.

        Registry command ``query.sheetTree`` (query, read-only).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.sheet_tree()
        """
        ...

    def symbols(self, *, path: str | os.PathLike[str] | None = None, reference: str | None = None, lib_id: str | None = None, sheet: str | None = None, power: bool | None = None, offset: int = 0, limit: int = 100) -> _Symbols:
        """Placed symbols of the whole hierarchy, once per sheet instance with that instance's reference and unit: value, footprint, library id, position, angle, mirror, dnp, in_bom, on_board; filtered by reference, library id, sheet; paged.

        Registry command ``query.symbols`` (query, read-only; units: mm, degrees).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            reference (str | None): Reference, or a pattern with * and ? (U*)
            lib_id (str | None): Library id, or a pattern (Device:R*)
            sheet (str | None): Sheet instance path, e.g. / or /Power/
            power (bool | None): Only power symbols (true) or none of them (false)
            offset (int): (default 0)
            limit (int): (default 100)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.symbols(reference='U*')
            sch.symbols(sheet='/Power/')
        """
        ...

    def wire(self, *, points: Sequence[Sequence[float]], path: str | os.PathLike[str] | None = None, revision: int | None = None, allow_dangling: bool = False, bus: bool = False) -> _Wired:
        """Draw wires through points, one per segment as KiCad does. Both ends of the polyline must land on a pin, a wire (end or middle), a label, a sheet pin, a junction or a no-connect flag, else invalid-args names the dangling end (unless allow_dangling, when the result lists it). Junctions are added (wires split) where KiCad adds them; the result lists them.

        Registry command ``sch.wire`` (edit; units: mm).
        One undo step (inside `transaction` it joins the transaction's step).

        Args:
            points (Sequence[Sequence[float]]): Polyline [x, y] mm; one wire per segment, as KiCad draws them (required)
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the schematic given by `--schematic` / `connect(schematic=...)`, else the only open schematic
            revision (int | None): Fail with stale-revision unless the document is at this revision
            allow_dangling (bool): Allow ends that connect to nothing (reported) (default False)
            bus (bool): Draw a bus instead of a wire (ends are not checked) (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened; edits add ``revision`` and ``new_ids``.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            sch.wire(points=[[100, 50], [110, 50], [110, 60]])
        """
        ...

class _Session(Namespace):
    """boardwire.api.session: generated from the registry."""

    def batch(self, *, steps: Sequence[dict[str, Any]], label: str | None = None) -> _Batch:
        """Run steps in order as one change: edits (one undo step per document changed) and queries, which see the edits before them; every step's result is returned. At the first failure every document is rolled back and the error names the step.

        Registry command ``session.batch`` (session).

        Args:
            steps (Sequence[dict[str, Any]]): (required)
            label (str | None): Name of the undo step

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            session.batch(steps=[{'command': 'pcb.addVia', 'args': {'path': 'b.kicad_pcb', 'at': [10, 10]}}, {'command': 'pcb.addTrack', 'args': {'path': 'b.kicad_pcb', 'points': [[10, 10], [20, 10]], 'layer': 'F.Cu', 'width': 0.25}}])
        """
        ...

    def close(self, *, path: str | os.PathLike[str] | None = None, discard: bool = False) -> _Done:
        """Close a document; refuses (unsaved-changes) if it has unsaved changes unless discard.

        Registry command ``session.close`` (session, destructive).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            discard (bool): Drop unsaved changes (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def describe(self) -> _SessionDescribed:
        """The working directory, open documents, and the command families available.

        Registry command ``session.describe`` (session, read-only).

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def documents(self) -> _Documents:
        """The open documents with their kind, revision and unsaved state.

        Registry command ``session.documents`` (session, read-only).

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def export(self, *, report: Literal['markdown', 'json'] = 'markdown', since: str | None = None, command: str | None = None, errors: bool = False) -> _AuditExport:
        """The workspace's audit log (.boardwire/session.jsonl: every call through every door, with its seconds and error) as a Markdown report or one JSON document.

        Registry command ``session.export`` (session, read-only).

        Args:
            report (Literal['markdown', 'json']): markdown: a report; json: the log's lines (default 'markdown')
            since (str | None): A span back (90s, 10m, 2h, 1d) or an ISO time
            command (str | None): A command id, or a prefix: pcb.*
            errors (bool): Only failed calls (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            session.export(report='markdown', since='1h')
        """
        ...

    def open(self, *, path: str | os.PathLike[str] | None = None) -> _DocumentResult:
        """Open a KiCad file (board, schematic, library, rules, table or project) into the session; commands also open what they name.

        Registry command ``session.open`` (session, read-only).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.

        Examples:
            session.open(path='board.kicad_pcb')
        """
        ...

    def redo(self, *, path: str | os.PathLike[str] | None = None) -> _DocumentResult:
        """Redo the last undone change of a document.

        Registry command ``session.redo`` (session).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def revert(self, *, path: str | os.PathLike[str] | None = None) -> _DocumentResult:
        """Drop unsaved changes and read the file again.

        Registry command ``session.revert`` (session, destructive).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def save(self, *, path: str | os.PathLike[str] | None = None, force: bool = False) -> _Saved:
        """Write a document to its file: atomic, with a backup, permissions kept; refuses (file-changed) to overwrite someone else's change unless force. Saves its changed .kicad_pro/.kicad_dru too (saved lists all).

        Registry command ``session.save`` (session).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document
            force (bool): Overwrite even if the file changed on disk since it was opened (default False)

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def transaction(self, *, steps: Sequence[dict[str, Any]], label: str | None = None) -> _Batch:
        """An alias of session.batch, which is already all-or-nothing across documents (one undo step each); its undo step is named session.transaction unless label is given.

        Registry command ``session.transaction`` (session).

        Args:
            steps (Sequence[dict[str, Any]]): (required)
            label (str | None): Name of the undo step

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

    def undo(self, *, path: str | os.PathLike[str] | None = None) -> _DocumentResult:
        """Undo the last change of a document (one command, or one whole batch).

        Registry command ``session.undo`` (session).

        Args:
            path (str | os.PathLike[str] | None): Document path relative to the working directory; default: the one document given by `--board`/`--schematic` (or `connect`), else the only open document

        Returns:
            dict: the command's JSON result; ``summary`` is one line saying what happened.

        Raises:
            BoardwireError: a subclass with a stable ``code`` (invalid-args, no-document, not-found,
                stale-revision, service-unavailable...; see docs/commands.md); a failed edit
                changes nothing.
        """
        ...

agent: _Agent
board: _Board
check: _Check
design: _Design
fab: _Fab
fw: _Fw
job: _Job
lib: _Lib
parts: _Parts
project: _Project
query: _Query
render: _Render
sch: _Sch
session: _Session
