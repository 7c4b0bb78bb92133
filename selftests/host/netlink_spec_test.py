#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# Each spec of Documentation/netlink/specs/ (fabric.yaml, the "fabric"
# generic netlink family, and mrt.yaml, the "mrt" one, in mainline's YNL
# format) against the header its uapi-header key names, under
# include/uapi/ (the same family as C, written by hand), so that the two
# cannot drift: the header is the ABI, the spec is what the kernel's YNL
# tools read.
#
# From the spec, every C name is derived by ynl's own rules (those of
# tools/net/ynl/pyynl/ynl_gen_c.py: name-prefix, enum-name, c-family-name,
# c-define-name, ...; values counted as lib/nlspec.py counts them), and
# checked in both directions against the header: the family name, version
# and multicast groups; the constants; the definitions' enums; each
# attribute set (names, values, order, the type its header comment states,
# the nest it holds, the max/count entries); the commands (values, the
# permission, do/dump/notification and top-level attributes their header
# comments state: a comment naming CAP_NET_ADMIN needs the op's flag,
# unless it says what happens "Without CAP_NET_ADMIN", a check of the
# handler's own); the struct definitions (members, types, order; the layout
# packed as ynl decodes it, the size the header's comment gives and that of
# the sock_diag struct it travels as).  Also the spec's own shape: the keys
# and types of mainline's genetlink-legacy schema and the protocol level
# they need, references, a doc for everything.
#
# Names and comments come from scanning the header; every value, size,
# offset and type from gcc: a small program generated from the names of both
# sides is compiled against the header (-I the header's uapi root) and run.
# A name the header lacks is dropped from that program (gcc's error names
# the line) and reported by the check it belongs to.
#
#   selftests/host/netlink_spec_test.py [--yaml PATH [--header PATH]]
#                                       [--schema PATH]
#
# Without --yaml, every spec of the tree, each with its header (--header
# overrides the uapi-header of the one --yaml names).
# --schema validates the spec with jsonschema against a mainline
# Documentation/netlink/genetlink-legacy.yaml too (python3-jsonschema; not
# in this tree).  TAP output; exit status 1 on any failure.

import argparse
import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:  # scripts/deps installs python3-yaml
    yaml = None

TOP = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    '..', '..'))
SPECS = os.path.join(TOP, 'Documentation/netlink/specs')
UAPI = os.path.join(TOP, 'include/uapi')
SPDX = '# SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)'

SCALARS = {'u8': 1, 'u16': 2, 'u32': 4, 'u64': 8,
           's8': 1, 's16': 2, 's32': 4, 's64': 8}


def c_upper(name):
    return name.upper().replace('-', '_')


def c_lower(name):
    return name.lower().replace('-', '_')


# ---------------------------------------------------------------------------
# The schema, as far as the keys go: mainline's genetlink-legacy.yaml, each
# key with the level that introduces it (its "Start genetlink-c" /
# "Start genetlink-legacy" sections).

LEVELS = ['genetlink', 'genetlink-c', 'genetlink-legacy']
K_TOP = {'name': 0, 'doc': 0, 'protocol': 0, 'uapi-header': 0,
         'c-family-name': 1, 'c-version-name': 1, 'max-by-define': 1,
         'cmd-max-name': 1, 'cmd-cnt-name': 1,
         'kernel-policy': 2, 'version': 2,
         'definitions': 0, 'attribute-sets': 0, 'operations': 0,
         'mcast-groups': 0, 'kernel-family': 0}
K_DEF = {'name': 0, 'header': 0, 'type': 0, 'doc': 0, 'value': 0,
         'value-start': 0, 'entries': 0, 'render-max': 0,
         'enum-name': 1, 'name-prefix': 1, 'enum-cnt-name': 1, 'members': 2}
DEF_TYPES = {'const': 0, 'enum': 0, 'flags': 0, 'struct': 2}
K_ENTRY = {'name': 0, 'value': 0, 'doc': 0}
K_MEMBER = {k: 2 for k in ('name', 'type', 'len', 'byte-order', 'doc', 'enum',
                           'display-hint', 'struct')}
MEMBER_TYPES = set(SCALARS) | {'string', 'binary'}
K_SET = {'name': 0, 'name-prefix': 0, 'enum-name': 0, 'doc': 0,
         'subset-of': 0, 'attr-cnt-name': 1, 'attr-max-name': 1,
         'header': 1, 'attributes': 0}
K_ATTR = {'name': 0, 'type': 0, 'doc': 0, 'value': 0, 'type-value': 0,
          'byte-order': 0, 'multi-attr': 0, 'nested-attributes': 0,
          'enum': 0, 'enum-as-flags': 0, 'checks': 0, 'sub-type': 0,
          'display-hint': 0, 'name-prefix': 1, 'struct': 2}
ATTR_TYPES = {'unused', 'pad', 'flag', 'binary', 'bitfield32', 'uint', 'sint',
              'string', 'nest', 'indexed-array', 'nest-type-value'} | set(SCALARS)
K_CHECKS = {k: 0 for k in ('flags-mask', 'min', 'max', 'min-len', 'max-len',
                           'exact-len', 'unterminated-ok')}
K_OPS = {'enum-model': 0, 'name-prefix': 0, 'enum-name': 0,
         'async-prefix': 0, 'async-enum': 0, 'fixed-header': 2, 'list': 0}
K_OP = {'name': 0, 'doc': 0, 'value': 0, 'attribute-set': 0, 'flags': 0,
        'dont-validate': 0, 'config-cond': 0, 'fixed-header': 2, 'do': 0,
        'dump': 0, 'notify': 0, 'event': 0, 'mcgrp': 0}
K_SUBOP = {'request': 0, 'reply': 0, 'pre': 0, 'post': 0}
K_MSG = {'attributes': 0, 'value': 2}
K_EVENT = {'attributes': 0}
K_MCGRPS = {'list': 0}
K_MCGRP = {'name': 0, 'c-define-name': 1, 'flags': 0}
OP_FLAGS = {'admin-perm', 'uns-admin-perm'}
DISPLAY_HINTS = {'hex', 'mac', 'fddi', 'ipv4', 'ipv6', 'uuid'}


# ---------------------------------------------------------------------------
# The spec, with every C name and value derived as ynl derives them.

class Spec:
    def __init__(self, path):
        self.path = path
        with open(path, encoding='utf-8') as f:
            self.first_line = f.readline().rstrip('\n')
            f.seek(0)
            self.y = yaml.safe_load(f)
        y = self.y
        if not isinstance(y, dict):
            raise ValueError('the spec is not a YAML mapping')
        self.name = y['name']
        self.ident = self.name.replace('-', '_')
        self.fam_key = c_upper(y.get('c-family-name', self.name + '_FAMILY_NAME'))
        self.ver_key = c_upper(y.get('c-version-name', self.name + '_FAMILY_VERSION'))
        self.version = y.get('version', 1)
        defs = y.get('definitions', [])
        self.defs = {d['name']: d for d in defs}
        self.consts = []    # (C name, value, spec name)
        self.enums = []     # dicts: name, tag, entries and extra [(C name, value)]
        self.structs = []   # dicts: name, tag, members [dict]
        for d in defs:
            if d.get('header'):
                continue    # defined by another header, not by this one
            if d['type'] == 'const':
                self.consts.append((c_upper(f"{self.ident}-{d['name']}"),
                                    d['value'], d['name']))
            elif d['type'] in ('enum', 'flags'):
                self.enums.append(self._enum(d))
            elif d['type'] == 'struct':
                self.structs.append(self._struct(d))
        self.sets = {}      # name -> dict
        for s in y['attribute-sets']:
            self.sets[s['name']] = self._attr_set(s)
        self.ops = self._ops(y['operations'])
        self.mcgrps = [(c_upper(g.get('c-define-name',
                                      f"{self.ident}-mcgrp-{g['name']}")), g['name'])
                       for g in y.get('mcast-groups', {}).get('list', [])]

    def enum_tag(self, obj, default):
        """uapi_enum_start(): enum-name if set ('' or null: anonymous)."""
        if 'enum-name' in obj:
            return c_lower(obj['enum-name']) if obj['enum-name'] else None
        return default

    def _enum(self, d):
        pfx = d.get('name-prefix', f"{self.ident}-{d['name']}-")
        entries, val = [], d.get('value-start', 0)
        for e in d.get('entries', []):
            e = {'name': e} if isinstance(e, str) else e
            val = e.get('value', val)
            user = 1 << val if d['type'] == 'flags' else val
            entries.append((c_upper(pfx + e['name']), user))
            val += 1
        extra = []
        if d.get('render-max'):
            if d['type'] == 'flags':
                extra.append((c_upper(pfx + 'mask'),
                              sum(v for _, v in entries)))
            else:
                cnt = c_upper(d.get('enum-cnt-name', '__' + pfx + 'max'))
                last = entries[-1][1] if entries else -1
                extra += [(cnt, last + 1), (c_upper(pfx + 'max'), last)]
        return {'name': d['name'], 'tag': self.enum_tag(
                    d, f"{self.ident}_{c_lower(d['name'])}"),
                'entries': entries, 'extra': extra}

    def _struct(self, d):
        # ynl_gen_c.py names a struct c_lower(name); ovs_datapath.yaml uses
        # enum-name for the C name: either is accepted, enum-name first.
        members = []
        for m in d.get('members', []):
            members.append({'name': c_lower(m['name']), 'type': m['type'],
                            'len': m.get('len'),
                            'byte-order': m.get('byte-order')})
        return {'name': d['name'],
                'tag': c_lower(d.get('enum-name') or d['name']),
                'members': members}

    def _attr_set(self, s):
        if 'subset-of' in s:
            return {'name': s['name'], 'subset': True}
        if 'name-prefix' in s:
            pfx = s['name-prefix']
        elif s['name'] == self.name:
            pfx = self.ident + '-a-'
        else:
            pfx = f"{self.ident}-a-{s['name']}-"
        pfx = c_upper(pfx)
        attrs, val = [], 1
        for a in s['attributes']:
            val = a.get('value', val)
            attrs.append({'name': a['name'], 'y': a, 'value': val,
                          'c': c_upper(a.get('name-prefix', pfx) + a['name'])})
            val += 1
        return {'name': s['name'], 'subset': False, 'prefix': pfx,
                'tag': self.enum_tag(s, None), 'attrs': attrs,
                'max': c_upper(s.get('attr-max-name', pfx + 'max')),
                'cnt': c_upper(s.get('attr-cnt-name', '__' + pfx + 'max'))}

    def _ops(self, o):
        pfx = c_upper(o.get('name-prefix', self.name + '-cmd-'))
        ops, val = [], 1
        for op in o['list']:
            val = op.get('value', val)
            ops.append({'name': op['name'], 'y': op, 'value': val,
                        'c': pfx + c_upper(op['name'])})
            val += 1
        return {'tag': self.enum_tag(o, None), 'prefix': pfx, 'ops': ops,
                'max': c_upper(self.y.get('cmd-max-name', pfx + 'MAX')),
                'cnt': c_upper(self.y.get('cmd-cnt-name', '__' + pfx + 'MAX'))}

    def op_set(self, op):
        """The attribute set of an operation (a notify borrows its op's)."""
        if 'attribute-set' in op:
            return op['attribute-set']
        if 'notify' in op:
            for o in self.y['operations']['list']:
                if o['name'] == op['notify']:
                    return o.get('attribute-set')
        return None

    def all_c_names(self):
        names = {self.fam_key, self.ver_key}
        names |= {c for c, _, _ in self.consts}
        names |= {c for c, _ in self.mcgrps}
        for e in self.enums:
            names |= {c for c, _ in e['entries'] + e['extra']}
        for s in self.sets.values():
            if not s['subset']:
                names |= {a['c'] for a in s['attrs']} | {s['max'], s['cnt']}
        names |= {op['c'] for op in self.ops['ops']}
        names |= {self.ops['max'], self.ops['cnt']}
        return names


# ---------------------------------------------------------------------------
# The header, scanned for names, order and comments (no values: gcc has them).

def clean_comment(text):
    text = text[2:-2]
    lines = [re.sub(r'^\s*\*?', '', line) for line in text.split('\n')]
    return ' '.join(' '.join(lines).split())


class Item:
    def __init__(self, name, off, **kw):
        self.name, self.off = name, off
        self.lead = self.trail = ''
        self.__dict__.update(kw)


class Header:
    def __init__(self, path):
        self.path = path
        with open(path, encoding='utf-8') as f:
            self.text = f.read()
        # The code with every comment blanked out (offsets and lines kept).
        self.comments = []
        code = list(self.text)
        for m in re.finditer(r'/\*.*?\*/|//[^\n]*', self.text, re.S):
            body = m.group()
            if body.startswith('//'):
                body = '/*' + body[2:] + '*/'
            self.comments.append((m.start(), m.end(), clean_comment(body)))
            for i in range(m.start(), m.end()):
                if code[i] != '\n':
                    code[i] = ' '
        self.code = ''.join(code)

        self.defines = {}
        for line in self.code.split('\n'):
            m = re.match(r'\s*#\s*define\s+(\w+)(\()?\s*(.*?)\s*$', line)
            if m and not m.group(2) and m.group(3):
                self.defines[m.group(1)] = m.group(3)

        self.enums = {}     # tag (or "(anonymous N)") -> [Item(expr)]
        for n, m in enumerate(re.finditer(r'\benum\s*(\w*)\s*\{', self.code)):
            end = self.code.index('}', m.end())
            items = []
            for seg in re.finditer(r'[^,]+', self.code[m.end():end]):
                e = re.match(r'\s*([A-Za-z_]\w*)\s*(?:=\s*(.*?))?\s*$',
                             seg.group(), re.S)
                if e:
                    items.append(Item(e.group(1), m.end() + seg.start() + e.start(1),
                                      expr=e.group(2)))
            self._attach(items, m.end(), end)
            self.enums[m.group(1) or f'(anonymous {n + 1})'] = items

        self.structs = {}   # tag -> (lead comment, [Item(ctype, array)])
        for m in re.finditer(r'\bstruct\s+(\w+)\s*\{', self.code):
            end = self.code.index('}', m.end())
            items = []
            for seg in re.finditer(r'[^;]+', self.code[m.end():end]):
                d = re.match(r'\s*(.*?)\s*\b([A-Za-z_]\w*)\s*(?:\[\s*([^\]]*?)\s*\])?\s*$',
                             seg.group(), re.S)
                if d and d.group(1):
                    items.append(Item(d.group(2), m.end() + seg.start() + d.start(2),
                                      ctype=' '.join(d.group(1).split()),
                                      array=d.group(3)))
            self._attach(items, m.end(), end)
            lead = ''
            for cs, ce, text in self.comments:
                if ce <= m.start() and not self.text[ce:m.start()].strip():
                    lead = text
            self.structs[m.group(1)] = (lead, items)

    def line(self, off):
        return self.text.count('\n', 0, off)

    def _attach(self, items, start, end):
        """A comment on an item's line after it is its trailing comment;
        any other comment leads the next item."""
        for cs, _, text in self.comments:
            if not start <= cs < end:
                continue
            before = [it for it in items if it.off < cs]
            after = [it for it in items if it.off > cs]
            if before and self.line(before[-1].off) == self.line(cs) \
                    and not before[-1].trail:
                before[-1].trail = text
            elif after:
                after[0].lead = (after[0].lead + ' ' + text).strip()


# ---------------------------------------------------------------------------
# What gcc says about the header.

class Probe:
    def __init__(self, header, names, members, compat):
        """names: identifiers (enum constants, macros); members: {struct tag:
        [member names]}; compat: [(tag, member, C type)]."""
        self.values, self.sizes, self.offsets, self.compat = {}, {}, {}, {}
        self.dropped, self.error = [], None
        root = os.path.dirname(os.path.dirname(os.path.abspath(header)))
        items = [('PV(%s);' % n, n) for n in sorted(names)]
        for tag in sorted(members):
            items.append(('PS(%s);' % tag, 'struct ' + tag))
            items += [('PM(%s, %s);' % (tag, m), f'struct {tag}.{m}')
                      for m in members[tag]]
        items += [('PT(%s, %s, %s);' % c, f'struct {c[0]}.{c[1]} as {c[2]}')
                  for c in compat]
        prologue = [
            '#include <stddef.h>',
            '#include <stdio.h>',
            '#include <linux/inet_diag.h>',
            '#include "%s"' % os.path.abspath(header),
            '#define PV(n) printf("V %s %s %lld %s\\n", #n, '
            '_Generic((n), char *: "str", const char *: "str", default: "int"), '
            '(long long)_Generic((n), char *: 0, const char *: 0, default: (n)), '
            '_Generic((n), char *: (n), const char *: (n), default: "-"))',
            '#define PS(t) printf("S %s %zu\\n", #t, sizeof(struct t))',
            '#define PM(t, m) printf("M %s %s %zu %zu\\n", #t, #m, '
            'offsetof(struct t, m), sizeof(((struct t *)0)->m))',
            '#define PT(t, m, ty) printf("T %s %s %s %d\\n", #t, #m, #ty, '
            '__builtin_types_compatible_p(__typeof__(((struct t *)0)->m), ty))',
            'int main(void)',
            '{',
        ]
        env = dict(os.environ, LC_ALL='C')
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(len(items) + 1):
                src = prologue + [code for code, _ in items] + ['return 0;', '}']
                with open(os.path.join(tmp, 'probe.c'), 'w') as f:
                    f.write('\n'.join(src) + '\n')
                try:
                    cc = subprocess.run(['gcc', '-std=gnu11', '-w', '-I', root,
                                         '-o', 'probe', 'probe.c'], cwd=tmp,
                                        env=env, capture_output=True, text=True)
                except OSError as e:
                    self.error = f'gcc: {e}'
                    return
                if cc.returncode == 0:
                    break
                bad = {int(n) - 1 - len(prologue) for n in
                       re.findall(r'^probe\.c:(\d+):\d+: error:', cc.stderr, re.M)}
                bad = {i for i in bad if 0 <= i < len(items)}
                if not bad:     # the header itself does not compile
                    self.error = 'gcc failed:\n' + cc.stderr.strip()
                    return
                self.dropped += [items[i][1] for i in sorted(bad)]
                items = [it for i, it in enumerate(items) if i not in bad]
            run = subprocess.run([os.path.join(tmp, 'probe')],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                self.error = f'probe exited {run.returncode}'
                return
        for line in run.stdout.split('\n'):
            f = line.split(' ', 4)
            if f[0] == 'V':
                self.values[f[1]] = f[4] if f[2] == 'str' else int(f[3])
            elif f[0] == 'S':
                self.sizes[f[1]] = int(f[2])
            elif f[0] == 'M':
                self.offsets[(f[1], f[2])] = (int(f[3]), int(f[4]))
            elif f[0] == 'T':
                self.compat[(f[1], f[2], f[3])] = f[4] == '1'


# ---------------------------------------------------------------------------
# The checks: each returns the list of its problems (empty: ok).

def keys(where, obj, allowed, required, level, problems, used):
    """obj's keys against allowed {key: level}; appends the level of each
    key to used.  False if obj is no mapping."""
    if not isinstance(obj, dict):
        problems.append(f'{where}: not a mapping')
        return False
    for k in obj:
        if k not in allowed:
            problems.append(f'{where}: unknown key {k!r}')
        else:
            used.append(allowed[k])
            if allowed[k] > level:
                problems.append(f'{where}: {k!r} needs protocol {LEVELS[allowed[k]]}')
    for k in required:
        if k not in obj:
            problems.append(f'{where}: missing {k!r}')
    return True


def check_shape(spec):
    """The keys and types of the schema, and the protocol level they need."""
    y, p, used = spec.y, [], []
    proto = y.get('protocol', 'genetlink')
    if proto not in LEVELS:
        return [f'protocol {proto!r} is not a genetlink schema']
    lvl = LEVELS.index(proto)
    keys('top level', y, K_TOP, ['name', 'doc', 'attribute-sets', 'operations'],
         lvl, p, used)
    for d in y.get('definitions', []):
        w = f"definition {d.get('name')}"
        if not keys(w, d, K_DEF, ['type', 'name'], lvl, p, used):
            continue
        t = d['type']
        if t not in DEF_TYPES:
            p.append(f'{w}: type {t!r}')
            continue
        used.append(DEF_TYPES[t])
        if DEF_TYPES[t] > lvl:
            p.append(f'{w}: type {t} needs protocol {LEVELS[DEF_TYPES[t]]}')
        for e in d.get('entries', []):
            if not isinstance(e, str):
                keys(f'{w} entry', e, K_ENTRY, ['name'], lvl, p, used)
        for m in d.get('members', []):
            if keys(f"{w} member {m.get('name')}", m, K_MEMBER, ['name', 'type'],
                    lvl, p, used) and m['type'] not in MEMBER_TYPES:
                p.append(f"{w} member {m['name']}: type {m['type']!r}")
    for s in y.get('attribute-sets', []):
        w = f"attribute-set {s.get('name')}"
        if not keys(w, s, K_SET, ['name', 'attributes'], lvl, p, used):
            continue
        if 'subset-of' in s and 'name-prefix' in s:
            p.append(f'{w}: a subset takes no name-prefix')
        for a in s['attributes']:
            aw = f"{w} attribute {a.get('name')}"
            req = ['name'] if 'subset-of' in s else ['name', 'type']
            if not keys(aw, a, K_ATTR, req, lvl, p, used):
                continue
            for k in ('type', 'sub-type'):
                if k in a and a[k] not in ATTR_TYPES:
                    p.append(f'{aw}: {k} {a[k]!r}')
            if 'display-hint' in a and a['display-hint'] not in DISPLAY_HINTS:
                p.append(f"{aw}: display-hint {a['display-hint']!r}")
            if 'checks' in a:
                keys(f'{aw} checks', a['checks'], K_CHECKS, [], lvl, p, used)
    o = y.get('operations', {})
    if keys('operations', o, K_OPS, ['list'], lvl, p, used):
        if o.get('enum-model', 'unified') != 'unified' or 'async-prefix' in o:
            p.append('operations: only the unified enum model, without '
                     'async-prefix, is checked by this test')
        for op in o['list']:
            w = f"operation {op.get('name')}"
            if not keys(w, op, K_OP, ['name', 'doc'], lvl, p, used):
                continue
            for f in op.get('flags', []):
                if f not in OP_FLAGS:
                    p.append(f'{w}: flag {f!r}')
            for mode in ('do', 'dump'):
                if mode in op and keys(f'{w} {mode}', op[mode], K_SUBOP, [],
                                       lvl, p, used):
                    for d in ('request', 'reply'):
                        if d in op[mode]:
                            keys(f'{w} {mode} {d}', op[mode][d], K_MSG, [],
                                 lvl, p, used)
            if 'event' in op:
                keys(f'{w} event', op['event'], K_EVENT, [], lvl, p, used)
    if 'mcast-groups' in y and keys('mcast-groups', y['mcast-groups'], K_MCGRPS,
                                    ['list'], lvl, p, used):
        for g in y['mcast-groups']['list']:
            if keys(f"mcast group {g.get('name')}", g, K_MCGRP, ['name'],
                    lvl, p, used):
                for f in g.get('flags', []):
                    if f not in OP_FLAGS:
                        p.append(f"mcast group {g['name']}: flag {f!r}")
    need = max(used + [0])
    if not p and need < lvl:
        p.append(f'protocol {proto} but nothing needs more than {LEVELS[need]}')
    return p


def check_refs(spec):
    """Every name the spec refers to exists in it."""
    y, p = spec.y, []
    defs = spec.defs
    sets = {s['name']: s for s in y['attribute-sets']}
    ops = {op['name']: op for op in y['operations']['list']}
    groups = {g['name'] for g in y.get('mcast-groups', {}).get('list', [])}
    for what, names in (('definition', [d['name'] for d in y.get('definitions', [])]),
                        ('attribute-set', [s['name'] for s in y['attribute-sets']]),
                        ('operation', [op['name'] for op in y['operations']['list']]),
                        ('mcast group', [g['name'] for g in
                                         y.get('mcast-groups', {}).get('list', [])])):
        for n in sorted({n for n in names if names.count(n) > 1}):
            p.append(f'{what} {n} defined twice')

    def enum_ok(w, name):
        if name not in defs or defs[name]['type'] not in ('enum', 'flags'):
            p.append(f'{w}: enum {name!r} is no enum or flags definition')

    for d in y.get('definitions', []):
        for m in d.get('members', []):
            if 'enum' in m:
                enum_ok(f"struct {d['name']} member {m['name']}", m['enum'])
            if 'struct' in m and m['struct'] not in defs:
                p.append(f"struct {d['name']} member {m['name']}: no struct {m['struct']!r}")
    for s in y['attribute-sets']:
        if 'subset-of' in s and s['subset-of'] not in sets:
            p.append(f"attribute-set {s['name']}: subset of unknown {s['subset-of']!r}")
        anames = [a['name'] for a in s['attributes']]
        for n in sorted({n for n in anames if anames.count(n) > 1}):
            p.append(f"attribute-set {s['name']}: attribute {n} twice")
        for a in s['attributes']:
            w = f"attribute-set {s['name']} attribute {a['name']}"
            t, sub = a.get('type'), a.get('sub-type')
            if 'nested-attributes' in a and a['nested-attributes'] not in sets:
                p.append(f"{w}: no attribute-set {a['nested-attributes']!r}")
            if (t == 'nest' or sub == 'nest') and 'nested-attributes' not in a:
                p.append(f'{w}: a nest needs nested-attributes')
            if t == 'indexed-array' and not sub:
                p.append(f'{w}: an indexed-array needs a sub-type')
            if 'enum' in a:
                enum_ok(w, a['enum'])
            if 'struct' in a and (a['struct'] not in defs or
                                  defs[a['struct']]['type'] != 'struct'):
                p.append(f"{w}: no struct {a['struct']!r}")
    for op in y['operations']['list']:
        w = f"operation {op['name']}"
        if 'notify' in op and op['notify'] not in ops:
            p.append(f"{w}: notify names no operation {op['notify']!r}")
        if 'mcgrp' in op and op['mcgrp'] not in groups:
            p.append(f"{w}: no mcast group {op['mcgrp']!r}")
        sname = spec.op_set(op)
        msgs = [(f'{m} {d}', op[m][d]) for m in ('do', 'dump')
                for d in ('request', 'reply') if d in op.get(m, {})]
        if 'event' in op:
            msgs.append(('event', op['event']))
        if msgs and sname not in sets:
            p.append(f'{w}: no attribute-set {sname!r}')
            continue
        for where, msg in msgs:
            for n in msg.get('attributes', []):
                if n not in [a['name'] for a in sets[sname]['attributes']]:
                    p.append(f'{w} {where}: {n!r} is not in attribute-set {sname}')
    return p


def check_docs(spec):
    y, p = spec.y, []
    if not y.get('doc'):
        p.append('the family has no doc')
    for d in y.get('definitions', []):
        if not d.get('doc'):
            p.append(f"definition {d['name']} has no doc")
        for e in d.get('entries', []):
            if isinstance(e, str) or not e.get('doc'):
                p.append(f"definition {d['name']}: entry "
                         f"{e if isinstance(e, str) else e['name']} has no doc")
        for m in d.get('members', []):
            if not m.get('doc'):
                p.append(f"struct {d['name']}: member {m['name']} has no doc")
    for s in y['attribute-sets']:
        if not s.get('doc'):
            p.append(f"attribute-set {s['name']} has no doc")
        for a in s['attributes']:
            if not a.get('doc'):
                p.append(f"attribute-set {s['name']}: {a['name']} has no doc")
    for op in y['operations']['list']:
        if not op.get('doc'):
            p.append(f"operation {op['name']} has no doc")
    return p


class Checks:
    def __init__(self, spec, header, probe):
        self.spec, self.hdr, self.probe = spec, header, probe

    def value(self, name):
        return self.probe.values.get(name)

    def define(self, name, want, kind):
        got = self.value(name)
        if name not in self.hdr.defines:
            return [f'the header has no #define {name}']
        if got is None or not isinstance(got, kind):
            return [f'{name} is not a {kind.__name__} ({got!r})']
        if got != want:
            return [f'{name} is {got!r}, the spec says {want!r}']
        return []

    def family_name(self):
        return self.define(self.spec.fam_key, self.spec.name, str)

    def family_version(self):
        return self.define(self.spec.ver_key, self.spec.version, int)

    def header_defines(self, kind):
        return {n for n in self.hdr.defines if isinstance(self.value(n), kind)}

    def mcgrps(self):
        p = []
        for c, name in self.spec.mcgrps:
            p += self.define(c, name, str)
        extra = self.header_defines(str) - {self.spec.fam_key} - \
            {c for c, _ in self.spec.mcgrps}
        p += [f'#define {n} {self.value(n)!r} is no mcast group of the spec'
              for n in sorted(extra)]
        return p

    def consts(self):
        p = []
        for c, v, _ in self.spec.consts:
            p += self.define(c, v, type(v))
        extra = self.header_defines(int) - {self.spec.ver_key} - \
            {c for c, _, _ in self.spec.consts}
        p += [f'#define {n} {self.value(n)} is no const definition of the spec'
              for n in sorted(extra)]
        return p

    def compare_enum(self, tag, want, ignore=()):
        """want: [(C name, value)] in order; the header's enum `tag` must hold
        exactly these (besides `ignore`), in that order, with those values."""
        if tag is None:
            return ['no enum-name: ynl would render an anonymous enum']
        if tag not in self.hdr.enums:
            return [f'the header has no enum {tag}']
        have = [it.name for it in self.hdr.enums[tag] if it.name not in ignore]
        names = [n for n, _ in want]
        p = [f'{n}: in enum {tag}, not in the spec' for n in have if n not in names]
        p += [f'{n}: in the spec, not in enum {tag}' for n in names if n not in have]
        for n, v in want:
            if n in have and self.value(n) != v:
                p.append(f'{n} is {self.value(n)} in the header, {v} in the spec')
        common = [n for n in names if n in have]
        if not p and common != [n for n in have if n in names]:
            p.append(f"order differs: spec {', '.join(common)}")
        return p

    def def_enum(self, e):
        return self.compare_enum(e['tag'], e['entries'] + e['extra'])

    def set_names(self, s):
        return self.compare_enum(s['tag'], [(a['c'], a['value']) for a in s['attrs']],
                                 ignore=(s['cnt'], s['max']))

    def set_max(self, s):
        p = []
        items = [it.name for it in self.hdr.enums.get(s['tag'], [])]
        last = s['attrs'][-1]['value'] if s['attrs'] else 0
        for n, v in ((s['cnt'], last + 1), (s['max'], last)):
            if n not in items:
                p.append(f'{n} is not in enum {s["tag"]}')
            elif self.value(n) != v:
                p.append(f'{n} is {self.value(n)}, the spec makes it {v}')
        return p

    def set_types(self, s):
        p = []
        items = {it.name: it for it in self.hdr.enums.get(s['tag'], [])}
        prefixes = {x['name']: x.get('prefix') for x in self.spec.sets.values()}
        for a in s['attrs']:
            it, y = items.get(a['c']), a['y']
            if it is None:
                continue            # set_names() reports it
            p += [f"{a['c']}: {e}" for e in self.attr_type(it, y, prefixes)]
        return p

    def attr_type(self, it, y, prefixes):
        comment = it.trail or it.lead
        m = re.match(r'(u8|u16|u32|u64|s8|s16|s32|s64|uint|sint|string|nest|'
                     r'flag|binary|bitfield32|pad)\b\s*(.*)', comment, re.S)
        htype, rest = (m.group(1), m.group(2)) if m else (None, '')
        t = y.get('type')
        if t == 'unused':
            return [] if htype is None and self.value(it.name) == 0 else \
                [f'unused in the spec, the header says {comment!r}']
        if t == 'pad':
            return [] if htype == 'pad' or (htype is None and
                                            it.name.endswith('_PAD')) else \
                [f'pad in the spec, the header says {comment!r}']
        if htype is None:
            return [f'{t} in the spec, the header states no type ({comment!r})']
        p = []
        if t == 'indexed-array':
            of = re.match(r'of\s+(\w+?)s?\b', rest)
            allowed = {'string': {'string', 'binary'}}.get(of.group(1), {of.group(1)}) \
                if of else set()
            if htype != 'nest' or not of:
                p.append(f'indexed-array in the spec, the header says {comment!r}')
            elif y.get('sub-type') not in allowed:
                p.append(f"sub-type {y.get('sub-type')} in the spec, the header "
                         f"says {comment!r}")
        elif t == 'nest':
            pfx = re.search(r'\b([A-Z][A-Z0-9_]*_)\*', rest)
            if htype != 'nest' or rest.startswith('of'):
                p.append(f'nest in the spec, the header says {comment!r}')
            elif pfx and prefixes.get(y.get('nested-attributes')) != pfx.group(1):
                p.append(f"nests {y.get('nested-attributes')} in the spec, "
                         f"{pfx.group(1)}* in the header")
        elif t != htype:
            p.append(f'{t} in the spec, {htype} in the header ({comment!r})')
        henum = re.search(r'\benum\s+(\w+)', rest)
        if 'enum' in y:
            d = self.spec.defs.get(y['enum'])
            tag = d and self.spec.enum_tag(
                d, f"{self.spec.ident}_{c_lower(d['name'])}")
            if not henum:
                p.append(f"enum {y['enum']} in the spec, the header names no enum")
            elif tag != henum.group(1):
                p.append(f"enum {tag} in the spec, enum {henum.group(1)} in the header")
        elif henum:
            p.append(f'the header says enum {henum.group(1)}, the spec has no enum')
        return p

    def enum_coverage(self):
        s = self.spec
        described = {e['tag'] for e in s.enums} | {s.ops['tag']} | \
            {x['tag'] for x in s.sets.values() if not x['subset']}
        return [f'enum {t} of the header is not in the spec'
                for t in self.hdr.enums if t not in described]

    def ops_names(self):
        o = self.spec.ops
        return self.compare_enum(o['tag'], [(op['c'], op['value']) for op in o['ops']],
                                 ignore=(o['cnt'], o['max']))

    def ops_max(self):
        o = self.spec.ops
        return self.set_max({'tag': o['tag'], 'cnt': o['cnt'], 'max': o['max'],
                             'attrs': o['ops']})

    def ops_semantics(self):
        """What each command's header comment says: do/dump or notification
        (and its group), the permission, the top-level attributes."""
        p = []
        items = {it.name: it for it in self.hdr.enums.get(self.spec.ops['tag'], [])}
        for op in self.spec.ops['ops']:
            it, y, w = items.get(op['c']), op['y'], op['c']
            if it is None:
                continue                # ops_names() reports it
            c = it.lead
            ntf = re.match(r'Notification\b', c)
            if ntf:
                grp = re.search(r'"([\w-]+)" group', c)
                if not ('event' in y or 'notify' in y) or 'do' in y or 'dump' in y:
                    p.append(f'{w}: a notification in the header, not in the spec')
                if grp and y.get('mcgrp') != grp.group(1):
                    p.append(f"{w}: group {y.get('mcgrp')!r} in the spec, "
                             f"{grp.group(1)!r} in the header")
            else:
                for mode in ('do', 'dump'):
                    said = bool(re.search(rf'\b{mode}:', c))
                    if said != (mode in y):
                        p.append(f"{w}: {mode} {'in' if said else 'not in'} the "
                                 f"header, {'in' if mode in y else 'not in'} the spec")
                for k in ('event', 'notify', 'mcgrp'):
                    if k in y:
                        p.append(f'{w}: {k} in the spec, no notification in the header')
            # The flag makes genetlink refuse every request of the command
            # (do and dump); a comment that says what happens "Without
            # CAP_NET_ADMIN" describes the handler's own, finer check
            # (PDC_GET: the do refused, the dump without the ids), which
            # no flag can express.
            if 'CAP_NET_ADMIN' in c and not re.search(r'\bWithout CAP_NET_ADMIN\b', c):
                need = {'uns-admin-perm' if 'user namespace' in c else 'admin-perm'}
            else:
                need = set()
            if set(y.get('flags', [])) != need:
                p.append(f"{w}: flags {sorted(y.get('flags', []))} in the spec, "
                         f"{sorted(need)} from the header's comment")
            sname = self.spec.op_set(y)
            s = self.spec.sets.get(sname)
            if not s or s['subset']:
                continue
            cname = {a['name']: a['c'] for a in s['attrs']}
            used = set()
            for mode in ('do', 'dump'):
                for d in ('request', 'reply'):
                    used |= set(y.get(mode, {}).get(d, {}).get('attributes', []))
            used |= set(y.get('event', {}).get('attributes', []))
            used = {cname.get(n, n) for n in used}
            said = set(re.findall(rf"\b({re.escape(s['prefix'])}[A-Z0-9_]+)", c))
            said -= {s['max'], s['cnt']}
            for n in sorted(said - used):
                p.append(f'{w}: the header names {n}, the spec does not use it')
            for n in sorted(used - said):
                p.append(f'{w}: the spec uses {n}, the header does not name it')
        return p

    @staticmethod
    def member_ctype(m):
        t, bo = m['type'], m['byte-order']
        if t in SCALARS:
            if bo and t not in ('u8', 's8'):
                return f"__{'be' if bo == 'big-endian' else 'le'}{t[1:]}"
            return '__' + t
        return None

    def struct_members(self, st):
        if st['tag'] not in self.hdr.structs:
            return [f"the header has no struct {st['tag']}"]
        _, items = self.hdr.structs[st['tag']]
        have, want = [it.name for it in items], [m['name'] for m in st['members']]
        p = [f'{n}: in the header, not in the spec' for n in have if n not in want]
        p += [f'{n}: in the spec, not in the header' for n in want if n not in have]
        if not p and have != want:
            p.append(f"order differs: header {', '.join(have)}")
        byname = {it.name: it for it in items}
        for m in st['members']:
            it = byname.get(m['name'])
            if it is None:
                continue
            ct = self.member_ctype(m)
            if ct:
                if it.ctype != ct or it.array:
                    p.append(f"{m['name']}: {m['type']} in the spec, "
                             f"{it.ctype}{'[' + it.array + ']' if it.array else ''} "
                             f"in the header")
                elif not self.probe.compat.get((st['tag'], m['name'], ct)):
                    p.append(f"{m['name']}: gcc finds it incompatible with {ct}")
            elif it.ctype not in ('char', '__u8', 'unsigned char') or not it.array:
                p.append(f"{m['name']}: {m['type']} in the spec, {it.ctype} in the header")
        return p

    def member_size(self, m):
        if m['type'] in SCALARS:
            return SCALARS[m['type']]
        n = m['len']
        if isinstance(n, str):      # a const of the spec, or "NAME - 1"
            name, minus = re.match(r'(\S+)( - 1)?$', n).groups()
            n = self.spec.defs[name]['value'] - (1 if minus else 0)
        return n

    def struct_layout(self, st):
        """ynl decodes a struct member after member, with no padding (it
        would have to be an explicit member): the offsets gcc gives must be
        those sums.  The size must also be the one the header's comment
        gives and, for one travelling as INET_DIAG_<X>INFO, that of the
        kernel's struct for <X> (which is what the kernel copies)."""
        tag, p, off = st['tag'], [], 0
        if tag not in self.probe.sizes:
            return [f'gcc knows no struct {tag}']
        for m in st['members']:
            got = self.probe.offsets.get((tag, m['name']))
            size = self.member_size(m)
            if got is None:
                p.append(f"{m['name']}: not in the header's struct")
            elif got != (off, size):
                p.append(f"{m['name']}: at {got[0]} size {got[1]} in the header, "
                         f"at {off} size {size} by the spec")
            off += size
        if self.probe.sizes[tag] != off:
            p.append(f'sizeof(struct {tag}) is {self.probe.sizes[tag]}, '
                     f'the spec\'s members add up to {off}')
        lead, _ = self.hdr.structs.get(tag, ('', []))
        said = re.search(r'\((\d+) bytes', lead)
        if said and int(said.group(1)) != self.probe.sizes[tag]:
            p.append(f'the header\'s comment says {said.group(1)} bytes, '
                     f'sizeof is {self.probe.sizes[tag]}')
        diag = re.search(r'\bINET_DIAG_(BBR|DCTCP|VEGAS)INFO\b', lead)
        if diag:
            carrier = {'BBR': 'tcp_bbr_info', 'DCTCP': 'tcp_dctcp_info',
                       'VEGAS': 'tcpvegas_info'}[diag.group(1)]
            if self.probe.sizes.get(carrier) != self.probe.sizes[tag]:
                p.append(f'sizeof(struct {carrier}) is '
                         f'{self.probe.sizes.get(carrier)}, not {self.probe.sizes[tag]}')
        return p

    def struct_coverage(self):
        tags = {st['tag'] for st in self.spec.structs}
        return [f'struct {t} of the header is not in the spec'
                for t in self.hdr.structs if t not in tags]


# ---------------------------------------------------------------------------

class Tap:
    def __init__(self):
        self.results = []
        self.prefix = ''

    def check(self, desc, fn, *args):
        desc = self.prefix + desc
        try:
            problems = fn(*args)
        except Exception as e:      # a spec of a shape the checks did not expect
            problems = [f'{type(e).__name__}: {e}']
        self.results.append((not problems, desc, problems))

    def note(self, text):
        """A diagnostic line under the last result, ok or not."""
        ok, desc, problems = self.results[-1]
        self.results[-1] = (ok, desc, problems + [text])

    def emit(self):
        print('TAP version 13')
        print(f'1..{len(self.results)}')
        for n, (ok, desc, problems) in enumerate(self.results, 1):
            print(f"{'ok' if ok else 'not ok'} {n} - {desc}")
            for line in problems:
                for part in str(line).split('\n'):
                    print(f'#   {part}')
        return 0 if all(ok for ok, _, _ in self.results) else 1


def shown(path):
    """A path relative to the top of the tree if it is in it."""
    rel = os.path.relpath(os.path.abspath(path), TOP)
    return path if rel.startswith('..') else rel


def check_spec(tap, yaml_path, header_path, schema):
    """Every check of one spec against its header, each named
    "<spec>: ..." so that the specs' results stay apart."""
    tap.prefix = os.path.basename(yaml_path) + ': '
    try:
        spec = Spec(yaml_path)
    except Exception as e:
        tap.check(f'{shown(yaml_path)} loads', lambda: [f'{type(e).__name__}: {e}'])
        return
    if header_path is None:
        header_path = os.path.join(UAPI, spec.y.get('uapi-header', ''))
    try:
        hdr = Header(header_path)
    except Exception as e:
        tap.check(f'{shown(header_path)} reads', lambda: [f'{type(e).__name__}: {e}'])
        return

    tap.check('spec: the first line is the SPDX tag ynl requires',
              lambda: [] if spec.first_line == SPDX else [spec.first_line])
    tap.check(f"spec: keys and types of the {spec.y.get('protocol', 'genetlink')} "
              'schema, protocol level no higher than needed', check_shape, spec)
    if schema:
        def jsonschema_validate():
            import jsonschema
            with open(schema, encoding='utf-8') as f:
                schema = yaml.safe_load(f)
            try:
                jsonschema.validate(spec.y, schema)
            except jsonschema.ValidationError as e:
                return ['/'.join(str(x) for x in e.absolute_path) + ': ' + e.message]
            return []
        tap.check(f'spec: validates against {shown(schema)}', jsonschema_validate)
    tap.check('spec: every reference resolves', check_refs, spec)
    tap.check('spec: every definition, attribute and operation has a doc',
              check_docs, spec)

    members = {t: [it.name for it in items] for t, (_, items) in hdr.structs.items()}
    compat = []
    for st in spec.structs:
        members.setdefault(st['tag'], [])
        for m in st['members']:
            if m['name'] not in members[st['tag']]:
                members[st['tag']].append(m['name'])
    for st in spec.structs:
        for m in st['members']:
            ct = Checks.member_ctype(m)
            if ct:
                compat.append((st['tag'], m['name'], ct))
    for carrier in ('tcp_bbr_info', 'tcp_dctcp_info', 'tcpvegas_info'):
        members.setdefault(carrier, [])
    names = set(hdr.defines) | spec.all_c_names()
    for items in hdr.enums.values():
        names |= {it.name for it in items}
    probe = Probe(header_path, names, members, compat)
    tap.check(f'header: a probe of {len(names)} names and {len(members)} structs '
              'builds with gcc and runs',
              lambda: [probe.error] if probe.error else [])
    if probe.dropped:   # what the header lacks; the checks report it too
        tap.note('not in the header, dropped from the probe: ' +
                 ', '.join(probe.dropped))

    c = Checks(spec, hdr, probe)
    tap.check(f'family name: {spec.fam_key} is "{spec.name}"', c.family_name)
    tap.check(f'family version: {spec.ver_key} is {spec.version}', c.family_version)
    tap.check('mcast groups match the header\'s string #defines', c.mcgrps)
    tap.check('const definitions match the header\'s other #defines', c.consts)
    for e in spec.enums:
        tap.check(f"definition {e['name']}: entries and values match "
                  f"enum {e['tag'] or '(anonymous)'}",
                  c.def_enum, e)
    for s in spec.sets.values():
        if s['subset']:
            continue
        tap.check(f"attribute-set {s['name']}: names, values and order match "
                  f"enum {s['tag'] or '(anonymous)'}", c.set_names, s)
        tap.check(f"attribute-set {s['name']}: types match the header's comments",
                  c.set_types, s)
        tap.check(f"attribute-set {s['name']}: {s['cnt']} and {s['max']} follow "
                  'the last attribute', c.set_max, s)
    tap.check('every enum of the header is in the spec', c.enum_coverage)
    tap.check('operations: names, values and order match '
              f"enum {spec.ops['tag'] or '(anonymous)'}",
              c.ops_names)
    tap.check(f"operations: {spec.ops['cnt']} and {spec.ops['max']} follow the "
              'last command', c.ops_max)
    tap.check('operations: do/dump, notification, permission and attributes as '
              "the header's comments say", c.ops_semantics)
    for st in spec.structs:
        tap.check(f"struct {st['tag']}: members, types and order match the header",
                  c.struct_members, st)
        tap.check(f"struct {st['tag']}: packed as ynl decodes it, the size the "
                  'header says', c.struct_layout, st)
    tap.check('every struct of the header is in the spec', c.struct_coverage)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--yaml', help='one spec (default: every spec of the tree)')
    ap.add_argument('--header', help="its uapi header (default: the spec's uapi-header)")
    ap.add_argument('--schema', help="mainline's genetlink-legacy.yaml, to "
                    'validate the specs with jsonschema as well')
    args = ap.parse_args()
    tap = Tap()

    if yaml is None:
        tap.check('python3-yaml is installed (scripts/deps)', lambda: ['no module yaml'])
        return tap.emit()
    if args.yaml:
        specs = [args.yaml]
    else:
        specs = sorted(os.path.join(SPECS, f) for f in os.listdir(SPECS)
                       if f.endswith('.yaml'))
        if args.header:
            ap.error('--header needs --yaml')
        tap.check(f'{shown(SPECS)} holds the specs fabric.yaml and mrt.yaml',
                  lambda: sorted({'fabric.yaml', 'mrt.yaml'} -
                                 {os.path.basename(p) for p in specs}))
    for path in specs:
        check_spec(tap, path, args.header, args.schema)
    return tap.emit()


if __name__ == '__main__':
    sys.exit(main())
