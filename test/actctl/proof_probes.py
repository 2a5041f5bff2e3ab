#!/usr/bin/env python3
"""RFC 9162 proofs of small trees and their mutations, for the proof
verifiers outside core (actctl's offline checks, docs/audit.py).

The trees and proofs are computed here from the RFC's definitions (MTH, PATH,
PROOF), recursively, sharing no code with what they test. Each case is a
statement and the verdict a verifier must reach: "holds" for the valid proof,
"fails" for a mutation (garbage before or after the path, a hash dropped or
flipped, another root, index or size, the roots or sizes swapped, an empty
path where one is needed), "unusable" when the statement names an index at or
beyond the size or an old size beyond the new one. A mutation that states
something true is left out.

A size one off is offered with the root of that size: with the same root, a
path whose shape is the same at both sizes holds at both (a verifier sees only
hashes; the size is bound by the signed checkpoint that states it with its
root). Doubled and halved sizes change the height, and are offered with the
same root too.

  proof_probes.py MAX_SIZE    one case a line, fields separated by '|':
    inclusion|VERDICT|WHAT|LEAF|INDEX|SIZE|ROOT|PATH
    consistency|VERDICT|WHAT|OLD_SIZE|OLD_ROOT|NEW_SIZE|NEW_ROOT|PATH
  hashes in hex, PATH comma-separated, '-' for the empty path.
"""
import hashlib
import sys


def sha(data):
    return hashlib.sha256(data).digest()


def largest_power_below(n):
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(leaves):
    if not leaves:
        return sha(b"")
    if len(leaves) == 1:
        return leaves[0]
    k = largest_power_below(len(leaves))
    return sha(b"\x01" + mth(leaves[:k]) + mth(leaves[k:]))


def path(m, leaves):
    """PATH(m, D[n]), bottom-up."""
    if len(leaves) == 1:
        return []
    k = largest_power_below(len(leaves))
    if m < k:
        return path(m, leaves[:k]) + [mth(leaves[k:])]
    return path(m - k, leaves[k:]) + [mth(leaves[:k])]


def subproof(m, leaves, whole):
    n = len(leaves)
    if m == n:
        return [] if whole else [mth(leaves)]
    k = largest_power_below(n)
    if m <= k:
        return subproof(m, leaves[:k], whole) + [mth(leaves[k:])]
    return subproof(m - k, leaves[k:], False) + [mth(leaves[:k])]


def proof(m, leaves):
    return [] if m == 0 or m == len(leaves) else subproof(m, leaves, True)


def flip(h, bit):
    b = bytearray(h)
    b[bit // 8 % 32] ^= 1 << (bit % 8)
    return bytes(b)


def garbage(seed):
    return sha(b"garbage %d" % seed)


def reshaped(p, junk, root):
    """Paths one or two hashes longer or shorter, as the probes make them."""
    out = [("garbage before the path", [junk] + p), ("garbage after the path", p + [junk]),
           ("the root before the path", [root] + p), ("the root after the path", p + [root]),
           ("two hashes after the path", p + [junk, junk])]
    if p:
        out += [("the last hash dropped", p[:-1]), ("the first hash dropped", p[1:]), ("an empty path", []),
                ("the first hash twice", [p[0]] + p), ("garbage after the first hash", [p[0], junk] + p[1:])]
    return out


class Probes:
    def __init__(self, max_size):
        self.max = max_size
        self.leaves = [sha(b"\x00" + b"entry %d" % i) for i in range(max_size + 1)]
        self.roots = [mth(self.leaves[:n]) for n in range(max_size + 2)]

    def known(self, n):
        return 0 <= n <= self.max + 1

    def inclusion_true(self, leaf, i, n, p, root):
        return 0 <= i < n and self.known(n) and leaf == self.leaves[i] and root == self.roots[n] \
            and p == path(i, self.leaves[:n])

    def consistency_true(self, m, old_root, n, new_root, p):
        if not (0 <= m <= n) or not self.known(m) or old_root != self.roots[m]:
            return False
        if m == 0:  # every tree extends the empty one, whatever its root
            return not p
        return self.known(n) and new_root == self.roots[n] and p == proof(m, self.leaves[:n])

    def inclusion(self, i, n):
        leaf, root, p = self.leaves[i], self.roots[n], path(i, self.leaves[:n])
        yield "holds", f"inclusion of {i} in {n}", leaf, i, n, root, p
        cases = [(w, leaf, i, n, root, q) for w, q in reshaped(p, garbage(i * 131 + n), root)]
        cases += [(f"hash {k} bit {b} flipped", leaf, i, n, root, p[:k] + [flip(p[k], b)] + p[k + 1:])
                  for k in range(len(p)) for b in (0, 3, 255)]
        cases += [("another root", leaf, i, n, flip(root, 7), p), ("the empty root", leaf, i, n, sha(b""), p),
                  ("another leaf", garbage(7), i, n, root, p), ("leaf and root swapped", root, i, n, leaf, p),
                  ("index ^ 2", leaf, i ^ 2, n, root, p), ("index = size", leaf, n, n, root, p)]
        for j in (i - 1, i + 1):
            if 0 <= j < n:
                cases += [(f"index {j}", leaf, j, n, root, p),
                          (f"the proof of index {j}", leaf, i, n, root, path(j, self.leaves[:n]))]
        for s in (n - 1, n + 1, n * 2, n // 2):
            if s in (n * 2, n // 2):
                cases.append((f"size {s}", leaf, i, s, root, p))
            if self.known(s):
                cases.append((f"size {s} and its root", leaf, i, s, self.roots[s], p))
        seen = set()
        for what, leaf2, i2, n2, root2, p2 in cases:
            statement = (leaf2, i2, n2, root2, tuple(p2))
            if i2 < 0 or n2 < 1 or statement in seen or self.inclusion_true(leaf2, i2, n2, p2, root2):
                continue
            seen.add(statement)
            yield ("unusable" if i2 >= n2 else "fails"), f"inclusion of {i} in {n}, {what}", leaf2, i2, n2, root2, p2

    def consistency(self, m, n):
        old, new, p = self.roots[m], self.roots[n], proof(m, self.leaves[:n])
        yield "holds", f"consistency {m} -> {n}", m, old, n, new, p
        cases = [(w, m, old, n, new, q) for w, q in reshaped(p, garbage(m * 131 + n), new)]
        cases += [("the old root before the path", m, old, n, new, [old] + p)]
        cases += [(f"hash {k} bit {b} flipped", m, old, n, new, p[:k] + [flip(p[k], b)] + p[k + 1:])
                  for k in range(len(p)) for b in (0, 4, 255)]
        cases += [("another old root", m, flip(old, 9), n, new, p), ("another new root", m, old, n, flip(new, 9), p),
                  ("roots swapped", m, new, n, old, p), ("sizes and roots swapped", n, new, m, old, p),
                  ("sizes swapped", n, old, m, new, p)]
        for s in (m - 1, m + 1, m ^ 2):
            if self.known(s):
                cases += [(f"old size {s}", s, old, n, new, p), (f"old size {s} and its root", s, self.roots[s], n, new, p)]
        for s in (n - 1, n + 1, n * 2, n // 2):
            if s in (n * 2, n // 2):
                cases.append((f"new size {s}", m, old, s, new, p))
            if self.known(s):
                cases.append((f"new size {s} and its root", m, old, s, self.roots[s], p))
        seen = set()
        for what, m2, old2, n2, new2, p2 in cases:
            statement = (m2, old2, n2, new2, tuple(p2))
            if m2 < 0 or n2 < 0 or statement in seen or self.consistency_true(m2, old2, n2, new2, p2):
                continue
            seen.add(statement)
            yield ("unusable" if m2 > n2 else "fails"), f"consistency {m} -> {n}, {what}", m2, old2, n2, new2, p2


def cases(max_size):
    """(kind, verdict, what, ...statement) for every proof of trees up to max_size."""
    probes = Probes(max_size)
    for n in range(1, max_size + 1):
        for i in range(n):
            yield from (("inclusion",) + case for case in probes.inclusion(i, n))
    for n in range(max_size + 1):
        for m in range(n + 1):
            yield from (("consistency",) + case for case in probes.consistency(m, n))


def line(case):
    kind, verdict, what, a, b, c, d, p = case
    field = [x.hex() if isinstance(x, bytes) else str(x) for x in (a, b, c, d)]
    return "|".join([kind, verdict, what] + field + [",".join(h.hex() for h in p) or "-"])


if __name__ == "__main__":
    for case in cases(int(sys.argv[1])):
        print(line(case))
