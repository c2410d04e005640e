#!/usr/bin/env python3
"""scripts/size-breakdown.py - where the bytes of a static binary go, from
the GNU ld map file of its link (make ... LDFLAGS+=-Wl,-Map,FILE):
per input object and per group (boardbench's src/ directories, the
measured kernels, each C library archive, libgcc, the start files), the
bytes each puts in the file (code, read-only data, data; not .bss).

  scripts/size-breakdown.py MAP [--objects N] [--members N]
"""
import re
import sys
from collections import defaultdict

SECTION = re.compile(r'^ (\.[^\s]+|COMMON)(?:\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(.+))?$')
CONT = re.compile(r'^\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(.+)$')


def kind(section):
    """The part of the file a section goes to, or None (not in the file)."""
    if section.startswith(('.bss', '.tbss', 'COMMON', '.debug', '.comment', '.note.GNU-stack')):
        return None
    if section.startswith('.text') or section.startswith(('.init', '.fini')):
        return 'text'
    if section.startswith(('.rodata', '.eh_frame', '.gcc_except', '.srodata')):
        return 'rodata'
    return 'data'


def group(obj):
    m = re.search(r'([^/\s]+)\.a\((.+)\)$', obj)
    if m:
        lib = m.group(1)
        return ('musl ' + lib if lib in ('libc', 'libm', 'libpthread') else lib), m.group(2)
    if '/src/kernels/' in obj:
        return 'boardbench src/kernels (measured, -O3)', obj
    m = re.search(r'/src/([a-z]+)/', obj)
    if m:
        return 'boardbench src/' + m.group(1), obj
    if obj.endswith('/src/main.o'):
        return 'boardbench src/main.o', obj
    return 'start files and other', obj


def parse(path):
    sizes = defaultdict(lambda: defaultdict(int))
    in_map = False
    pending = None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('Linker script and memory map'):
                in_map = True
                continue
            if not in_map:
                continue
            m = SECTION.match(line)
            if m and m.group(2) is None:
                pending = m.group(1)
                continue
            if m:
                sec, size, obj = m.group(1), int(m.group(3), 16), m.group(4)
            elif pending and CONT.match(line):
                c = CONT.match(line)
                sec, size, obj = pending, int(c.group(2), 16), c.group(3)
            else:
                pending = None
                continue
            pending = None
            k = kind(sec)
            if k and size and obj.strip().endswith(('.o', ')')):
                sizes[obj.strip()][k] += size
    return sizes


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    nobj = 25
    if '--objects' in sys.argv:
        nobj = int(sys.argv[sys.argv.index('--objects') + 1])
    sizes = parse(sys.argv[1])
    groups = defaultdict(lambda: defaultdict(int))
    members = defaultdict(int)
    for obj, s in sizes.items():
        g, member = group(obj)
        for k, v in s.items():
            groups[g][k] += v
        if g.startswith(('musl', 'libgcc')):
            members[g + ': ' + member] += sum(s.values())
    total = sum(sum(s.values()) for s in groups.values())
    print('%-44s %9s %9s %9s %9s' % ('group', 'text', 'rodata', 'data', 'total'))
    for g, s in sorted(groups.items(), key=lambda kv: -sum(kv[1].values())):
        print('%-44s %9d %9d %9d %9d' % (g, s['text'], s['rodata'], s['data'], sum(s.values())))
    print('%-44s %39d' % ('all', total))
    print('\nlargest objects:')
    for obj, s in sorted(sizes.items(), key=lambda kv: -sum(kv[1].values()))[:nobj]:
        print('%9d  %s' % (sum(s.values()), obj))
    print('\nlargest C library / libgcc members:')
    for m, v in sorted(members.items(), key=lambda kv: -kv[1])[:nobj]:
        print('%9d  %s' % (v, m))


if __name__ == '__main__':
    main()
