#!/usr/bin/env python3
"""Validate the hand-written dev corpus (tests/corpora/dev/{tune,test}/*.json).

Python 3 standard library only. Exits non-zero on any error and prints a table
of case counts per technique / benign kind and half.

    python3 tests/corpora/dev/validate.py [--quiet]
"""
import collections
import json
import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.abspath(__file__))
HALVES = ("tune", "test")

# technique -> minimum number of cases over both halves (from the corpus brief)
MALICIOUS = collections.OrderedDict([
    ("euphemism", 6), ("multilingual", 26), ("schema-carrier", 14), ("param-description", 8),
    ("redirection", 10), ("innocent-param-exfil", 8), ("url-exfil", 8), ("prompt-theft", 8),
    ("line-jumping", 14), ("command", 10), ("split-payload", 8), ("hidden-text", 8),
    ("zero-width", 8), ("bidi", 6), ("lookalike-name", 8), ("classic-poisoning", 8),
    ("elicitation", 6), ("cross-server-shadowing", 6), ("plain-intent", 0),
])
BENIGN = collections.OrderedDict([
    ("benign-quoted-attacks", 1), ("benign-own-tool-guidance", 1), ("benign-honest-disclosure", 1),
    ("benign-sensitive-by-function", 1), ("benign-shell-docs", 1), ("benign-tokens-and-examples", 1),
    ("benign-multilingual", 22), ("benign-schema", 1), ("benign-server-instructions", 1),
    ("benign-marketing", 1), ("benign-unicode", 1), ("benign-security-ops", 0),
])
MIN_TOTAL, MIN_MALICIOUS, MIN_BENIGN = 360, 230, 130
MULTI_LANGS = ("es", "fr", "de", "pt", "it", "ru", "zh", "ja", "ko", "hi", "ar")
REQUIRED_KEYS = ("id", "technique", "label", "lang", "carrier", "note", "manifest")
SURFACES = ("tools", "prompts", "resources", "resourceTemplates")

ZERO_WIDTH = set("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e")
BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")

errors = []
warnings = []


def err(where, msg):
    errors.append("%s: %s" % (where, msg))


def warn(where, msg):
    warnings.append("%s: %s" % (where, msg))


def strings(o):
    """Every string a model could read: values and object keys, at any depth."""
    if isinstance(o, str):
        yield o
    elif isinstance(o, dict):
        for k, v in o.items():
            yield k
            yield from strings(v)
    elif isinstance(o, list):
        for v in o:
            yield from strings(v)


def is_hidden_char(c):
    o = ord(c)
    return (c in ZERO_WIDTH or c in BIDI or 0xE0000 <= o <= 0xE007F
            or 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF)


def check_raw_escapes(path, raw):
    """Invisible/format characters must be written as \\uXXXX escapes, not raw."""
    for lineno, line in enumerate(raw.splitlines(), 1):
        for c in line:
            cat = unicodedata.category(c)
            if ord(c) > 0x7F and (cat in ("Cf", "Co", "Cs", "Zl", "Zp") or (cat == "Zs")
                                  or 0xFE00 <= ord(c) <= 0xFE0F or 0xE0100 <= ord(c) <= 0xE01EF):
                err("%s:%d" % (path, lineno), "raw invisible character U+%04X; write it as a \\u escape" % ord(c))
                return


def check_schema(where, sch):
    if not isinstance(sch, dict):
        err(where, "inputSchema must be an object")
        return
    if sch.get("type") != "object":
        err(where, "inputSchema.type must be 'object'")
    props = sch.get("properties", {})
    if not isinstance(props, dict):
        err(where, "inputSchema.properties must be an object")
    req = sch.get("required", [])
    if not isinstance(req, list) or not all(isinstance(r, str) for r in req):
        err(where, "inputSchema.required must be a list of strings")
    elif isinstance(props, dict):
        for r in req:
            if r not in props:
                err(where, "required property %r is not declared" % r)


def check_manifest(where, m, technique):
    if not isinstance(m, dict):
        err(where, "manifest must be an object")
        return
    si = m.get("serverInfo")
    if not isinstance(si, dict) or not isinstance(si.get("name"), str) or not isinstance(si.get("version"), str):
        err(where, "manifest.serverInfo needs string name and version")
    if "instructions" in m and not isinstance(m["instructions"], str):
        err(where, "manifest.instructions must be a string")
    if "capabilities" in m and not isinstance(m["capabilities"], dict):
        err(where, "manifest.capabilities must be an object")
    if not any(isinstance(m.get(k), list) and m.get(k) for k in SURFACES):
        err(where, "manifest needs a non-empty tools, prompts, resources or resourceTemplates array")
    for k in SURFACES:
        if k in m and not isinstance(m[k], list):
            err(where, "manifest.%s must be an array" % k)
    tools = m.get("tools") or []
    if len(tools) > 4:
        err(where, "more than 4 tools (%d)" % len(tools))
    names = set()
    for j, t in enumerate(tools):
        tw = "%s tools[%d]" % (where, j)
        if not isinstance(t, dict):
            err(tw, "tool must be an object")
            continue
        if not isinstance(t.get("name"), str) or not t["name"]:
            err(tw, "tool needs a name")
        elif t["name"] in names:
            err(tw, "duplicate tool name %r" % t["name"])
        else:
            names.add(t["name"])
        if not isinstance(t.get("description"), str):
            err(tw, "tool needs a string description")
        check_schema(tw, t.get("inputSchema"))
        for opt, typ in (("title", str), ("annotations", dict), ("outputSchema", dict)):
            if opt in t and not isinstance(t[opt], typ):
                err(tw, "%s has the wrong type" % opt)
        if isinstance(t.get("annotations"), dict) and "title" in t["annotations"] and not isinstance(t["annotations"]["title"], str):
            err(tw, "annotations.title must be a string")
    for j, p in enumerate(m.get("prompts") or []):
        pw = "%s prompts[%d]" % (where, j)
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            err(pw, "prompt needs a name")
            continue
        for a in p.get("arguments", []) or []:
            if not isinstance(a, dict) or not isinstance(a.get("name"), str):
                err(pw, "prompt argument needs a name")
    for j, r in enumerate(m.get("resources") or []):
        if not isinstance(r, dict) or not isinstance(r.get("uri"), str) or not isinstance(r.get("name"), str):
            err("%s resources[%d]" % (where, j), "resource needs uri and name")
    for j, r in enumerate(m.get("resourceTemplates") or []):
        if not isinstance(r, dict) or not isinstance(r.get("uriTemplate"), str) or not isinstance(r.get("name"), str):
            err("%s resourceTemplates[%d]" % (where, j), "resource template needs uriTemplate and name")

    text = list(strings(m))
    if technique == "elicitation":
        caps = m.get("capabilities") or {}
        if "elicitation" not in caps:
            err(where, "elicitation case must declare capabilities.elicitation")
    if technique == "zero-width":
        if not any(is_hidden_char(c) and c not in BIDI for s in text for c in s):
            err(where, "zero-width case contains no zero-width / tag / variation-selector character")
    if technique == "bidi":
        if not any(c in BIDI for s in text for c in s):
            err(where, "bidi case contains no bidi control character")
    if technique == "lookalike-name":
        if not tools:
            err(where, "lookalike-name case needs a tool")
    if technique == "line-jumping" or technique == "benign-server-instructions":
        pass


def tokens(m):
    words = set()
    for s in strings(m):
        if len(s) > 20:
            words.update(re.findall(r"[^\W_]{3,}", s.lower()))
    return words


def main():
    quiet = "--quiet" in sys.argv
    seen_ids = {}
    cases_by = collections.defaultdict(lambda: collections.defaultdict(list))  # technique -> half -> cases
    set_counts = collections.Counter()  # (technique, half, set number) -> cases
    known = set(MALICIOUS) | set(BENIGN)
    for half in HALVES:
        d = os.path.join(ROOT, half)
        if not os.path.isdir(d):
            err(half, "directory missing")
            continue
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".json"):
                continue
            path = os.path.join(d, fn)
            rel = os.path.relpath(path, ROOT)
            with open(path, "rb") as fh:
                data = fh.read()
            try:
                raw = data.decode("utf-8")
            except UnicodeDecodeError as e:
                err(rel, "not UTF-8: %s" % e)
                continue
            check_raw_escapes(rel, raw)
            try:
                cases = json.loads(raw)
            except ValueError as e:
                err(rel, "invalid JSON: %s" % e)
                continue
            # <technique>.json is the first set; <technique>-<n>.json a later set of the same half
            mset = re.match(r"^(.*?)(?:-(\d+))?$", fn[:-5])
            tech_file, set_no = mset.group(1), int(mset.group(2) or 1)
            if tech_file not in known:
                err(rel, "unknown technique file name %r" % tech_file)
            if not isinstance(cases, list) or not cases:
                err(rel, "file must hold a non-empty array of cases")
                continue
            for k, c in enumerate(cases):
                where = "%s[%d]" % (rel, k)
                if not isinstance(c, dict):
                    err(where, "case must be an object")
                    continue
                for key in REQUIRED_KEYS:
                    if key not in c:
                        err(where, "missing key %r" % key)
                extra = set(c) - set(REQUIRED_KEYS)
                if extra:
                    warn(where, "extra keys %s" % sorted(extra))
                cid = c.get("id")
                where = "%s %s" % (rel, cid)
                if not isinstance(cid, str) or not re.match(r"^[a-z0-9-]+-\d{2,3}$", cid or ""):
                    err(where, "bad id")
                elif cid in seen_ids:
                    err(where, "duplicate id (also in %s)" % seen_ids[cid])
                else:
                    seen_ids[cid] = rel
                tech = c.get("technique")
                if tech != tech_file:
                    err(where, "technique %r does not match file %r" % (tech, fn))
                # later sets: '-t<n>-' in tune/, '-x<n>-' in test/, so ids never collide
                tag = "-%s%d-" % ("t" if half == "tune" else "x", set_no)
                if set_no > 1 and isinstance(cid, str) and tag not in cid:
                    err(where, "cases of set %d need ids '<technique>%sNN'" % (set_no, tag))
                if isinstance(cid, str) and isinstance(tech, str) and not cid.startswith(tech + "-"):
                    err(where, "id should start with the technique name")
                label = c.get("label")
                if label not in ("malicious", "benign"):
                    err(where, "label must be 'malicious' or 'benign'")
                elif isinstance(tech, str) and (label == "benign") != tech.startswith("benign-"):
                    err(where, "label %r inconsistent with technique %r" % (label, tech))
                lang = c.get("lang")
                if not isinstance(lang, str) or not re.match(r"^([a-z]{2,3}|mixed)$", lang):
                    err(where, "lang must be an ISO 639 code or 'mixed'")
                for key in ("carrier", "note"):
                    v = c.get(key)
                    if not isinstance(v, str) or not v.strip() or "\n" in v:
                        err(where, "%s must be a non-empty single line" % key)
                check_manifest(where, c.get("manifest"), tech)
                if isinstance(tech, str):
                    cases_by[tech][half].append(c)
                    set_counts[(tech, half, set_no)] += 1

    # coverage and split rules
    for tech in list(MALICIOUS) + list(BENIGN):
        for half in HALVES:
            if not cases_by[tech][half] and MALICIOUS.get(tech, BENIGN.get(tech, 1)):
                err(tech, "no cases in %s/" % half)
        total = sum(len(cases_by[tech][h]) for h in HALVES)
        need = MALICIOUS.get(tech, BENIGN.get(tech, 1))
        if total < need:
            err(tech, "%d cases, at least %d required" % (total, need))
    for tech in ("multilingual", "benign-multilingual"):
        per = collections.defaultdict(lambda: collections.Counter())
        for half in HALVES:
            for c in cases_by[tech][half]:
                per[c["lang"]][half] += 1
        for lang in MULTI_LANGS:
            n = sum(per[lang].values())
            if n < 2:
                err(tech, "language %s has %d case(s), 2 required" % (lang, n))
            elif not (per[lang]["tune"] and per[lang]["test"]):
                err(tech, "language %s must appear in both halves" % lang)
        if tech == "multilingual" and sum(per["mixed"].values()) < 4:
            err(tech, "at least 4 mid-description language switches ('mixed') required")

    # near-duplicate guard across halves (same technique)
    for tech, halves in cases_by.items():
        for a in halves["tune"]:
            ta = tokens(a["manifest"])
            for b in halves["test"]:
                tb = tokens(b["manifest"])
                if ta and tb:
                    j = len(ta & tb) / float(len(ta | tb))
                    if j > 0.5:
                        warn(tech, "%s and %s look alike across halves (Jaccard %.2f)" % (a["id"], b["id"], j))

    n_mal = sum(len(cases_by[t][h]) for t in MALICIOUS for h in HALVES)
    n_ben = sum(len(cases_by[t][h]) for t in BENIGN for h in HALVES)
    if n_mal < MIN_MALICIOUS:
        err("corpus", "%d malicious cases, at least %d required" % (n_mal, MIN_MALICIOUS))
    if n_ben < MIN_BENIGN:
        err("corpus", "%d benign cases, at least %d required" % (n_ben, MIN_BENIGN))
    if n_mal + n_ben < MIN_TOTAL:
        err("corpus", "%d cases, at least %d required" % (n_mal + n_ben, MIN_TOTAL))

    # table: "tune" is the first tuning set, "tune-2" the second (tune/<technique>-2.json)
    print("%-30s %-9s %5s %6s %5s %6s" % ("technique / kind", "label", "tune", "tune-2", "test", "total"))
    print("-" * 66)
    for group, label in ((MALICIOUS, "malicious"), (BENIGN, "benign")):
        s1 = s2 = sh = 0
        for tech in group:
            a = set_counts[(tech, "tune", 1)]
            a2 = len(cases_by[tech]["tune"]) - a
            b = len(cases_by[tech]["test"])
            s1, s2, sh = s1 + a, s2 + a2, sh + b
            print("%-30s %-9s %5d %6d %5d %6d" % (tech, label, a, a2, b, a + a2 + b))
        print("%-30s %-9s %5d %6d %5d %6d" % ("all " + label, "", s1, s2, sh, s1 + s2 + sh))
        print("-" * 66)
    print("%-30s %-9s %5s %6s %5s %6d" % ("all cases", "", "", "", "", n_mal + n_ben))
    langs = collections.Counter()
    for tech in ("multilingual", "benign-multilingual"):
        for half in HALVES:
            for c in cases_by[tech][half]:
                langs[(tech, c["lang"], half)] += 1
    for tech in ("multilingual", "benign-multilingual"):
        codes = sorted({l for (t, l, h) in langs if t == tech})
        print("%s languages: %s" % (tech, ", ".join(
            "%s(%d/%d)" % (l, langs[(tech, l, "tune")], langs[(tech, l, "test")]) for l in codes)))

    if warnings and not quiet:
        print("\n%d warning(s):" % len(warnings))
        for w in warnings:
            print("  " + w)
    if errors:
        print("\n%d error(s):" % len(errors))
        for e in errors:
            print("  " + e)
        return 1
    print("\nOK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
