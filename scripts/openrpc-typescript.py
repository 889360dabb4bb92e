#!/usr/bin/env python3
"""Generates a TypeScript client from proto-docs/openrpc.json.

What a third-party OpenRPC generator makes, small enough to keep here: one type per
component schema (named by its title), a Params interface and a Result type per method
and per server-to-client callback (x-callbacks), and a client class with one typed async
method per method over a `Transport` that sends `call(method, params)` (JSON-RPC 2.0, by
name).  Property names are always written quoted, so the APNs payload's hyphenated keys
("thread-id", "content-available") stay what they are on the wire.
`scripts/check-openrpc.sh` compiles the output with `tsc --strict --noEmit`.
Usage: openrpc-typescript.py [openrpc.json] > client.ts
"""
import json
import os
import re
import sys

REF = "#/components/schemas/"


def type_name(text):
    """A PascalCase identifier: "rpc.discover" -> "RpcDiscover"."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", text) if w]
    name = "".join(w[:1].upper() + w[1:] for w in words)
    return name if re.match(r"[A-Za-z_]", name) else "T" + name


def member_name(text):
    """A camelCase method name: "rpc.discover" -> "rpcDiscover"."""
    name = type_name(text)
    return name[:1].lower() + name[1:]


def comment(text, indent=""):
    if not text:
        return ""
    text = text.replace("*/", "*\\/")
    return f"{indent}/** {text} */\n"


def literal(value):
    return json.dumps(value, ensure_ascii=False)


def ts(schema, indent=""):
    """The TypeScript type of a JSON Schema (the subset the document uses)."""
    if schema is True or schema == {}:
        return "unknown"
    if schema is False:
        return "never"
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith(REF):
            return "unknown"  # outside the document (rpc.discover's result: the meta-schema)
        return type_name(ref[len(REF) :])
    for key, sep in (("oneOf", " | "), ("anyOf", " | "), ("allOf", " & ")):
        if key in schema:
            return "(" + sep.join(ts(s, indent) for s in schema[key]) + ")"
    if "const" in schema:
        return literal(schema["const"])
    if "enum" in schema:
        return "(" + " | ".join(literal(v) for v in schema["enum"]) + ")"
    kind = schema.get("type")
    if isinstance(kind, list):
        return "(" + " | ".join(ts({**schema, "type": k}, indent) for k in kind) + ")"
    if kind == "string":
        return "string"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "null":
        return "null"
    if kind == "array":
        return f"Array<{ts(schema.get('items', True), indent)}>"
    if kind == "object" or "properties" in schema:
        return object_type(schema.get("properties", {}), schema.get("required", []), schema, indent)
    return "unknown"


def object_type(properties, required, schema, indent):
    inner = indent + "  "
    lines = []
    for name, prop in properties.items():
        optional = "" if name in required else "?"
        description = prop.get("description") if isinstance(prop, dict) else None
        lines.append(comment(description, inner) + f"{inner}{literal(name)}{optional}: {ts(prop, inner)};\n")
    extra = schema.get("additionalProperties", True)
    if extra is not False:
        # With named members the index signature must admit them all: unknown does.
        value = "unknown" if properties or extra is True else ts(extra, inner)
        lines.append(f"{inner}[key: string]: {value};\n")
    if not lines:
        return "{}"
    return "{\n" + "".join(lines) + indent + "}"


def params_type(params):
    required = [p["name"] for p in params if p.get("required", False)]
    properties = {p["name"]: {**p["schema"], **({"description": p["description"]} if "description" in p else {})} for p in params}
    return object_type(properties, required, {"additionalProperties": False}, "")


def generate(doc):
    out = [
        f"// {doc['info']['title']} {doc['info']['version']}: a TypeScript client generated from\n",
        "// proto-docs/openrpc.json by scripts/openrpc-typescript.py.  Do not edit.\n\n",
    ]
    for key, schema in doc["components"]["schemas"].items():
        name = type_name(schema.get("title", key))
        if name != type_name(key):
            raise SystemExit(f"openrpc-typescript: schema {key} is titled {schema['title']}: $refs name the key")
        out.append(comment(schema.get("description")) + f"export type {name} = {ts(schema)};\n\n")

    for method in doc["methods"]:
        base = type_name(method["name"])
        out.append(comment(method.get("summary")) + f"export type {base}Params = {params_type(method['params'])};\n\n")
        result = method.get("result", {}).get("schema", True)
        out.append(f"export type {base}Result = {ts(result)};\n\n")

    callbacks = doc.get("x-callbacks", [])
    for callback in callbacks:
        base = type_name(callback["name"])
        out.append(
            comment(callback.get("summary")) + f"export type {base}CallbackParams = {params_type(callback['params'])};\n\n"
        )
    out.append("/** Each server-to-client callback's params, by method name. */\n")
    out.append("export interface CallbackParams {\n")
    for callback in callbacks:
        out.append(f"  {literal(callback['name'])}: {type_name(callback['name'])}CallbackParams;\n")
    out.append("}\n\n")

    out.append(
        "/** Sends one JSON-RPC 2.0 request with params by name and resolves with its result\n"
        " * (rejects with the error object). */\n"
        "export interface Transport {\n"
        "  call(method: string, params: object): Promise<unknown>;\n"
        "}\n\n"
        f"/** One typed method per method of {doc['info']['title']}. */\n"
        "export class Client {\n"
        "  constructor(private readonly transport: Transport) {}\n"
    )
    for method in doc["methods"]:
        base = type_name(method["name"])
        needed = any(p.get("required", False) for p in method["params"])
        arg = f"params: {base}Params" if needed else f"params: {base}Params = {{}}"
        out.append(
            "\n"
            + comment(method.get("summary"), "  ")
            + f"  async {member_name(method['name'])}({arg}): Promise<{base}Result> {{\n"
            f"    return (await this.transport.call({literal(method['name'])}, params)) as {base}Result;\n"
            "  }\n"
        )
    out.append("}\n")
    return "".join(out)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "proto-docs", "openrpc.json")
    with open(path, encoding="utf-8") as f:
        sys.stdout.write(generate(json.load(f)))


if __name__ == "__main__":
    main()
