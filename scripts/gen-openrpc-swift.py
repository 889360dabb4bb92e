#!/usr/bin/env python3
"""Compiles proto-docs/openrpc.json into Sources/UNServer/OpenRPCDocument.swift.

The JSON file is the complete, human-readable document; the daemon serves the same
document from `rpc.discover` without reading files at run time (a static binary in a
container has no resource bundle next to it).  The schemas that a shape describes
(`DescribedSchemas.all` in Sources/UNServer/DescribedSchemas.swift: the same
places as DESCRIBED below) are compiled without their `properties`, and the list of
field names in their description becomes a marker: the daemon builds both from
the shapes, and OpenRPCTests checks that the result is this file.
Usage: gen-openrpc-swift.py IN.json OUT.swift
"""
import json
import re
import sys

# Each described place: whether its properties come from the shape, and where its
# description lists field names (a regular expression around LIST).
DESCRIBED = [
    ("Content", True, r"always has (LIST)"),
    ("Category", True, r"always has (LIST)"),
    ("Action", True, r"always has (LIST)"),
    ("TextInput", True, None),
    ("Sound/oneOf/1", True, None),
    ("Attachment", True, None),
    ("TimeIntervalTrigger", True, None),
    ("CalendarTrigger", True, None),
    ("PushTrigger", True, None),
    ("DateComponents", True, None),
    ("Request", True, None),
    ("Notification", True, None),
    ("Response", True, None),
    ("Group", True, None),
    ("ApnsPayload/properties/aps/properties/alert/oneOf/1", False, r"^(LIST);"),
]
MARKER = "{fields}"

src, dst = sys.argv[1], sys.argv[2]
with open(src, encoding="utf-8") as f:
    doc = json.load(f)

content_fields = list(doc["components"]["schemas"]["Content"]["properties"])
for place, shaped, listing in DESCRIBED:
    schema = doc["components"]["schemas"]
    for step in place.split("/"):
        schema = schema[int(step)] if isinstance(schema, list) else schema[step]
    if shaped:
        # The daemon puts the properties back right after "type" (a "title" may come first).
        keys = list(schema)
        assert "type" in keys and keys[keys.index("type") + 1 : keys.index("type") + 2] == ["properties"], (
            f"{place}: properties must follow type"
        )
        # The list in the description names the shape's own fields (aps.alert: content's).
        fields = list(schema.pop("properties"))
    else:
        fields = content_fields
    if listing is None:
        continue
    name = "(?:" + "|".join(sorted(map(re.escape, fields), key=len, reverse=True)) + r")\b"
    names = rf"{name}(?:, {name})*(?: and {name})?"
    pattern = listing.replace("LIST", names)
    described, count = re.subn(pattern, lambda m: m.group(0).replace(m.group(1), MARKER), schema["description"])
    assert count == 1, f"{place}: no list of field names in the description"
    schema["description"] = described

compact = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
assert '"""#' not in compact
with open(dst, "w", encoding="utf-8") as f:
    f.write(
        "import JSONRPC\n\n"
        "/// The OpenRPC document served by `rpc.discover`.  Generated from\n"
        "/// `proto-docs/openrpc.json` by `make openrpc`; do not edit by hand (a test checks\n"
        "/// that the two are the same document).  The properties of the schemas that a\n"
        "/// shape describes are left out here and put back from the shapes\n"
        "/// (`DescribedSchemas`).\n"
        "enum OpenRPCDocument {\n"
        "  static let value: JSONValue = {\n"
        "    let bytes = Array(text.utf8)\n"
        "    let parsed =\n"
        "      (try? bytes.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in\n"
        "        try JSONParser.parse(b)\n"
        "      }) ?? .null\n"
        "    return DescribedSchemas.splice(into: parsed)\n"
        "  }()\n\n"
        "  static let text = #\"\"\"\n"
        + "    " + compact + "\n"
        "    \"\"\"#\n"
        "}\n"
    )
