"""What commands return: the result models of the scopes with one module (agent, check,
design, fab, job, lib, parts, render, session) and the pieces every scope shares. The
scope packages keep theirs in their own ``results.py``.

A command's ``result`` model is its output schema (`Command.output_schema`) and the
return type of its script function (the API stubs). Every result has ``summary``;
numbers are millimetres, degrees and seconds as each field says (KiCad's axes: x
right, y down). Models allow keys they do not name (a client must tolerate more), but
the test suite checks every result it produces (``BOARDWIRE_CHECK_RESULTS``,
`registry.check_result`): each key named, each of its type, every required one there.
The generic `common.Result` is left only to a command whose result is open (job.wait:
another command's result).

A key a result may leave out has the default None, and the type of what it holds when
there: ``X = None`` is absent or an X, never null; ``X | None`` may be null.

Row lists a command declares as ``tables`` come as row objects, or over MCP (format
"table", `registry.tables`) as one string: those fields take both (`TABLE`).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from .common import Result

TABLE = "rows; a line table (one string) when the call's format is table"


class Typed(Result):
    """The base of a typed result: every key it may hold is named."""

    open_keys: ClassVar[bool] = False
    new_ids: list[str] = Field(None, description="Ids of the items created (the registry adds them to any result)")
    new_count: int = Field(None, description="How many items were created, instead of new_ids when a model reads the result and they are many")


class Row(BaseModel):
    """An object inside a result (a row, a group of counts)."""

    model_config = ConfigDict(extra="allow", defer_build=True)


class OpenRow(Row):
    """An object whose keys are another program's (KiCad's net class settings, a raw
    report entry): only the keys named here are typed."""

    open_keys: ClassVar[bool] = True


XY = Annotated[list[float], Field(description="[x, y] mm")]
Box = Annotated[list[float], Field(description="[x1, y1, x2, y2] mm")]
Mm = Annotated[float, Field(description="mm")]
Degrees = Annotated[float, Field(description="degrees")]
Seconds = Annotated[float, Field(description="s")]


class Paged(Typed):
    total: int = Field(description="Rows that match, all pages")
    offset: int = Field(description="Index of the first row shown")


class FileWritten(Row):
    path: str = Field(description="Relative to the working directory")
    bytes: int


class Change(Row):
    """One value changed, as ``from`` and ``to``."""

    from_: str = Field(alias="from")
    to: str


# -- edits ------------------------------------------------------------------------------

class FeedbackItem(Row):
    id: str | None
    description: str
    at: XY


class NewViolation(Row):
    """A DRC violation the edit introduced (boardwire's built-in rules)."""

    rule: str = Field(description="KiCad's violation type, e.g. clearance")
    severity: str
    description: str
    items: list[FeedbackItem]
    at: XY
    actual_mm: float = Field(None, description="What the board has, mm")
    required_mm: float = Field(None, description="What the rule asks, mm")
    layer: str = None


class LiveStatus(Row):
    """The board's attach to a running KiCad PCB editor (session.live)."""

    attached: bool
    path: str | None
    editor: str = Field(description="KiCad's version")
    kicad_commits: int = Field(description="Edits mirrored into KiCad")
    kicad_edits_taken: int = Field(description="A person's edits in KiCad taken in")
    unmirrored: int = Field(description="Items KiCad's API could not carry (shown after a save)")
    reason: str = Field(None, description="Why it detached")


class Edited(Typed):
    """The base of edit results: what the registry and the edit hooks add."""

    revision: int = Field(None, description="The edited document's revision after the edit")
    new_violations: list[NewViolation] = Field(
        None, description="Board edits: the DRC violations the edit introduced (the first 50)")
    live: LiveStatus = Field(None, description="With a KiCad editor attached: its state")


class Done(Typed):
    """A summary and nothing else."""


class Created(Edited):
    id: str = Field(description="The new item's id (uuid)")


# -- session ----------------------------------------------------------------------------

class DocumentInfo(Row):
    path: str
    kind: str = Field(description="board, schematic, symbol_library, footprint, library_table, design_rules, project, worksheet")
    revision: int
    modified: bool = Field(description="Unsaved changes")
    undo: int = Field(description="Undo steps kept")
    redo: int


class DocumentResult(Typed, DocumentInfo):
    pass


class Saved(DocumentResult):
    hash: str = Field(description="SHA-256 of the file written")
    saved: list[str] = Field(description="Every file written: the document's unsaved project files "
                                         "(.kicad_pro, .kicad_dru beside it), then the document")


class Documents(Typed):
    root: str = Field(description="The working directory")
    documents: list[DocumentInfo]


class SessionDescribed(Documents):
    commands: dict[str, int] = Field(description="Commands per scope")


class Batch(Typed):
    results: list[dict[str, Any]] = Field(description="Each step's result, in order (its command's result)")


class AuditExport(Typed):
    calls: list[dict[str, Any]] = Field(None, description="report json: the log's lines")
    markdown: str = Field(None, description="report markdown: the report")


# -- agent ------------------------------------------------------------------------------

class ChatRequest(Row):
    chatId: str
    text: str
    path: str | None
    at: float = Field(description="Unix time")


class ChatEdit(Row):
    path: str
    revision: int
    label: str
    actor: str


class ChatState(ChatRequest):
    state: Literal["pending", "running", "done", "error"]
    takenBy: str | None
    answer: str
    progress: str
    percent: float | None = Field(description="0..100")
    error: str | None
    edits: list[ChatEdit]


class ChatTaken(Typed):
    requests: list[ChatRequest]


class ChatReplied(Typed):
    state: Literal["pending", "running", "done", "error"]
    edits: int = Field(description="Edits counted for the request")


class ChatAsked(Typed):
    chatId: str
    listening: bool


class ChatRequests(Typed):
    requests: list[ChatState]
    listening: bool


# -- job --------------------------------------------------------------------------------

class ErrorInfo(Row):
    code: str
    message: str
    hint: str = None
    data: dict[str, Any] = None
    needs_human: dict[str, Any] = None


class JobInfo(Row):
    job: str
    command: str
    state: Literal["running", "done", "failed", "cancelled"]
    progress: float = Field(description="0..1")
    tail: list[str] = Field(description="Its last output lines")
    seconds: Seconds
    error: ErrorInfo = None


class JobResult(Typed, JobInfo):
    pass


class JobStatus(Typed):
    """With ``job``: that job's fields; without: ``jobs``."""

    job: str = None
    command: str = None
    state: Literal["running", "done", "failed", "cancelled"] = None
    progress: float = Field(None, description="0..1")
    tail: list[str] = None
    seconds: float = Field(None, description="s")
    error: ErrorInfo = None
    jobs: list[JobInfo] | str = Field(None, description=TABLE)


# -- check ------------------------------------------------------------------------------

class DrcItem(Row):
    id: str | None
    description: str | None
    at: XY | None


class DrcViolation(Row):
    type: str | None
    severity: str | None
    description: str | None
    items: list[DrcItem]


class Unconnected(Row):
    description: str | None
    items: list[DrcItem]


class ParityIssue(Row):
    type: str | None
    description: str | None


class DrcCounts(Row):
    """Of every finding, not only those listed: errors and warnings are severities
    over violations, unconnected items and parity issues alike."""

    violations: int
    unconnected: int
    parity: int
    errors: int
    warnings: int
    library_checks: int = Field(description="Library parity findings (lib_footprint_issues...)")


class DrcReport(Row):
    violations: list[DrcViolation] | str = Field(description=TABLE)
    unconnected: list[Unconnected] | str = Field(description=TABLE)
    parity: list[ParityIssue] | str = Field(description=TABLE)
    counts: DrcCounts
    by_type: dict[str, int] = Field(description="Violations per type")
    kicad_version: str | None


class Agreement(Row):
    kicad: int
    builtin: int
    both: int
    only_kicad: list[dict[str, Any]] = Field(description="KiCad's report entries")
    only_builtin: list[dict[str, Any]]


UNSAVED = ("Documents judged as they are in memory that differ from their files on disk "
           "(session.save writes them; kicad-cli run on the files would judge the saved ones)")


class Drc(Typed, DrcReport):
    revision: int
    unsaved: list[str] = Field(None, description=UNSAVED)
    engine: Literal["builtin"] = Field(None, description="engine builtin: the built-in rules ran")
    unsupported_rules: list[str] = Field(None, description="engine builtin: custom rules it skipped")
    builtin: DrcReport = Field(None, description="engine both: the built-in engine's report")
    agreement: dict[str, Agreement] = Field(None, description="engine both: per built-in rule")


class ErcItem(Row):
    id: str = None
    description: str = None
    at: XY = None


class ErcViolation(Row):
    type: str | None
    severity: str | None
    description: str | None
    sheet: str | None = Field(description="Sheet instance path")
    items: list[ErcItem]


class ErcCounts(Row):
    violations: int
    errors: int
    warnings: int
    library_checks: int


class Erc(Typed):
    violations: list[ErcViolation] | str = Field(description=TABLE)
    counts: ErcCounts
    by_type: dict[str, int]
    by_sheet: dict[str, int] = Field(description="Violations per sheet instance path")
    kicad_version: str | None
    missing_sheets: list[str] = None
    revision: int


# -- design -----------------------------------------------------------------------------

class DesignFinding(Row):
    code: str
    where: str
    message: str
    fix: str


class DesignBrief(Typed):
    text: str = Field(description="The schema as compact text: the text content over MCP, for clients that show no structuredContent")
    schema_: dict[str, Any] = Field(alias="schema", description="The design document's JSON Schema")
    checks: str
    stages: list[str]
    rules: str
    example: dict[str, Any]


class DesignChecked(Typed):
    ok: bool
    errors: list[DesignFinding]
    warnings: list[DesignFinding]
    components: str = Field(description="Line table: ref, symbol, footprint, value, lcsc")
    power: list[str]


class StageRow(Row):
    stage: str
    status: str = Field(description="done, failed, skipped...")
    seconds: Seconds
    summary: str
    data: dict[str, Any] = None


class ErcCount(Row):
    errors: int
    warnings: int


class DrcCount(ErcCount):
    unconnected: int
    parity: int


class Decoupling(Row):
    """A decoupling capacitor measured to the IC pin it serves (the design's
    ``constraints.decouple``, else assigned as pcb.autoplace assigns it)."""

    ref: str
    pin: str = Field(description="REF.PIN it serves")
    net: str
    distance_mm: float = Field(description="Its supply pad to the pin's nearest pad, copper edge to edge")
    target_mm: float = Field(description="2 for a small capacitor, 5 for a bulk one (4.7 uF and more)")
    beyond: bool = Field(description="distance_mm > target_mm")


class EdgeDistance(Row):
    ref: str
    mm: float


class Rubric(Row):
    decoupling: list[Decoupling]
    connectors_to_edge: list[EdgeDistance]
    area_used: float | None = Field(None, description="Courtyard area / board area (null for an empty board)")
    silk_findings: int
    schematic_overlaps: int = None


class Verdict(Row):
    summary: str
    clean: bool
    erc: ErcCount
    drc: DrcCount
    unrouted: int
    rubric: Rubric
    render: str = Field(description="board.png, or why not rendered")


class VerdictResult(Typed, Verdict):
    pass


class Built(Typed):
    version: str = Field(description="The version folder, OUT/NAME/vNNN")
    schematic: str | None
    board: str | None
    stages: list[StageRow]
    verdict: Verdict | None


class Rebuilt(Built):
    identical: list[str] = Field(description="Project files byte-identical to the version's")
    different: list[str]


# -- fab --------------------------------------------------------------------------------

class PlotOptions(Row):
    protel_extensions: bool
    subtract_mask_from_silk: bool
    x2: bool
    netlist: bool
    aperture_macros: bool
    use_drill_origin: bool


class FabFiles(Typed):
    files: list[FileWritten]
    revision: int


class Gerbers(FabFiles):
    layers: list[str]
    options: PlotOptions


class Bom(FabFiles):
    source: Literal["schematic", "board"]


class FabDrc(DrcCounts):
    blocking: int = Field(description="Findings that block the package (forced past when not 0)")


class Package(FabFiles):
    zip: FileWritten
    groups: dict[str, list[str]] = Field(description="gerbers, drill, positions, bom: their paths")
    layers: list[str]
    bom_source: Literal["schematic", "board"]
    options: PlotOptions
    preset: Literal["generic", "jlcpcb"]
    drc: FabDrc
    unsaved: list[str] = Field(None, description=UNSAVED)


# -- lib --------------------------------------------------------------------------------

class LibRow(Row):
    kind: Literal["symbol", "footprint"]
    id: str = Field(description="Library:Name")
    description: str
    keywords: str = None
    pins: int = None
    pads: int = None
    units: int = None


class LibSearch(Paged):
    items: list[LibRow] | str = Field(description=TABLE)
    skipped_libraries: list[str] = None


class LibPin(Row):
    number: str
    name: str
    type: str = Field(description="Electrical type")
    unit: int = Field(description="0: common to all units")
    at: XY
    orientation: Degrees
    length: Mm
    hidden: bool = None


class LibSymbol(Typed):
    id: str
    description: str
    keywords: str
    footprint_filters: list[str]
    units: int
    body_styles: int
    power: bool
    fields: dict[str, str]
    pins: list[LibPin]
    extends: str = None
    unit_names: dict[str, str] = None


class LibPad(Row):
    number: str
    type: str
    shape: str
    at: XY
    angle: Degrees = None
    size: XY = None
    drill: float | list[float] = Field(None, description="mm, or [w, h] mm for an oval")
    layers: list[str]


class Courtyard(Row):
    min: XY
    max: XY
    size: XY


class LibFootprint(Typed):
    id: str
    description: str
    tags: str
    attributes: list[str]
    fields: dict[str, str]
    courtyard: dict[str, Courtyard] = Field(description="Per courtyard layer")
    pads: list[LibPad]
    models: list[str]


class LibAddedRow(Row):
    nickname: str = Field(description="The library's name in its table (Nickname:Item ids)")
    kind: Literal["symbol", "footprint"]
    uri: str = Field(description="As written in the table: ${KIPRJMOD}/...")
    items: int = Field(description="Symbols in the file, or footprints in the folder")


class LibAdded(Typed):
    libraries: list[LibAddedRow]
    nicknames: list[str] = Field(description="The nicknames added, symbol libraries first")
    tables: list[str] = Field(description="Library tables written (created if absent), workspace-relative")
    folder: str = Field(None, description="Where an archive was extracted (or loose footprints gathered)")
    models: int = Field(description="3D models (.step, .wrl) the library holds")
    models_relinked: int = Field(description="Footprint model paths pointed at the library's own models")
    left_out: list[str] = Field(None, description="Other files of the source (datasheets, KiCad 5 .lib): not registered")


class LibNewFootprint(Typed):
    id: str = Field(description="LIBRARY:NAME")
    path: str = Field(description="The .kicad_mod written, workspace-relative")
    pads: int
    courtyard: XY = Field(description="[width, height] mm")
    sources: list[str] = Field(description="Where the dimensions come from")
    table: str = Field(None, description="The library table the library was added to (when it was not in one)")


class LibNewSymbol(Typed):
    id: str = Field(description="LIBRARY:NAME")
    path: str = Field(description="The .kicad_sym written, workspace-relative")
    body: XY = Field(description="[width, height] mm")
    sides: dict[str, list[str]] = Field(description="left/right/top/bottom -> pin numbers, top to bottom / left to right")
    table: str = Field(None, description="The library table the library was added to (when it was not in one)")


# -- parts ------------------------------------------------------------------------------

class PartRow(Row):
    lcsc: str | None
    mpn: str | None
    package: str | None
    tier: str | None
    stock: int | None
    usd: float | None
    footprint: str | None
    description: str | None


class PartPin(Row):
    number: str | None
    name: str | None
    type: str | None
    unit: int | None
    pad: str | None


class Lines(Typed):
    """format lines: ``table``; format json: ``rows`` with ``chosen`` and ``cut``."""

    table: str = Field(None, description="format lines: the line table")
    chosen: int | None = Field(None, description="format json: the index of the row a build picks")
    cut: int = Field(None, description="format json: rows left out")


class PartsSearch(Lines):
    total: int
    match: Literal["all", "some", "none"]
    catalogue: str = Field(description='The catalogue searched: "imported (N parts)", "bundled sample (N parts)" '
                                       '(no catalogue imported yet) or "none imported"')
    rows: list[PartRow] = None
    missing: bool = Field(None, description="No row has every word")
    library_candidates: list[LibRow] = None


class PartFields(Row):
    LCSC: str
    MPN: str | None
    Manufacturer: str | None


class PartsPins(Lines):
    symbol: str
    footprint: str | None
    pads_without_pin: list[str]
    pins_without_pad: list[str]
    rows: list[PartPin] = None
    fields: PartFields = None
    catalogue: str = Field(None, description="The catalogue the part came from (as parts.search's)")


class PartsImported(Typed):
    rows: int
    added: int
    replaced: int
    total: int = Field(description="Parts in the catalogue")


# -- render -----------------------------------------------------------------------------

class Image(Row):
    mime_type: str
    data: str = Field(description="base64")


class Png(Typed):
    output: str = Field(None, description="The file written, when output was given")
    image: Image = None


class Svg(Typed):
    mime_type: str
    output: str = None
    svg: str = None
