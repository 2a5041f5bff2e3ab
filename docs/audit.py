#!/usr/bin/env python3
"""An auditor of pg_act's verifiable log that shares no code with pg_act.

It trusts only the pinned checkpoint (a C2SP signed note in a file) and the
log's verifier key, and reads the database through psql, in one read-only
snapshot. The formats: docs/verifiable-log.md (the tree, RFC 9162),
docs/hash-chain.md (event hashes), https://c2sp.org/signed-note and
https://c2sp.org/tlog-checkpoint. It needs Python 3, hashlib and
python3-cryptography (Ed25519).

  docs/audit.py --pin FILE --vkey VKEY [--vkey VKEY ...] [--full | --sample N] [--init] [--dsn CONNINFO]

Exit 0 when everything holds (the pin then holds the new checkpoint), 3 when
the log does not verify (stderr says what), 1 on a database error, 2 for
unusable arguments, a missing pin without --init, or no connection.
"""
import argparse
import base64
import bisect
import hashlib
import json
import os
import random
import struct
import subprocess
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

EM_DASH = "\u2014 "
ZERO = bytes(32)


class Broken(Exception):
    """The log does not verify (exit 3)."""


class Unusable(Exception):
    """Arguments or a connection that cannot be used (exit 2)."""


# ---- C2SP signed notes and checkpoints ------------------------------------

def b64(text):
    """Canonical base64 only: one value, one spelling."""
    try:
        data = base64.b64decode(text, validate=True)
    except ValueError:
        return None
    return data if base64.b64encode(data).decode() == text else None


def key_id(name, public_key):
    return hashlib.sha256(name.encode() + b"\n\x01" + public_key).digest()[:4]


def parse_vkey(vkey):
    name, _, rest = vkey.partition("+")
    hex_id, _, key = rest.partition("+")
    data = b64(key)
    if not name or " " in name or not key or data is None or len(data) != 33 or data[0] != 1:
        raise Unusable(f"--vkey {vkey!r} is not an Ed25519 verifier key <name>+<key ID>+<key>")
    if hex_id != key_id(name, data[1:]).hex():
        raise Unusable(f"--vkey {vkey!r}: the key ID is not the one its name and key give")
    return name, bytes.fromhex(hex_id), data[1:]


def open_note(note, vkeys):
    """The note's text and the keys that signed it; ValueError for a malformed
    note or a signature by a given key that does not verify."""
    if any(ord(c) < 0x20 and c != "\n" for c in note) or not note.endswith("\n"):
        raise ValueError("the note holds a control character or does not end in a newline")
    split = note.rfind("\n\n")
    if split < 0:
        raise ValueError("the note has no blank line before its signatures")
    text, lines = note[:split + 1], note[split + 2:].splitlines()
    if not lines:
        raise ValueError("the note has no signature line")
    signed_by = []
    for line in lines:
        name, _, signature = line[len(EM_DASH):].partition(" ")
        data = b64(signature)
        if not line.startswith(EM_DASH) or not name or data is None or len(data) < 5:
            raise ValueError(f"signature line {line!r} is malformed")
        for known_name, known_id, public_key in vkeys:
            if (name, data[:4]) == (known_name, known_id):
                try:
                    Ed25519PublicKey.from_public_bytes(public_key).verify(data[4:], text.encode())
                except InvalidSignature:
                    raise ValueError(f"the signature by {name}+{known_id.hex()} does not verify") from None
                signed_by.append(f"{name}+{known_id.hex()}")
    return text, signed_by


def parse_checkpoint(text):
    lines = text.split("\n")[:-1]
    root = b64(lines[2]) if len(lines) >= 3 else None
    if not text.endswith("\n") or len(lines) < 3 or not all(lines) or not lines[1].isdigit() \
            or (lines[1] != "0" and lines[1][0] == "0") or root is None or len(root) != 32:
        raise ValueError("the note text is not a checkpoint (origin, size, base64 root)")
    return lines[0], int(lines[1]), root


# ---- RFC 9162 --------------------------------------------------------------

def leaf_hash(entry):
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def largest_power_below(n):
    return 1 << ((n - 1).bit_length() - 1)


def inclusion_path_length(index, size):
    """The hashes of PATH(index, D[size]): one per split on the way down to the leaf."""
    length = 0
    while size > 1:
        k = largest_power_below(size)
        index, size = (index, k) if index < k else (index - k, size - k)
        length += 1
    return length


def consistency_path_length(old_size, new_size):
    """The hashes of PROOF(old_size, D[new_size]): one per split on the way down
    to the old tree's last subtree, plus that subtree unless it is the whole old tree."""
    if old_size == 0 or old_size == new_size:
        return 0
    length, whole = 0, True
    while old_size != new_size:
        k = largest_power_below(new_size)
        if old_size <= k:
            new_size = k
        else:
            old_size, new_size, whole = old_size - k, new_size - k, False
        length += 1
    return length + (0 if whole else 1)


def verify_inclusion(index, size, leaf, path, root):
    """RFC 9162 2.1.3.2. A path of any other length than the proof's is
    refused before anything is hashed, not left to the walk to notice."""
    if index >= size or len(path) != inclusion_path_length(index, size):
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def verify_consistency(old_size, old_root, new_size, new_root, path):
    """RFC 9162 2.1.4.2, with the sizes 0 and equal made explicit; a path of
    another length than the proof's is refused first."""
    if old_size > new_size or len(path) != consistency_path_length(old_size, new_size):
        return False
    if old_size == 0:
        return not path and old_root == hashlib.sha256(b"").digest()
    if old_size == new_size:
        return not path and old_root == new_root
    if old_size > new_size or not path:
        return False
    if old_size & (old_size - 1) == 0:  # a power of two: the old root is the proof's first node
        path = [old_root] + path
    fn, sn = old_size - 1, new_size - 1
    while fn % 2 == 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == old_root and sr == new_root and sn == 0


class Frontier:
    """The root of a growing tree from O(log n) hashes."""

    def __init__(self):
        self.nodes = []  # (height, hash) of complete subtrees, largest first

    def append(self, leaf):
        height, h = 0, leaf
        while self.nodes and self.nodes[-1][0] == height:
            h = node_hash(self.nodes.pop()[1], h)
            height += 1
        self.nodes.append((height, h))

    def root(self):
        if not self.nodes:
            return hashlib.sha256(b"").digest()
        h = self.nodes[-1][1]
        for _, left in reversed(self.nodes[:-1]):
            h = node_hash(left, h)
        return h


# ---- Event hashes (docs/hash-chain.md, encoding versions 1 and 2) ----------

def event_hash(prev, stream, version, name, data, meta, created_micros, tags=()):
    def field(text):
        raw = text.encode()
        return struct.pack(">I", len(raw)) + raw
    # A tagged event: version 2, its tags between meta and created.
    tagged = b"".join([struct.pack(">I", len(tags))] + [field(t) for t in tags]) if tags else b""
    encoded = (b"ACT\x02" if tags else b"ACT\x01") + field(stream) + struct.pack(">q", version) + field(name) \
        + field(data) + field(meta) + tagged + struct.pack(">q", created_micros)
    return hashlib.sha256(prev + encoded).digest()


class Chains:
    """Each stream's chain, event by event in version order from its start."""

    def __init__(self, anchors):
        self.anchors = anchors  # stream -> (version, prev)
        self.heads = {}  # stream -> (version, hash)
        self.used_anchors = []
        self.chained = 0

    def check(self, event):
        eid, stream, version, name, data, meta, created, stored, tags = event
        label = f"event id {eid} (stream \"{stream}\" version {version})"
        if stream in self.heads:
            last, prev = self.heads[stream]
            if version != last + 1:
                raise Broken(f"{label}: versions {last + 1} to {version - 1} of the stream are missing"
                             if version > last else f"{label} comes after version {last} of its stream in id order")
        elif version == 0:
            prev = ZERO
        elif self.anchors.get(stream, (None,))[0] == version:
            prev = self.anchors[stream][1]
            self.used_anchors.append(stream)
        else:
            raise Broken(f"{label}: the stream starts at version {version} without an anchor there: "
                         "earlier events were removed")
        computed = event_hash(prev, stream, version, name, data, meta, created, tags)
        if computed != stored:
            raise Broken(f"{label}: its stored hash {stored.hex()} is not the hash of its content "
                         f"({computed.hex()}): the event or its hash was changed")
        self.heads[stream] = (version, computed)
        self.chained += 1


# ---- The database, through psql --------------------------------------------

EVENT_COLUMNS = ("e.id, encode(convert_to(e.stream, 'UTF8'), 'hex'), e.version, "
                 "encode(convert_to(e.name, 'UTF8'), 'hex'), encode(convert_to(e.data::text, 'UTF8'), 'hex'), "
                 "encode(convert_to(e.meta::text, 'UTF8'), 'hex'), "
                 "(extract(epoch FROM e.created) * 1000000)::bigint, encode(e.hash, 'hex'), "
                 "(SELECT string_agg(encode(convert_to(t.tag, 'UTF8'), 'hex'), ',' ORDER BY t.ord) "
                 "FROM act.event_tags t WHERE t.id = e.id)")
END = "__pg_act_audit_end__"


class Database:
    """One psql session, one read-only snapshot. Every value is read as hex or
    a number, so no text needs unquoting."""

    def __init__(self, dsn):
        args = ["psql", "-X", "-q", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1"] + ([dsn] if dsn else [])
        try:
            self.psql = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True)
        except OSError as e:
            raise Unusable(f"cannot run psql: {e}") from None
        try:
            self.rows("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        except RuntimeError as e:
            raise Unusable(f"cannot connect: {e}") from None

    def rows(self, sql):
        try:
            self.psql.stdin.write(f"{sql};\n\\echo {END}\n")
            self.psql.stdin.flush()
        except OSError:  # psql has ended: its stderr says why
            pass
        rows = []
        for line in self.psql.stdout:
            line = line.rstrip("\n")
            if line == END:
                return rows
            rows.append(line.split("|"))
        raise RuntimeError(" ".join(self.psql.stderr.read().split()) or "psql ended")

    def close(self):
        self.psql.stdin.close()
        self.psql.wait()


def event_of(row):
    eid, stream, version, name, data, meta, created, stored, tags = row
    text = [bytes.fromhex(x).decode() for x in (stream, name, data, meta)]
    tag_list = tuple(bytes.fromhex(t).decode() for t in tags.split(",")) if tags else ()
    return int(eid), text[0], int(version), text[1], text[2], text[3], int(created), bytes.fromhex(stored), tag_list


def entries(db, start, end):
    return [(int(p), int(i), bytes.fromhex(h)) for p, i, h in
            db.rows(f"SELECT position, id, encode(hash, 'hex') FROM act.log_entries({start}, {end}) ORDER BY position")]


def latest_signed(db, vkeys):
    for size, root, note_hex in db.rows("SELECT size, encode(root, 'hex'), encode(convert_to(note, 'UTF8'), 'hex') "
                                        "FROM act.checkpoints ORDER BY size DESC"):
        note = bytes.fromhex(note_hex).decode()
        try:
            text, signed_by = open_note(note, vkeys)
        except ValueError as e:
            if "\n\n" not in note:  # a checkpoint text alone: not signed yet
                try:
                    parse_checkpoint(note)
                    continue
                except ValueError as bad:
                    e = bad
            raise Broken(f"the stored checkpoint of size {size}: {e}") from None
        if signed_by:
            try:
                checkpoint = parse_checkpoint(text)
            except ValueError as e:
                raise Broken(f"the signed note of size {size}: {e}") from None
            if checkpoint[1] != int(size) or checkpoint[2].hex() != root:
                raise Broken(f"the row of size {size} in act.checkpoints holds a signed note of size {checkpoint[1]}")
            return note, checkpoint, signed_by
    return None


class Removals:
    """The removal records: what accounts for an entry whose event is absent.
    A record is an event of stream __truncations__ (hashed, chained and sealed
    like any other); the positions it removed are in a side table the owner
    could edit, so its data carries their count and a digest of (position,
    event id, entry) over them, which an edited list no longer matches."""

    def __init__(self, db, tree_size, anchors):
        self.db, self.tree_size, self.anchors = db, tree_size, anchors
        [(log_size,)] = db.rows("SELECT size FROM act.log_size()")
        self.log_size = int(log_size)
        self.records = {}  # record id -> {"position", "ranges", "checked", "in_tree"}
        ranges = []  # (begin, end, record id)
        for rid, position, begin, end in db.rows(
                "SELECT r.record_id, r.record_position, lower(u), upper(u) "
                "FROM act.log_removals() r LEFT JOIN LATERAL unnest(r.positions) u ON true "
                "ORDER BY r.record_id, lower(u)"):
            record = self.records.setdefault(int(rid), {
                "position": int(position) if position else None, "ranges": [], "checked": False, "in_tree": False})
            if begin:
                record["ranges"].append((int(begin), int(end)))
                ranges.append((int(begin), int(end), int(rid)))
        ranges.sort()
        for (_, end, first), (begin, _, second) in zip(ranges, ranges[1:]):
            if begin < end:
                raise Broken(f"entry {begin} is listed by two removal records, events {first} and {second}")
        self.ranges, self.begins = ranges, [r[0] for r in ranges]
        self.chain_checked, self.later = False, 0

    def account_for(self, position, eid):
        i = bisect.bisect_right(self.begins, position) - 1
        if i < 0 or position >= self.ranges[i][1]:
            raise Broken(f"entry {position} (event {eid}) is missing and no removal record accounts for it")
        rid = self.ranges[i][2]
        record = self.records[rid]
        if not record["checked"]:
            self.check(rid, record, position, eid)
        if not record["in_tree"]:
            self.later += 1

    def check(self, rid, record, position, eid):
        rows = self.db.rows(f"SELECT {EVENT_COLUMNS} FROM act.events e WHERE e.id = {rid}")
        if not rows:
            raise Broken(f"entry {position} (event {eid}) is missing, and the removal record that lists it, "
                         f"event {rid}, is missing from act.events")
        event = event_of(rows[0])
        label = f"removal record event {rid}"
        if event[1] != "__truncations__" or event[3] != "__tombstone__":
            raise Broken(f"{label} is event id {rid} (stream \"{event[1]}\" version {event[2]}), "
                         "not a \"__tombstone__\" of stream \"__truncations__\"")
        if not self.chain_checked:  # the records' stream along its chain: a rewritten record no longer chains
            chains = Chains(self.anchors)
            for row in self.db.rows(f"SELECT {EVENT_COLUMNS} FROM act.events e WHERE e.stream = '__truncations__' "
                                    "ORDER BY e.version"):
                chains.check(event_of(row))
            self.chain_checked = True
        try:
            data = json.loads(event[4])
        except ValueError:
            raise Broken(f"{label}: its data is not JSON") from None
        for key in ("removed", "first_position", "last_position"):
            if not isinstance(data, dict) or not isinstance(data.get(key), int) or isinstance(data.get(key), bool):
                raise Broken(f"{label}: its data {event[4]} has no integer \"{key}\"")
        digest = data.get("digest")
        if not isinstance(digest, str) or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise Broken(f"{label}: its data {event[4]} has no \"digest\" of 64 hex digits")
        ranges = record["ranges"]
        listed = sum(end - begin for begin, end in ranges)
        first, last = ranges[0][0], ranges[-1][1] - 1
        if last >= self.log_size:
            raise Broken(f"{label} lists position {last}, beyond the log's {self.log_size} entries")
        sha = hashlib.sha256()
        for begin, end in ranges:
            for at, entry_id, entry, present in self.db.rows(
                    f"SELECT p.position, p.id, encode(p.hash, 'hex'), e.id IS NOT NULL FROM act.log_entries({begin}, "
                    f"{end}) p LEFT JOIN act.events e ON e.id = p.id ORDER BY p.position"):
                if present == "t":
                    raise Broken(f"{label} lists entry {at}, but its event {entry_id} is present")
                sha.update(struct.pack(">qq", int(at), int(entry_id)) + bytes.fromhex(entry))
        # The count and bounds before the digest: they name an edit of the list more plainly.
        if data["removed"] != listed:
            raise Broken(f"{label} says it removed {data['removed']} entries, but {listed} positions are listed for it")
        if (data["first_position"], data["last_position"]) != (first, last):
            raise Broken(f"{label} says it removed positions {data['first_position']} to {data['last_position']}, "
                         f"but positions {first} to {last} are listed for it")
        if sha.hexdigest() != digest:
            raise Broken(f"{label}: the digest of the {listed} entries listed for it is {sha.hexdigest()}, "
                         f"its data says {digest}")
        own = record["position"]  # its own entry (act.log_position's), after everything it lists
        if own is not None and own <= last:
            raise Broken(f"{label} is entry {own}, not after every entry it lists (the last is {last})")
        record["in_tree"] = own is not None and own < self.tree_size
        if record["in_tree"]:
            [(own_id, own_hash)] = self.db.rows(f"SELECT id, encode(hash, 'hex') FROM act.log_entries({own}, {own + 1})")
            if int(own_id) != rid or bytes.fromhex(own_hash) != event[7]:
                raise Broken(f"entry {own} is not {label}: it holds event {own_id}")
        record["checked"] = True


def check_entry(position, entry, event):
    if entry != event[7]:
        raise Broken(f"entry {position} (event id {event[0]}): the entry holds hash {entry.hex()}, "
                     f"the event {event[7].hex()}")


def audit_all(db, size, root, anchors):
    frontier, chains, report = Frontier(), Chains(anchors), {"entries": 0, "events": 0, "deleted": 0}
    removals = Removals(db, size, anchors)
    deleted_hashes = set()
    last_id = entries(db, size - 1, size)[0][1] if size else 0
    pending, after = [], 0  # events in id order, a page at a time
    for start in range(0, size, 5000):
        page = entries(db, start, min(size, start + 5000))
        if len(page) != min(size, start + 5000) - start:
            raise Broken(f"act.log_entries gives {len(page)} entries from position {start}")
        for position, eid, entry in page:
            if position != report["entries"]:
                raise Broken(f"act.log_entries gives position {position} where {report['entries']} belongs")
            while True:
                if not pending and after < last_id:
                    pending = [event_of(r) for r in db.rows(
                        f"SELECT {EVENT_COLUMNS} FROM act.events e WHERE e.id > {after} AND e.id <= {last_id} "
                        "ORDER BY e.id LIMIT 5000")][::-1]
                    after = pending[0][0] if pending else last_id
                if not pending or pending[-1][0] >= eid:
                    break
                e = pending[-1]
                raise Broken(f"event id {e[0]} (stream \"{e[1]}\" version {e[2]}) is in no entry of the log")
            if pending and pending[-1][0] == eid:
                event = pending.pop()
                chains.check(event)
                check_entry(position, entry, event)
                report["events"] += 1
            else:  # deleted by act.truncate: its entry is all that is left
                removals.account_for(position, eid)
                report["deleted"] += 1
                deleted_hashes.add(entry)
            frontier.append(leaf_hash(entry))
            report["entries"] += 1
    for stream in chains.used_anchors:
        if anchors[stream][1] not in deleted_hashes:
            raise Broken(f"the anchor of stream \"{stream}\" chains to no deleted entry of the log")
    if frontier.root() != root:
        raise Broken(f"the root of the {size} entries is {frontier.root().hex()}, not the checkpoint's {root.hex()}")
    report["later"] = removals.later
    return report, chains.chained


def audit_sample(db, size, root, anchors, count):
    chains, report = Chains(anchors), {"entries": 0, "events": 0, "deleted": 0}
    removals = Removals(db, size, anchors)
    for position in sorted(random.sample(range(size), min(count, size))):
        found = entries(db, position, position + 1)
        if len(found) != 1 or found[0][0] != position:
            raise Broken(f"act.log_entries gives {len(found)} entries at position {position}")
        _, eid, entry = found[0]
        rows = db.rows(f"SELECT {EVENT_COLUMNS} FROM act.events e WHERE e.id = {eid}")
        if rows:
            event = event_of(rows[0])
            stream, version = event[1], event[2]
            checked = chains.heads.get(stream, (-1,))[0]
            stream_hex = stream.encode().hex()
            for row in db.rows(f"SELECT {EVENT_COLUMNS} FROM act.events e WHERE e.stream = "
                               f"convert_from('\\x{stream_hex}'::bytea, 'UTF8') AND e.version > {checked} "
                               f"AND e.version <= {version} ORDER BY e.version"):
                chains.check(event_of(row))
            check_entry(position, entry, event)
            report["events"] += 1
        else:
            removals.account_for(position, eid)
            report["deleted"] += 1
        [(index, tree_size, leaf, path, proof_root)] = db.rows(
            "SELECT p.leaf_index, p.tree_size, encode(p.leaf_hash, 'hex'), array_to_string(ARRAY(SELECT "
            "encode(h, 'hex') FROM unnest(p.path) WITH ORDINALITY AS u(h, i) ORDER BY u.i), ','), "
            f"encode(p.root, 'hex') FROM act.prove_inclusion({eid}, {size}) p")
        hashes = [bytes.fromhex(h) for h in path.split(",") if h]
        if (int(index), int(tree_size), leaf) != (position, size, leaf_hash(entry).hex()) \
                or not verify_inclusion(position, size, leaf_hash(entry), hashes, root):
            raise Broken(f"the inclusion proof of entry {position} (event id {eid}) does not hold against the "
                         "checkpoint's root")
        report["entries"] += 1
    report["later"] = removals.later
    return report, chains.chained


def audit(args):
    vkeys = [parse_vkey(v) for v in args.vkey]
    pinned = None
    if os.path.exists(args.pin):
        with open(args.pin, encoding="utf-8") as f:
            try:
                text, signed_by = open_note(f.read(), vkeys)
                if not signed_by:
                    raise ValueError("the pin has no signature by a given key")
                pinned = parse_checkpoint(text)
            except ValueError as e:
                raise Unusable(f"--pin {args.pin!r} does not verify with the given --vkey: {e}") from None
    elif not args.init:
        raise Unusable(f"--pin {args.pin!r} does not exist; give --init to trust the newest signed checkpoint")
    db = Database(args.dsn)
    latest = latest_signed(db, vkeys)
    if latest is None:
        if pinned:
            raise Broken(f"act.checkpoints holds no checkpoint signed by the given key, but the pin has size {pinned[1]}")
        raise Unusable("act.checkpoints holds no checkpoint signed by the given --vkey yet")
    note, (origin, size, root), signed_by = latest
    print(f"checkpoint: {origin} size {size} root {root.hex()}, signed by {', '.join(signed_by)}")
    [(log_size,)] = db.rows("SELECT size FROM act.log_size()")
    if size > int(log_size):
        raise Broken(f"the log has {log_size} entries, fewer than the signed checkpoint's {size}")
    if pinned:
        if pinned[0] != origin:
            raise Broken(f"the checkpoint's origin \"{origin}\" is not the pinned origin \"{pinned[0]}\": another log")
        if size < pinned[1]:
            raise Broken(f"the newest signed checkpoint has size {size}, below the pinned size {pinned[1]}: "
                         "the log was rolled back")
        [(path,)] = db.rows("SELECT array_to_string(ARRAY(SELECT encode(h, 'hex') FROM unnest(act.prove_consistency("
                            f"{pinned[1]}, {size})) WITH ORDINALITY AS u(h, i) ORDER BY u.i), ',')")
        if not verify_consistency(pinned[1], pinned[2], size, root, [bytes.fromhex(h) for h in path.split(",") if h]):
            raise Broken(f"the checkpoint of size {size} (root {root.hex()}) is not consistent with the pinned one "
                         f"of size {pinned[1]} (root {pinned[2].hex()})")
        print(f"consistency: the pinned checkpoint of size {pinned[1]} is a prefix of it")
    else:
        print("consistency: no pin yet, this checkpoint is trusted on first use (--init)")
    anchors = {bytes.fromhex(s).decode(): (int(v), bytes.fromhex(p)) for s, v, p in db.rows(
        "SELECT encode(convert_to(stream, 'UTF8'), 'hex'), version, encode(prev, 'hex') FROM act.stream_anchors")}
    report, chained = audit_all(db, size, root, anchors) if args.full else \
        audit_sample(db, size, root, anchors, args.sample)
    db.close()
    print(f"entries: {report['entries']} of {size} checked{' (full)' if args.full else ''}: {report['events']} "
          f"events recomputed ({chained} along their chains), {report['deleted']} deleted and accounted for by "
          f"removal records ({report['later']} by records not yet in this checkpoint); "
          + ("the root of the entries is the checkpoint's" if args.full else "each inclusion proof holds"))
    with open(args.pin + ".new", "w", encoding="utf-8") as f:
        f.write(note)
        f.flush()
        os.fsync(f.fileno())
    os.replace(args.pin + ".new", args.pin)
    print(f"pin: \"{args.pin}\" holds the checkpoint of size {size}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pin", required=True, help="the last checkpoint this auditor accepted; rewritten on success")
    parser.add_argument("--vkey", required=True, action="append", help="the log's verifier key; repeatable")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--full", action="store_true", help="check every entry and recompute the root")
    mode.add_argument("--sample", type=int, default=16, help="check N entries at random positions (default 16)")
    parser.add_argument("--init", action="store_true", help="without a pin file, trust the newest signed checkpoint")
    parser.add_argument("--dsn", help="libpq connection string (default: the PG* environment variables)")
    args = parser.parse_args()
    if args.sample < 1:
        parser.error("--sample: check at least 1 entry")
    try:
        audit(args)
    except Broken as e:
        print(f"audit failed: {e}", file=sys.stderr)
        sys.exit(3)
    except Unusable as e:
        print(f"audit.py: {e}", file=sys.stderr)
        sys.exit(2)
    except RuntimeError as e:
        print(f"audit.py: database error: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
