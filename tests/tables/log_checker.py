"""An outside checker of Felt's public log, written from docs/fairness.md alone ("The
public log"): Python's standard library only, no Felt import. Run by
tests/tables/test_fairness_log.py as its own process:

    python log_checker.py EXPORT.jsonl HANDS.json OLD_HEAD.json CONSISTENCY.json

Each hand's seal and players' cut are checked with the cards its viewer saw ("The
seal", "The cut"), and its entry's inclusion in the log. It prints one line per
problem, or "ok: <n> hands, <size> entries", and exits 1 on any problem.
"""

import hashlib
import json
import sys


def sha(data):
    return hashlib.sha256(data).digest()


def tree_hash(leaves):
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return sha(b"\x01" + tree_hash(leaves[:k]) + tree_hash(leaves[k:]))


def included(leaf, index, size, path, root):
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = sha(b"\x01" + p + r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            r = sha(b"\x01" + r + p)
        fn, sn = fn // 2, sn // 2
    return sn == 0 and r == root


def consistent(first, second, first_root, second_root, path):
    if first == second:
        return not path and first_root == second_root
    if first & (first - 1) == 0:
        path = [first_root] + path
    fn, sn = first - 1, second - 1
    while fn % 2 == 1:
        fn, sn = fn // 2, sn // 2
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr, sr = sha(b"\x01" + c + fr), sha(b"\x01" + c + sr)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            sr = sha(b"\x01" + sr + c)
        fn, sn = fn // 2, sn // 2
    return sn == 0 and fr == first_root and sr == second_root


def permutation(seed, size=52):
    """The cut's order (docs/fairness.md, "The construction", steps 4 and 5)."""
    stream, counter = b"", 0
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        n = i + 1
        while True:
            if not stream:
                stream = sha(seed + counter.to_bytes(8, "big"))
                counter += 1
            b, stream = stream[0], stream[1:]
            if b < 256 - 256 % n:
                break
        order[i], order[b % n] = order[b % n], order[i]
    return order


def text_sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def deal_problems(hand):
    """The seal, the players' cut and the cards the viewer saw ("The seal", "The cut",
    "Checking a hand"), and that the log's entry carries the same seal and cut."""
    name, fairness = f"hand {hand['id']}", hand["fairness"]
    leaves, problems = fairness["leaves"], []
    if text_sha("".join(leaves)) != fairness["commitment"]:
        problems.append(f"{name}: the leaves do not hash to the commitment")
    cut = fairness.get("cut")
    order = list(range(52))
    if cut is not None:
        values = [c["value"] for c in cut["contributions"] if c["value"] is not None]
        for given in cut["contributions"]:
            value = given["value"]
            if value is not None:
                opened = text_sha(f"felt-cut-value:{cut['hand']}:{value}")
                if opened != given["commitment"]:
                    problems.append(f"{name}: a value does not open its commitment")
        text = "felt-cut-seed:" + fairness["commitment"] + "".join(":" + v for v in sorted(values))
        seed = sha(text.encode("utf-8"))
        order = permutation(seed)
        digest = text_sha("felt-cut-permutation:" + ",".join(str(p) for p in order))
        if seed.hex() != cut["seed"] or digest != cut["permutation_digest"]:
            problems.append(f"{name}: the cut's seed or permutation is not the seal's and values'")
        if cut["uncut"] != (not values):
            problems.append(f"{name}: 'uncut' is wrong")
    for shown in fairness["revealed"]:
        sealed = order[shown["position"]]
        if text_sha(f"{sealed}:{shown['card']}:{shown['salt']}") != leaves[sealed]:
            problems.append(f"{name}: {shown['card']} does not open sealed position {sealed}")
    seen = {shown["card"] for shown in fairness["revealed"]}
    mine = next(p["hole_cards"] for p in hand["players"] if p["seat"] == hand["viewer_seat"])
    if not set(hand["board"]) | set(mine) <= seen:
        problems.append(f"{name}: a card the viewer saw is not revealed")
    entry = json.loads(fairness["log"]["entry"])
    if entry.get("cut") != cut:
        problems.append(f"{name}: the log's entry has another cut")
    return problems


def read(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


def main(export, hands_file, old_head_file, consistency_file):
    problems = []
    lines = read(export).splitlines()
    head, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    leaves = [sha(b"\x00" + row["entry"].encode("utf-8")) for row in rows]
    for row, leaf in zip(rows, leaves, strict=True):
        if leaf.hex() != row["leaf_hash"]:
            problems.append(f"entry {row['index']}: its leaf hash is not sha256(0x00 || entry)")
    if len(rows) != head["tree_size"] or tree_hash(leaves).hex() != head["root_hash"]:
        problems.append("export: the entries do not hash to the head's root")
    hands = json.loads(read(hands_file))
    for hand in hands:
        problems += deal_problems(hand)
        log = hand["fairness"]["log"]
        entry = json.loads(log["entry"])
        if entry["hand"] != hand["id"] or entry["commitment"] != hand["fairness"]["commitment"]:
            problems.append(f"hand {hand['id']}: its entry is another hand's")
        leaf = sha(b"\x00" + log["entry"].encode("utf-8"))
        path = [bytes.fromhex(h) for h in log["inclusion_proof"]]
        root = bytes.fromhex(log["root_hash"])
        if not included(leaf, log["index"], log["tree_size"], path, root):
            problems.append(f"hand {hand['id']}: not included in the log it names")
    old = json.loads(read(old_head_file))
    proof = json.loads(read(consistency_file))
    roots = bytes.fromhex(old["root_hash"]), bytes.fromhex(head["root_hash"])
    path = [bytes.fromhex(h) for h in proof["proof"]]
    if not consistent(old["tree_size"], head["tree_size"], *roots, path):
        problems.append("the log does not extend the old head")
    for problem in problems:
        print(problem)
    if not problems:
        print(f"ok: {len(hands)} hands, {head['tree_size']} entries")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
