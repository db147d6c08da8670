#!/usr/bin/env python3
"""Writes another version of the default character for the README's "Comparing two versions"
picture (docs/make_pictures.sh): forearm_l moved 3 cm up at rest (its inverse bind with it),
hand_r renamed Hand_R, and the left elbow repainted: every vertex weighing on forearm_l gives
half of that weight to upperarm_l (what a rigger smoothing the elbow does).
Usage: docs/rig_version.py assets/default.glb OUT.glb"""
import json
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
b = bytearray(open(src, 'rb').read())
n = struct.unpack_from('<I', b, 12)[0]
j = json.loads(b[20:20 + n])
bin_at = 20 + n + 8


def data_at(accessor):
    a = j['accessors'][accessor]
    return bin_at + j['bufferViews'][a['bufferView']].get('byteOffset', 0) + a.get('byteOffset', 0)


names = [node['name'] for node in j['nodes']]
forearm, upperarm = names.index('forearm_l'), names.index('upperarm_l')
move = [0.0, 0.03, 0.0]
t = j['nodes'][forearm]['translation']
j['nodes'][forearm]['translation'] = [t[i] + move[i] for i in range(3)]
j['nodes'][names.index('hand_r')]['name'] = 'Hand_R'
skin = j['skins'][0]
slots = skin['joints']
at = data_at(skin['inverseBindMatrices']) + 64 * slots.index(forearm)
m = list(struct.unpack_from('<16f', b, at))  # column-major: m[4 * column + row]
for r in range(3):
    m[12 + r] -= sum(m[4 * c + r] * move[c] for c in range(3))
struct.pack_into('<16f', b, at, *m)
attributes = j['meshes'][0]['primitives'][0]['attributes']
weights, joints = data_at(attributes['WEIGHTS_0']), data_at(attributes['JOINTS_0'])
for v in range(j['accessors'][attributes['WEIGHTS_0']]['count']):
    jv = list(struct.unpack_from('<4B', b, joints + 4 * v))
    w = list(struct.unpack_from('<4f', b, weights + 16 * v))
    fs = [k for k in range(4) if slots[jv[k]] == forearm and w[k] > 0]
    if not fs:
        continue
    k = fs[0]
    give = 0.5 * w[k]
    us = [i for i in range(4) if slots[jv[i]] == upperarm and w[i] > 0]
    if not us:
        free = [i for i in range(4) if w[i] == 0]
        if not free:
            continue
        us = free[:1]
        jv[us[0]] = slots.index(upperarm)
    w[k] -= give
    w[us[0]] += give
    struct.pack_into('<4B', b, joints + 4 * v, *jv)
    struct.pack_into('<4f', b, weights + 16 * v, *w)
text = json.dumps(j).encode()
text += b' ' * (-len(text) % 4)
rest = bytes(b[20 + n:])
out = b'glTF' + struct.pack('<II', 2, 12 + 8 + len(text) + len(rest))
out += struct.pack('<I', len(text)) + b'JSON' + text + rest
open(dst, 'wb').write(out)
