#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generate crem's netlink uapi header and kernel tables from the YAML spec.

    tools/nlgen.py SPEC UAPI_H KERNEL_C KERNEL_H     write the three files
    tools/nlgen.py --check SPEC UAPI_H KERNEL_C KERNEL_H
                                                     exit 1 if any differs

The spec follows the kernel's genetlink-legacy YAML form, restricted to what
crem uses: attribute sets of scalar, string, flag, binary and nest
attributes; operations with do and dump; multicast groups; per-op flags.
Every operation gets its own policy that lists exactly its request
attributes, so that the kernel's strict validation rejects anything else.
"""

import sys

import yaml

SPDX_UAPI = "/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */"
SPDX_C = "// SPDX-License-Identifier: GPL-2.0"
SPDX_H = "/* SPDX-License-Identifier: GPL-2.0 */"

NLA_TYPES = {
    "u8": "NLA_U8", "u16": "NLA_U16", "u32": "NLA_U32", "u64": "NLA_U64",
    "s8": "NLA_S8", "s16": "NLA_S16", "s32": "NLA_S32", "s64": "NLA_S64",
    "string": "NLA_NUL_STRING", "flag": "NLA_FLAG", "binary": "NLA_BINARY",
    "nest": "NLA_NESTED",
    # Alignment padding for 64-bit values in replies; never in a request.
    "pad": None,
}
OP_FLAGS = {"admin-perm": "GENL_ADMIN_PERM", "uns-admin-perm": "GENL_UNS_ADMIN_PERM"}


class SpecError(Exception):
    pass


def c_upper(name):
    return name.upper().replace("-", "_")


def c_lower(name):
    return name.lower().replace("-", "_")


def comment(doc, indent=""):
    lines = [l.rstrip() for l in (doc or "").strip().splitlines()]
    if not lines:
        return []
    if len(lines) == 1:
        return [f"{indent}/* {lines[0]} */"]
    return [f"{indent}/*"] + [f"{indent} * {l}".rstrip() for l in lines] + [f"{indent} */"]


class Spec:
    def __init__(self, path):
        with open(path) as f:
            self.raw = yaml.safe_load(f)
        self.path = path
        self.name = self.raw["name"]
        self.prefix = c_upper(self.name)
        self.sets = {s["name"]: s for s in self.raw.get("attribute-sets", [])}
        self.ops = self.raw.get("operations", {}).get("list", [])
        self.mcgrps = self.raw.get("mcast-groups", {}).get("list", [])
        self.check()

    def attr_prefix(self, set_name):
        if set_name == self.name:
            return f"{self.prefix}_A_"
        return f"{self.prefix}_A_{c_upper(set_name)}_"

    def attr(self, set_name, attr_name):
        for a in self.sets[set_name]["attributes"]:
            if a["name"] == attr_name:
                return a
        raise SpecError(f"attribute {attr_name!r} not in set {set_name!r}")

    def check(self):
        for s in self.sets.values():
            seen = set()
            for a in s["attributes"]:
                if a["name"] in seen:
                    raise SpecError(f"duplicate attribute {a['name']!r} in {s['name']!r}")
                seen.add(a["name"])
                if a["type"] not in NLA_TYPES:
                    raise SpecError(f"type {a['type']!r} of {a['name']!r} is not supported")
                if a["type"] == "pad" and any(
                        a["name"] in op.get(m, {}).get("request", {}).get("attributes", [])
                        for op in self.ops for m in ("do", "dump")
                        if op.get("attribute-set", self.name) == s["name"]):
                    raise SpecError(f"pad attribute {a['name']!r} is in a request")
                if a["type"] == "nest" and a.get("nested-attributes") not in self.sets:
                    raise SpecError(f"nest {a['name']!r} names no attribute set")
        for op in self.ops:
            if op.get("attribute-set", self.name) not in self.sets:
                raise SpecError(f"operation {op['name']!r} names no attribute set")
            for f in op.get("flags", []):
                if f not in OP_FLAGS:
                    raise SpecError(f"flag {f!r} of {op['name']!r} is not supported")
            for mode in ("do", "dump"):
                for a in op.get(mode, {}).get("request", {}).get("attributes", []):
                    self.attr(op.get("attribute-set", self.name), a)

    def header_note(self):
        return [f"/* Do not edit: generated from {self.path} by tools/nlgen.py (make nlgen). */"]

    # include/uapi/linux/<name>_netlink.h
    def uapi(self):
        guard = f"_UAPI_LINUX_{self.prefix}_NETLINK_H"
        out = [SPDX_UAPI] + self.header_note() + [""]
        out += comment(self.raw.get("doc"))
        out += [f"#ifndef {guard}", f"#define {guard}", "",
                f'#define {self.prefix}_GENL_NAME "{self.name}"',
                f"#define {self.prefix}_GENL_VERSION {self.raw.get('version', 1)}", ""]
        for g in self.mcgrps:
            out.append(f'#define {self.prefix}_MCGRP_{c_upper(g["name"])} "{g["name"]}"')
        if self.mcgrps:
            out.append("")
        for s in self.sets.values():
            p = self.attr_prefix(s["name"])
            out += comment(s.get("doc"))
            out.append("enum {")
            out.append(f"\t{p}UNSPEC,")
            for a in s["attributes"]:
                out += comment(f"{a['type']}: {a.get('doc', '')}", "\t")
                out.append(f"\t{p}{c_upper(a['name'])},")
            out += ["", f"\t__{p}LAST,", f"\t{p}MAX = (__{p}LAST - 1)", "};", ""]
        p = f"{self.prefix}_CMD_"
        out += ["enum {", f"\t{p}UNSPEC,"]
        for op in self.ops:
            out += comment(op.get("doc"), "\t")
            out.append(f"\t{p}{c_upper(op['name'])},")
        out += ["", f"\t__{p}LAST,", f"\t{p}MAX = (__{p}LAST - 1)", "};", "",
                f"#endif /* {guard} */", ""]
        return "\n".join(out)

    def policy_entry(self, set_name, a):
        name = f"[{self.attr_prefix(set_name)}{c_upper(a['name'])}]"
        checks = a.get("checks", {})
        if a["type"] == "nest":
            return f"\t{name} = NLA_POLICY_NESTED({self.set_policy(a['nested-attributes'])}),"
        if a["type"] == "string" and "max-len" in checks:
            return f"\t{name} = {{ .type = NLA_NUL_STRING, .len = {checks['max-len']} }},"
        if a["type"] == "binary" and "max-len" in checks:
            return f"\t{name} = {{ .type = NLA_BINARY, .len = {checks['max-len']} }},"
        if "min" in checks and "max" in checks:
            return f"\t{name} = NLA_POLICY_RANGE({NLA_TYPES[a['type']]}, {checks['min']}, {checks['max']}),"
        if "max" in checks:
            return f"\t{name} = NLA_POLICY_MAX({NLA_TYPES[a['type']]}, {checks['max']}),"
        return f"\t{name} = {{ .type = {NLA_TYPES[a['type']]} }},"

    def set_policy(self, set_name):
        return f"{c_lower(self.name)}_nl_{c_lower(set_name)}_policy"

    def nested_sets(self, set_name, names, acc):
        for n in names:
            a = self.attr(set_name, n)
            if a["type"] == "nest" and a["nested-attributes"] not in acc:
                sub = a["nested-attributes"]
                self.nested_sets(sub, [x["name"] for x in self.sets[sub]["attributes"]], acc)
                acc.append(sub)
        return acc

    # crem/netlink/nl_gen.c and nl_gen.h
    def kernel(self, header_name):
        lname = c_lower(self.name)
        c = [SPDX_C] + self.header_note() + ["",
             "#include <net/genetlink.h>", "",
             f"#include <linux/{lname}_netlink.h>", "",
             f'#include "{header_name}"', ""]
        h = [SPDX_H] + self.header_note() + [""]
        guard = f"{self.prefix}_NL_GEN_H"
        h += [f"#ifndef {guard}", f"#define {guard}", "",
              "#include <net/genetlink.h>", ""]

        requests = []
        nested = []
        for op in self.ops:
            aset = op.get("attribute-set", self.name)
            for mode in ("do", "dump"):
                if mode in op:
                    names = op[mode].get("request", {}).get("attributes", [])
                    requests.append((op, mode, aset, names))
                    self.nested_sets(aset, names, nested)
        for sub in nested:
            attrs = [a for a in self.sets[sub]["attributes"] if a["type"] != "pad"]
            c.append(f"static const struct nla_policy {self.set_policy(sub)}"
                     f"[{self.attr_prefix(sub)}MAX + 1] = {{")
            c += [self.policy_entry(sub, a) for a in attrs]
            c += ["};", ""]
        for op, mode, aset, names in requests:
            if not names:
                continue
            c.append(f"/* {op['name']} {mode}: the request's attributes, and no others. */")
            c.append(f"static const struct nla_policy {lname}_nl_{c_lower(op['name'])}_{mode}_policy"
                     f"[{self.attr_prefix(aset)}MAX + 1] = {{")
            c += [self.policy_entry(aset, self.attr(aset, n)) for n in names]
            c += ["};", ""]

        n_ops = len(requests)
        h.append(f"/* Handlers, one per operation and mode of {self.path}. */")
        for op, mode, aset, names in requests:
            fn = f"{lname}_nl_{c_lower(op['name'])}_{mode}it"
            if mode == "do":
                h.append(f"int {fn}(struct sk_buff *skb, struct genl_info *info);")
            else:
                h.append(f"int {fn}(struct sk_buff *skb, struct netlink_callback *cb);")
        h += ["", f"extern const struct genl_ops {lname}_nl_ops[{n_ops}];"]
        c.append(f"const struct genl_ops {lname}_nl_ops[{n_ops}] = {{")
        for op, mode, aset, names in requests:
            fn = f"{lname}_nl_{c_lower(op['name'])}_{mode}it"
            c.append("\t{")
            c.append(f"\t\t.cmd\t\t= {self.prefix}_CMD_{c_upper(op['name'])},")
            c.append(f"\t\t.{mode}it\t\t= {fn},")
            if names:
                c.append(f"\t\t.policy\t\t= {lname}_nl_{c_lower(op['name'])}_{mode}_policy,")
                c.append(f"\t\t.maxattr\t= {self.attr_prefix(aset)}MAX,")
            flags = [OP_FLAGS[f] for f in op.get("flags", [])]
            if mode == "dump":
                flags.append("GENL_CMD_CAP_DUMP")
            if flags:
                c.append(f"\t\t.flags\t\t= {' | '.join(flags)},")
            c.append("\t},")
        c += ["};", ""]
        if self.mcgrps:
            h.append("")
            h.append("enum {")
            for g in self.mcgrps:
                h.append(f"\t{self.prefix}_NLGRP_{c_upper(g['name'])},")
            h += ["};", "",
                  f"extern const struct genl_multicast_group {lname}_nl_mcgrps[{len(self.mcgrps)}];"]
            c.append(f"const struct genl_multicast_group {lname}_nl_mcgrps[{len(self.mcgrps)}] = {{")
            for g in self.mcgrps:
                c.append(f"\t[{self.prefix}_NLGRP_{c_upper(g['name'])}] = "
                         f"{{ .name = {self.prefix}_MCGRP_{c_upper(g['name'])}, }},")
            c += ["};", ""]
        h += ["", f"#endif /* {guard} */", ""]
        return "\n".join(c), "\n".join(h)


def main(argv):
    check = argv[1:2] == ["--check"]
    args = argv[2:] if check else argv[1:]
    if len(args) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    spec_path, uapi_path, c_path, h_path = args
    try:
        spec = Spec(spec_path)
    except (SpecError, KeyError, yaml.YAMLError) as e:
        print(f"nlgen: {spec_path}: {e}", file=sys.stderr)
        return 2
    kc, kh = spec.kernel(h_path.rsplit("/", 1)[-1])
    outputs = {uapi_path: spec.uapi(), c_path: kc, h_path: kh}
    stale = []
    for path, text in outputs.items():
        if check:
            try:
                with open(path) as f:
                    if f.read() != text:
                        stale.append(path)
            except FileNotFoundError:
                stale.append(path)
        else:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        print("nlgen: out of date with the spec (run make nlgen): " + " ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
