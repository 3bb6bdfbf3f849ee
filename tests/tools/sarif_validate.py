"""Validate SARIF files against the SARIF 2.1.0 JSON schema.
Usage: sarif_validate.py SCHEMA FILE...; prints one JSON object per file
({"file", "errors": [...]}), exit 0 (the Rust test asserts on the output)."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1], encoding="utf-8"))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
out = []
for path in sys.argv[2:]:
    doc = json.load(open(path, encoding="utf-8"))
    errs = [f"{'/'.join(str(p) for p in e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]
    out.append({"file": path, "errors": errs[:20]})
print(json.dumps(out))
