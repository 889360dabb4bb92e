#!/usr/bin/env python3
"""Compiles proto-docs/openrpc.json into Sources/UNServer/OpenRPCDocument.swift.

The JSON file is the source of truth; the daemon serves the same document from
`rpc.discover` without reading files at run time (a static binary in a container has
no resource bundle next to it).  Usage: gen-openrpc-swift.py IN.json OUT.swift
"""
import json
import sys

src, dst = sys.argv[1], sys.argv[2]
with open(src, encoding="utf-8") as f:
    doc = json.load(f)
compact = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
assert '"""#' not in compact
with open(dst, "w", encoding="utf-8") as f:
    f.write(
        "import JSONRPC\n\n"
        "/// The OpenRPC document served by `rpc.discover`.  Generated from\n"
        "/// `proto-docs/openrpc.json` by `make openrpc`; do not edit by hand (a test checks\n"
        "/// that the two are the same document).\n"
        "enum OpenRPCDocument {\n"
        "  static let value: JSONValue = {\n"
        "    let bytes = Array(text.utf8)\n"
        "    return\n"
        "      (try? bytes.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in\n"
        "        try JSONParser.parse(b)\n"
        "      }) ?? .null\n"
        "  }()\n\n"
        "  static let text = #\"\"\"\n"
        + "    " + compact + "\n"
        "    \"\"\"#\n"
        "}\n"
    )
