#!/usr/bin/env python3
"""Checks proto-docs/openrpc.json against the official OpenRPC meta-schema and the rules
of the OpenRPC specification that the meta-schema cannot express.

The meta-schema and the JSON Schema meta-schema it refers to are vendored under
proto-docs/meta-schema/ (README.md there names their source and licence), so the check
runs offline.  Besides the meta-schema, the specification asks that optional params come
after all required ones, and code generators name a type after a schema's `title`: every
component schema must have one.  Needs `jsonschema` (scripts/check-openrpc.sh installs it
into .build/venv).
Usage: check-openrpc.py [openrpc.json]
"""
import json
import os
import sys

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
META = os.path.join(ROOT, "proto-docs", "meta-schema")
# Where the OpenRPC meta-schema refers to the JSON Schema meta-schema, and that file's own id.
JSON_SCHEMA_URIS = [
    "https://raw.githubusercontent.com/json-schema-tools/meta-schema/1.5.9/src/schema.json",
    "https://meta.json-schema.tools/",
]


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def meta_schema_errors(doc):
    openrpc = load(os.path.join(META, "openrpc-meta-schema.json"))
    json_schema = Resource.from_contents(load(os.path.join(META, "json-schema-tools-meta-schema.json")), DRAFT7)
    registry = Registry().with_resources((uri, json_schema) for uri in JSON_SCHEMA_URIS)
    validator = jsonschema.Draft7Validator(openrpc, registry=registry)
    errors = []
    for error in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        # A oneOf failure's own message repeats the whole instance: its best context says why.
        best = jsonschema.exceptions.best_match([error])
        where = "/".join(str(p) for p in best.absolute_path) or "(document)"
        errors.append(f"{where}: {best.message[:300]}")
    return errors


def rule_errors(doc):
    errors = []
    for method in doc["methods"]:
        seen_optional = None
        for param in method["params"]:
            if param.get("required", False) and seen_optional:
                errors.append(
                    f"methods/{method['name']}: required param '{param['name']}' after optional '{seen_optional}'"
                )
            elif not param.get("required", False):
                seen_optional = seen_optional or param["name"]
    for name, schema in doc.get("components", {}).get("schemas", {}).items():
        if "title" not in schema:
            errors.append(f"components/schemas/{name}: no title")
    return errors


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "proto-docs", "openrpc.json")
    doc = load(path)
    errors = meta_schema_errors(doc)
    for e in errors:
        print(f"openrpc: meta-schema: {e}", file=sys.stderr)
    rules = rule_errors(doc)
    for e in rules:
        print(f"openrpc: {e}", file=sys.stderr)
    if errors or rules:
        print(f"openrpc: FAILED: {path}: {len(errors)} meta-schema errors, {len(rules)} rule errors", file=sys.stderr)
        return 1
    print(f"openrpc: {path} passes the OpenRPC {doc['openrpc']} meta-schema ({len(doc['methods'])} methods)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
