"""The fixtures the official MCP conformance suite (npm ``@modelcontextprotocol/
conformance``) calls on a server under test: ``test_*`` tools, ``test://``
resources and ``test_*`` prompts, each answering exactly what the suite's scenario
descriptions ask for (``conformance list``; ``conformance server --help``).

Test code, not part of the package: conformance_server.py serves boardwire with them
(see docs/mcp-conformance.md). They are not registry commands and never reach a
workspace: `wrap` puts them in front of the real handlers, so everything the suite
asks about that is not a fixture (initialize, ping, tools/list shapes, logging,
completion, subscriptions, Origin checks) is answered by the real server code.
"""

from __future__ import annotations

import base64
import json
import re
import warnings

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from boardwire.protocols.mcp.calls import send_log

# A 1x1 red PNG and a 1-sample silent WAV: the smallest valid payloads.
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
WAV = base64.b64encode(b"RIFF" + (38).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
                       + (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + (8000).to_bytes(4, "little")
                       + (16000).to_bytes(4, "little") + (2).to_bytes(2, "little") + (16).to_bytes(2, "little")
                       + b"data" + (2).to_bytes(4, "little") + b"\0\0").decode()
NO_ARGS = {"type": "object", "properties": {}}


def _text(text: str) -> types.TextContent:
    return types.TextContent(text=text)


def _image() -> types.ImageContent:
    return types.ImageContent(data=PNG, mime_type="image/png")


def _embedded(uri: str, mime: str, text: str) -> types.EmbeddedResource:
    return types.EmbeddedResource(resource=types.TextResourceContents(uri=uri, mime_type=mime, text=text))


# -- tools ---------------------------------------------------------------------------

async def _logging(ctx, args):
    for i, message in enumerate(("Tool execution started", "Tool processing data", "Tool execution completed")):
        if i:
            await anyio.sleep(0.05)
        await send_log(ctx, "info", message)
    return [_text("Tool with logging executed successfully")]


async def _progress(ctx, args):
    for i, value in enumerate((0, 50, 100)):
        if i:
            await anyio.sleep(0.05)
        await ctx.session.report_progress(value, 100)
    return [_text("Tool with progress executed successfully")]


async def _sampling(ctx, args):
    with warnings.catch_warnings():  # sampling leaves the spec on 2026-07-28, not before
        warnings.simplefilter("ignore")
        out = await ctx.session.create_message(
            [types.SamplingMessage(role="user", content=_text(str(args.get("prompt", ""))))], max_tokens=100,
            related_request_id=ctx.request_id)
    content = out.content if not isinstance(out.content, list) else out.content[0]
    return [_text(f"LLM response: {getattr(content, 'text', content)}")]


async def _elicit(ctx, message: str, schema: dict, prefix: str):
    out = await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
    return [_text(f"{prefix}action={out.action}, content={json.dumps(out.content)}")]


async def _elicitation(ctx, args):
    schema = {"type": "object", "required": ["username", "email"], "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"}}}
    return await _elicit(ctx, str(args.get("message", "")), schema, "User response: ")


async def _defaults(ctx, args):
    schema = {"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "default": True}}}
    return await _elicit(ctx, "Please review your information", schema, "Elicitation completed: ")


async def _enums(ctx, args):
    options = ["option1", "option2", "option3"]
    schema = {"type": "object", "properties": {
        "untitledSingle": {"type": "string", "enum": options},
        "titledSingle": {"type": "string", "oneOf": [{"const": f"value{i}", "title": t} for i, t in
                                                      enumerate(("First Option", "Second Option", "Third Option"), 1)]},
        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                       "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array", "items": {"type": "string", "enum": options}},
        "titledMulti": {"type": "array", "items": {"anyOf": [
            {"const": f"value{i}", "title": t}
            for i, t in enumerate(("First Choice", "Second Choice", "Third Choice"), 1)]}}}}
    return await _elicit(ctx, "Please choose", schema, "Elicitation completed: ")


def _fixed(*content):
    async def run(ctx, args):
        return list(content)
    return run


async def _error(ctx, args):
    raise RuntimeError("This tool intentionally returns an error for testing")


SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
    "$defs": {"address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    "additionalProperties": False,
}

# name -> (description, input schema, implementation)
TOOLS = {
    "test_simple_text": ("Returns simple text", NO_ARGS, _fixed(_text("This is a simple text response for testing."))),
    "test_image_content": ("Returns an image", NO_ARGS, _fixed(_image())),
    "test_audio_content": ("Returns audio", NO_ARGS, _fixed(types.AudioContent(data=WAV, mime_type="audio/wav"))),
    "test_embedded_resource": ("Returns an embedded resource", NO_ARGS, _fixed(
        _embedded("test://embedded-resource", "text/plain", "This is an embedded resource content."))),
    "test_multiple_content_types": ("Returns text, an image and a resource", NO_ARGS, _fixed(
        _text("Multiple content types test:"), _image(),
        _embedded("test://mixed-content-resource", "application/json", '{"test":"data","value":123}'))),
    "test_tool_with_logging": ("Sends three log messages", NO_ARGS, _logging),
    "test_error_handling": ("Always fails", NO_ARGS, _error),
    "test_tool_with_progress": ("Reports progress 0, 50, 100 of 100", NO_ARGS, _progress),
    "test_sampling": ("Asks the client's LLM", {"type": "object", "properties": {"prompt": {"type": "string"}},
                                                "required": ["prompt"]}, _sampling),
    "test_elicitation": ("Asks the user", {"type": "object", "properties": {"message": {"type": "string"}},
                                           "required": ["message"]}, _elicitation),
    "test_elicitation_sep1034_defaults": ("Asks the user, with defaults", NO_ARGS, _defaults),
    "test_elicitation_sep1330_enums": ("Asks the user, with every enum form", NO_ARGS, _enums),
    "json_schema_2020_12_tool": ("Tool with JSON Schema 2020-12 features", SCHEMA_2020_12, _fixed(_text("ok"))),
}


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    _, _, run = TOOLS[params.name]
    try:
        return types.CallToolResult(content=await run(ctx, params.arguments or {}))
    except MCPError:
        raise
    except Exception as e:  # noqa: BLE001 - a failing tool is an isError result
        return types.CallToolResult(content=[_text(str(e))], is_error=True)


# -- resources -----------------------------------------------------------------------

RESOURCES = {
    "test://static-text": ("text/plain", "This is the content of the static text resource."),
    "test://static-binary": ("image/png", None),
    "test://watched-resource": ("text/plain", "Watched resource content."),
}
TEMPLATE = re.compile(r"test://template/([^/]+)/data")


def read_resource(u: str) -> types.ReadResourceResult | None:
    m = TEMPLATE.fullmatch(u)
    if m:
        body = json.dumps({"id": m[1], "templateTest": True, "data": f"Data for ID: {m[1]}"})
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=u, mime_type="application/json",
                                                                              text=body)])
    if u not in RESOURCES:
        return None
    mime, text = RESOURCES[u]
    content = (types.BlobResourceContents(uri=u, mime_type=mime, blob=PNG) if text is None
               else types.TextResourceContents(uri=u, mime_type=mime, text=text))
    return types.ReadResourceResult(contents=[content])


# -- prompts -------------------------------------------------------------------------

def _arg(name: str, description: str) -> types.PromptArgument:
    return types.PromptArgument(name=name, description=description, required=True)


PROMPTS = {
    "test_simple_prompt": ("A prompt without arguments", []),
    "test_prompt_with_arguments": ("A prompt with two arguments", [_arg("arg1", "First test argument"),
                                                                    _arg("arg2", "Second test argument")]),
    "test_prompt_with_embedded_resource": ("A prompt embedding a resource", [_arg("resourceUri", "URI to embed")]),
    "test_prompt_with_image": ("A prompt with an image", []),
}


def get_prompt(name: str, a: dict) -> types.GetPromptResult:
    missing = [p.name for p in PROMPTS[name][1] if p.name not in a]
    if missing:
        raise MCPError(types.INVALID_PARAMS, f"prompt {name} needs {', '.join(missing)}")

    def user(content) -> types.PromptMessage:
        return types.PromptMessage(role="user", content=content)

    if name == "test_simple_prompt":
        messages = [user(_text("This is a simple prompt for testing."))]
    elif name == "test_prompt_with_arguments":
        messages = [user(_text(f"Prompt with arguments: arg1='{a['arg1']}', arg2='{a['arg2']}'"))]
    elif name == "test_prompt_with_embedded_resource":
        messages = [user(_embedded(a["resourceUri"], "text/plain", "Embedded resource content for testing.")),
                    user(_text("Please process the embedded resource above."))]
    else:
        messages = [user(_image()), user(_text("Please analyze the image above."))]
    return types.GetPromptResult(description=PROMPTS[name][0], messages=messages)


# -- wiring --------------------------------------------------------------------------

def wrap(handlers: dict) -> dict:
    """The server's handlers with the fixtures answered first."""
    real = dict(handlers)
    tools = [types.Tool(name=n, description=d, input_schema=s) for n, (d, s, _) in TOOLS.items()]

    async def on_list_tools(ctx, params):
        out = await real["on_list_tools"](ctx, params)
        return types.ListToolsResult(tools=[*out.tools, *tools])

    async def on_call_tool(ctx, params):
        if params.name in TOOLS:
            return await call_tool(ctx, params)
        return await real["on_call_tool"](ctx, params)

    async def on_list_resources(ctx, params):
        out = await real["on_list_resources"](ctx, params)
        mine = [types.Resource(uri=u, name=u.split("//")[1], description=f"conformance fixture {u}", mime_type=m)
                for u, (m, _) in RESOURCES.items()]
        return types.ListResourcesResult(resources=[*out.resources, *mine])

    async def on_list_templates(ctx, params):
        out = await real["on_list_resource_templates"](ctx, params)
        mine = types.ResourceTemplate(uri_template="test://template/{id}/data", name="template",
                                      description="conformance fixture template", mime_type="application/json")
        return types.ListResourceTemplatesResult(resource_templates=[*out.resource_templates, mine])

    async def on_read_resource(ctx, params):
        return read_resource(str(params.uri)) or await real["on_read_resource"](ctx, params)

    async def on_subscribe(ctx, params):
        return types.EmptyResult() if str(params.uri) in RESOURCES else await real["on_subscribe_resource"](ctx, params)

    async def on_unsubscribe(ctx, params):
        if str(params.uri) in RESOURCES:
            return types.EmptyResult()
        return await real["on_unsubscribe_resource"](ctx, params)

    async def on_list_prompts(ctx, params):
        out = await real["on_list_prompts"](ctx, params)
        mine = [types.Prompt(name=n, description=d, arguments=a) for n, (d, a) in PROMPTS.items()]
        return types.ListPromptsResult(prompts=[*out.prompts, *mine])

    async def on_get_prompt(ctx, params):
        if params.name in PROMPTS:
            return get_prompt(params.name, dict(params.arguments or {}))
        return await real["on_get_prompt"](ctx, params)

    def input_schema(name: str):
        return TOOLS[name][1] if name in TOOLS else real["get_tool_input_schema"](name)

    return {**real, "get_tool_input_schema": input_schema, "on_list_tools": on_list_tools,
            "on_call_tool": on_call_tool, "on_list_resources": on_list_resources,
            "on_list_resource_templates": on_list_templates, "on_read_resource": on_read_resource,
            "on_subscribe_resource": on_subscribe, "on_unsubscribe_resource": on_unsubscribe,
            "on_list_prompts": on_list_prompts, "on_get_prompt": on_get_prompt}
