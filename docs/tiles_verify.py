#!/usr/bin/env python3
"""A verifier of a pg_act log exported as C2SP tlog-tiles (actctl log export).

It reads only the exported files, from a directory or from a static file
server's base URL, and trusts only the log's verifier key (and a pinned
checkpoint, when given). It checks the checkpoint's signature, every entry
bundle against its level-0 tile, every full tile against the level above, and
the root of the tiles against the checkpoint; with --pin, that the pinned
checkpoint is a prefix of the exported tree. It computes inclusion and
consistency proofs from the tiles and checks each with the RFC 9162
verification algorithms. The formats: docs/verifiable-log.md ("Mirroring the
log as tiles"), https://c2sp.org/tlog-tiles. The signed-note, checkpoint and
RFC 9162 functions are docs/audit.py's (it needs python3-cryptography).

  docs/tiles_verify.py DIR|URL --vkey VKEY [--vkey ...] [--pin FILE]
      [--inclusion INDEX ... [--size N]] [--consistency OLD NEW ...] [--every-proof MAX]

Exit 0 when everything holds, 3 when the export does not verify (stderr names
the first problem), 2 for unusable arguments or no checkpoint at the location.
"""
import argparse
import concurrent.futures
import hashlib
import os
import sys
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import audit  # noqa: E402  (beside this file: the signed notes and RFC 9162, shared)
from audit import Broken, Unusable, leaf_hash, node_hash  # noqa: E402

WIDTH = 256  # hashes in a full tile, entries in a full bundle
ENTRY_BYTES = 32  # a pg_act entry is an event's SHA-256 hash
PAGE = 256  # files fetched side by side


# ---- Where things are (C2SP tlog-tiles) ------------------------------------

def index_path(index):
    """1234067 -> x001/x234/067: 3-digit groups, all but the last prefixed x."""
    groups = [index % 1000]
    while index >= 1000:
        index //= 1000
        groups.append(index % 1000)
    groups.reverse()
    return "/".join(("x" if i + 1 < len(groups) else "") + f"{g:03d}" for i, g in enumerate(groups))


def suffix(width):
    return "" if width == WIDTH else f".p/{width}"


def tile_path(level, index, width=WIDTH):
    return f"tile/{level}/{index_path(index)}{suffix(width)}"


def bundle_path(index, width=WIDTH):
    return f"tile/entries/{index_path(index)}{suffix(width)}"


def tile_width(size, level, index):
    """The width of tile (level, index) in a tree of `size` entries; 0 when it has none."""
    hashes = size >> (8 * level)
    if index < hashes // WIDTH:
        return WIDTH
    return hashes % WIDTH if index == hashes // WIDTH else 0


def fetcher(location):
    """A function from a path inside the export to its bytes, None when absent."""
    if "://" in location:
        base = location.rstrip("/")

        def fetch(path):
            try:
                with urllib.request.urlopen(f"{base}/{path}", timeout=30) as response:
                    return response.read()
            except urllib.error.HTTPError as e:
                if e.code == 404:
                    return None
                raise Broken(f"{base}/{path}: HTTP {e.code}") from None
            except (urllib.error.URLError, OSError) as e:
                raise Unusable(f"cannot fetch {base}/{path}: {e}") from None
        return fetch

    def read(path):
        try:
            with open(os.path.join(location, *path.split("/")), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None
    return read


# ---- The tree from its tiles ------------------------------------------------

def split_hashes(data, width, path):
    if data is None:
        raise Broken(f"{path} is missing")
    if len(data) != 32 * width:
        raise Broken(f"{path} is {len(data)} bytes, not the {32 * width} of {width} hashes")
    return [data[i:i + 32] for i in range(0, len(data), 32)]


def parse_bundle(data, width, path):
    if data is None:
        raise Broken(f"{path} is missing")
    entries, at = [], 0
    while at < len(data):
        length = int.from_bytes(data[at:at + 2], "big") if at + 2 <= len(data) else -1
        if length < 0 or at + 2 + length > len(data):
            raise Broken(f"{path}: entry {len(entries)} is cut short")
        if length != ENTRY_BYTES:
            raise Broken(f"{path}: entry {len(entries)} is {length} bytes, not an event hash's {ENTRY_BYTES}")
        entries.append(data[at + 2:at + 2 + length])
        at += 2 + length
    if len(entries) != width:
        raise Broken(f"{path} holds {len(entries)} entries, not {width}")
    return entries


def subtree(hashes):
    """The hash of the perfect subtree over a power-of-two run of hashes."""
    while len(hashes) > 1:
        hashes = [node_hash(hashes[i], hashes[i + 1]) for i in range(0, len(hashes), 2)]
    return hashes[0]


def largest_power_below(n):
    return 1 << ((n - 1).bit_length() - 1)


class Tiles:
    """Hashes of the exported tree of `size` entries, any node fetched once.
    Proofs for any size up to `size` come from these tiles: a node complete in
    a smaller tree is complete, with the same hash, in this one."""

    def __init__(self, fetch, size):
        self.fetch, self.size = fetch, size
        self.tiles, self.nodes, self.ranges = {}, {}, {}

    def tile(self, level, index):
        if (level, index) not in self.tiles:
            width = tile_width(self.size, level, index)
            if width == 0:
                raise Broken(f"a tree of {self.size} entries has no tile {tile_path(level, index)}")
            path = tile_path(level, index, width)
            self.tiles[level, index] = split_hashes(self.fetch(path), width, path)
        return self.tiles[level, index]

    def node(self, height, index):
        """The perfect subtree of 2^height leaves from leaf index * 2^height."""
        if (height, index) not in self.nodes:
            level, above = divmod(height, 8)
            first, count = index << above, 1 << above
            hashes = self.tile(level, first // WIDTH)[first % WIDTH:first % WIDTH + count]
            if len(hashes) != count:
                raise Broken(f"subtree ({height}, {index}) is not complete in {tile_path(level, first // WIDTH)}")
            self.nodes[height, index] = subtree(hashes)
        return self.nodes[height, index]

    def mth(self, lo, hi):
        """RFC 9162 MTH of entries [lo, hi); lo is a multiple of the largest power of two <= hi - lo."""
        n = hi - lo
        if n & (n - 1) == 0:
            return self.node(n.bit_length() - 1, lo // n)
        if (lo, hi) not in self.ranges:
            k = largest_power_below(n)
            self.ranges[lo, hi] = node_hash(self.mth(lo, lo + k), self.mth(lo + k, hi))
        return self.ranges[lo, hi]

    def root(self, size):
        return hashlib.sha256(b"").digest() if size == 0 else self.mth(0, size)

    def leaf(self, index):
        return self.node(0, index)

    def inclusion(self, index, size, lo=0):
        """RFC 9162 2.1.3.1 PATH(index, D[lo:size]), bottom-up."""
        if size - lo == 1:
            return []
        k = largest_power_below(size - lo)
        if index < lo + k:
            return self.inclusion(index, lo + k, lo) + [self.mth(lo + k, size)]
        return self.inclusion(index, size, lo + k) + [self.mth(lo, lo + k)]

    def consistency(self, old, new):
        """RFC 9162 2.1.4.1 PROOF(old, D[0:new])."""
        def subproof(m, lo, hi, complete):
            if m == hi - lo:
                return [] if complete else [self.mth(lo, hi)]
            k = largest_power_below(hi - lo)
            if m <= k:
                return subproof(m, lo, lo + k, complete) + [self.mth(lo + k, hi)]
            return subproof(m - k, lo + k, hi, False) + [self.mth(lo, lo + k)]
        return [] if old == 0 or old == new else subproof(old, 0, new, True)


def verify_tree(fetch, size, root, tiles):
    """Every entry bundle against its level-0 tile, every full tile against the
    level above, the root of the tiles against the checkpoint's; the counts."""
    counts = {"tiles": 0, "partial": 0, "bundles": 0}
    below, level = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        while size >> (8 * level):
            above, hashes_here = [], size >> (8 * level)
            count = -(-hashes_here // WIDTH)
            for first in range(0, count, PAGE):
                indices = range(first, min(count, first + PAGE))
                widths = [tile_width(size, level, n) for n in indices]
                paths = [tile_path(level, n, w) for n, w in zip(indices, widths)]
                datas = list(pool.map(fetch, paths))
                bundles = list(pool.map(fetch, [bundle_path(n, w) for n, w in zip(indices, widths)])) \
                    if level == 0 else []
                for i, (n, width, path) in enumerate(zip(indices, widths, paths)):
                    hashes = split_hashes(datas[i], width, path)
                    if level == 0:
                        for j, entry in enumerate(parse_bundle(bundles[i], width, bundle_path(n, width))):
                            if leaf_hash(entry) != hashes[j]:
                                raise Broken(f"entry {n * WIDTH + j} in {bundle_path(n, width)} is not in {path}: "
                                             f"its leaf hash is {leaf_hash(entry).hex()}, the tile holds "
                                             f"{hashes[j].hex()}")
                        counts["bundles"] += 1
                    else:
                        for j, h in enumerate(hashes):
                            if h != below[n * WIDTH + j]:
                                raise Broken(f"{path} holds {h.hex()} at {j}, but "
                                             f"{tile_path(level - 1, n * WIDTH + j)} hashes to "
                                             f"{below[n * WIDTH + j].hex()}")
                    counts["tiles"] += 1
                    if width == WIDTH:
                        above.append(subtree(hashes))
                    else:
                        counts["partial"] += 1
            below, level = above, level + 1
    computed = tiles.root(size)
    if computed != root:
        raise Broken(f"the root of the tiles is {computed.hex()}, not the checkpoint's {root.hex()}")
    return counts


# ---- Proofs, computed and checked --------------------------------------------

def hexes(path):
    return ",".join(h.hex() for h in path) or "-"


def inclusion_line(tiles, index, size):
    if not 0 <= index < size <= tiles.size:
        raise Unusable(f"--inclusion {index} --size {size}: needs 0 <= index < size <= {tiles.size}")
    leaf, root, path = tiles.leaf(index), tiles.root(size), tiles.inclusion(index, size)
    if not audit.verify_inclusion(index, size, leaf, path, root):
        raise Broken(f"the inclusion proof of entry {index} in the tree of {size} entries does not verify")
    return f"inclusion {index} {size} {leaf.hex()} {root.hex()} {hexes(path)}"


def consistency_line(tiles, old, new):
    if not 0 <= old <= new <= tiles.size:
        raise Unusable(f"--consistency {old} {new}: needs 0 <= old <= new <= {tiles.size}")
    old_root, new_root, path = tiles.root(old), tiles.root(new), tiles.consistency(old, new)
    if not audit.verify_consistency(old, old_root, new, new_root, path):
        raise Broken(f"the consistency proof from size {old} to size {new} does not verify")
    return f"consistency {old} {new} {old_root.hex()} {new_root.hex()} {hexes(path)}"


def run(args):
    vkeys = [audit.parse_vkey(v) for v in args.vkey]
    fetch = fetcher(args.location)
    data = fetch("checkpoint")
    if data is None:
        raise Unusable(f"no checkpoint at {args.location}")
    try:
        text, signed_by = audit.open_note(data.decode("utf-8"), vkeys)
        if not signed_by:
            raise ValueError("it has no signature by a given --vkey")
        origin, size, root = audit.parse_checkpoint(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise Broken(f"the checkpoint does not verify: {e}") from None
    print(f"checkpoint: {origin} size {size} root {root.hex()}, signed by {', '.join(signed_by)}")
    tiles = Tiles(fetch, size)
    counts = verify_tree(fetch, size, root, tiles)
    print(f"tiles: {counts['tiles']} hash tiles ({counts['partial']} partial) and {counts['bundles']} entry bundles "
          f"hold the {size} entries; every entry, tile and the root verify")
    if args.pin:
        try:
            with open(args.pin, encoding="utf-8") as f:
                pin_text, pin_signed = audit.open_note(f.read(), vkeys)
            if not pin_signed:
                raise ValueError("it has no signature by a given --vkey")
            pin_origin, pin_size, pin_root = audit.parse_checkpoint(pin_text)
        except (OSError, ValueError) as e:
            raise Unusable(f"--pin {args.pin!r} does not verify with the given --vkey: {e}") from None
        if pin_origin != origin:
            raise Broken(f"the checkpoint's origin \"{origin}\" is not the pinned \"{pin_origin}\": another log")
        if pin_size > size:
            raise Broken(f"the checkpoint has size {size}, below the pinned size {pin_size}: the log was rolled back")
        path = tiles.consistency(pin_size, size)
        if not audit.verify_consistency(pin_size, pin_root, size, root, path):
            raise Broken(f"the checkpoint of size {size} is not consistent with the pinned one of size {pin_size} "
                         f"(root {pin_root.hex()})")
        print(f"consistency: the pinned checkpoint of size {pin_size} is a prefix of it")
    for index in args.inclusion or []:
        print(inclusion_line(tiles, index, size if args.size is None else args.size))
    for old, new in args.consistency or []:
        print(consistency_line(tiles, old, new))
    if args.every_proof is not None:
        if not 1 <= args.every_proof <= size:
            raise Unusable(f"--every-proof {args.every_proof}: needs 1 <= MAX <= {size}")
        for n in range(1, args.every_proof + 1):
            for index in range(n):
                print(inclusion_line(tiles, index, n))
            for old in range(1, n):
                print(consistency_line(tiles, old, n))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("location", metavar="DIR|URL", help="the exported directory, or the base URL serving it")
    parser.add_argument("--vkey", required=True, action="append", help="the log's verifier key; repeatable")
    parser.add_argument("--pin", metavar="FILE", help="a checkpoint trusted before: it must be a prefix of this one")
    parser.add_argument("--inclusion", metavar="INDEX", type=int, action="append",
                        help="print the inclusion proof of entry INDEX (checked); repeatable")
    parser.add_argument("--size", metavar="N", type=int, help="the tree size of --inclusion (default: the checkpoint's)")
    parser.add_argument("--consistency", metavar=("OLD", "NEW"), type=int, nargs=2, action="append",
                        help="print the consistency proof between two sizes (checked); repeatable")
    parser.add_argument("--every-proof", metavar="MAX", type=int,
                        help="print every inclusion and consistency proof of every size 1..MAX (checked)")
    args = parser.parse_args()
    try:
        run(args)
    except Broken as e:
        print(f"verify failed: {e}", file=sys.stderr)
        sys.exit(3)
    except Unusable as e:
        print(f"tiles_verify.py: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
