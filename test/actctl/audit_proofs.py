#!/usr/bin/env python3
"""docs/audit.py's proof checks against every proof of trees up to MAX_SIZE
entries and their mutations (proof_probes.py): valid proofs hold, every
mutation is refused, statements beyond the tree too. Each wrong verdict is a
line on stderr; the last line on stdout is "PASSED FAILED".

  test/actctl/audit_proofs.py [MAX_SIZE, default 24]
"""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import proof_probes  # noqa: E402


def load_auditor():
    spec = importlib.util.spec_from_file_location("audit", os.path.join(here, "..", "..", "docs", "audit.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    try:
        audit = load_auditor()
    except Exception as e:  # a suite that cannot run fails
        print(f"cannot load docs/audit.py: {e}", file=sys.stderr)
        print("0 1")
        return
    max_size = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    passed = failed = 0
    seen = set()
    for kind, verdict, what, a, b, c, d, path in proof_probes.cases(max_size):
        seen.add((kind, verdict))
        if kind == "inclusion":  # leaf, index, size, root
            holds = audit.verify_inclusion(b, c, a, path, d)
        else:  # old size, old root, new size, new root
            holds = audit.verify_consistency(a, b, c, d, path)
        if holds == (verdict == "holds"):
            passed += 1
        else:
            failed += 1
            print(f"FAIL: {what}: audit.py says {'holds' if holds else 'fails'}, expected {verdict}", file=sys.stderr)
    # The generator itself must have produced every kind of case.
    for kind in ("inclusion", "consistency"):
        for verdict in ("holds", "fails", "unusable"):
            if (kind, verdict) not in seen:
                failed += 1
                print(f"FAIL: no {kind} case that {verdict}", file=sys.stderr)
    print(f"{passed} {failed}")


if __name__ == "__main__":
    main()
