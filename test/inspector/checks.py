#!/usr/bin/env python3
"""The inspector's checks in headless Chromium (test/run-inspector.sh runs
them against five running inspectors: a reader, a reader of personal data,
an admin with --write and one without, and one over a router). Each check prints nothing when it holds and a
"FAIL: ..." line on stderr when it does not; the last line on stdout is
"PASSED FAILED"."""
import argparse
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

passed = 0
failed = 0


def check(description, holds, detail=""):
    global passed, failed
    if holds:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {description}{': ' + str(detail) if detail != '' else ''}", file=sys.stderr)


def sql(query, db=None):
    return subprocess.run(["psql", "-qXAt", "-v", "ON_ERROR_STOP=1", "-d", db or args.db, "-c", query],
                          check=True, capture_output=True, text=True).stdout.strip()


def subscriptions():
    return sql("SELECT string_agg(s::text, E'\\n' ORDER BY stream COLLATE \"C\") FROM act.subscriptions s")


def blocked():
    return sql("SELECT string_agg(stream, ',' ORDER BY stream COLLATE \"C\") FROM act.subscriptions WHERE blocked")


def request(url, method="GET", body=None, headers=None):
    """(status, headers, body text) of one HTTP request, errors included."""
    data = body.encode() if isinstance(body, str) else body
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def seed():
    sql("""SELECT count(*) FROM act.commit('orders-1',
             '[{"name":"Placed","data":{"total":12.50},"pii":{"email":"ann@example.com"}}]', '{"correlation":"c-1"}')""")
    sql("""SELECT count(*) FROM act.commit('orders-1', '[{"name":"Shipped","data":{"carrier":"post"}}]',
             '{"correlation":"c-1"}')""")
    sql("""SELECT count(*) FROM act.commit('orders-2', '[{"name":"Placed","data":{"total":3}}]', '{"correlation":"c-2"}')""")
    sql("""SELECT count(*) FROM act.commit('customers-9', '[{"name":"Registered","data":{}}]')""")
    # A reaction's action: caused by the order placed, in its correlation.
    sql("""SELECT count(*) FROM act.commit('mailer-1', '[{"name":"MailSent","data":{}}]',
             jsonb_build_object('correlation', 'c-1', 'causation', jsonb_build_object('event',
               (SELECT jsonb_build_object('id', id, 'name', name, 'stream', stream) FROM act.events
                WHERE stream = 'orders-1' AND version = 0))))""")
    sql("""SELECT count(*) FROM act.subscribe('[{"stream":"mail-a","source":"orders-1"},
             {"stream":"mail-b","source":"orders-1"},{"stream":"mail-c","source":"orders-2"},
             {"stream":"stats","lane":"slow"}]')""")
    sql("SELECT count(*) FROM act.claim(10, 0, 'w1', 600000)")
    sql("""SELECT count(*) FROM act.block('[{"stream":"mail-a","by":"w1","error":"smtp refused"},
             {"stream":"mail-b","by":"w1","error":"smtp refused"},{"stream":"mail-c","by":"w1","error":"bad address"}]')""")


class Browser:
    def __init__(self):
        options = Options()
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900"):
            options.add_argument(flag)
        options.binary_location = "/usr/bin/chromium"
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_page_load_timeout(30)

    def open(self, url, ready, shot=None):
        """Loads url and waits until the CSS selector `ready` (or #error) is present."""
        self.driver.get(url)
        WebDriverWait(self.driver, 20).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, ready) or d.find_elements(By.CSS_SELECTOR, "#error"))
        if shot and args.screenshots:
            self.driver.save_screenshot(os.path.join(args.screenshots, shot + ".png"))

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def text(self, css):
        found = self.driver.find_elements(By.CSS_SELECTOR, css)
        return found[0].text if found else None

    def column(self, table_css, header):
        """The cells of one column of a table, by its header's text."""
        return self.js("""const table = document.querySelector(arguments[0]); if (!table) return [];
            const i = [...table.querySelectorAll('thead th')].map(h => h.textContent).indexOf(arguments[1]);
            return [...table.querySelectorAll('tbody tr')].map(r => r.children[i].textContent);""", table_css, header)

    def cards(self):
        return dict(self.js("""return [...document.querySelectorAll('.card')].map(
            c => [c.querySelector('.label').textContent, c.querySelector('.value').textContent]);"""))

    def post_from_page(self, path, body):
        """POSTs from the page as its own script would, token included: (status, body)."""
        return self.driver.execute_async_script("""const done = arguments[arguments.length - 1];
            fetch(arguments[0], {method: 'POST', headers: {'Content-Type': 'application/json',
              'X-Inspector-Token': (inspector.session && inspector.session.token) || ''}, body: JSON.stringify(arguments[1])})
            .then(async r => done([r.status, await r.text()])).catch(e => done([0, String(e)]));""", path, body)


def overview(browser):
    browser.open(args.reader + "/", "#figures", "overview")
    cards = browser.cards()
    check("overview: mode is the store's", cards.get("mode") == sql("SELECT mode FROM act.status()"), cards)
    check("overview: subscriptions counted", cards.get("subscriptions") == "4", cards)
    check("overview: blocked counted", cards.get("blocked") == "3", cards)
    check("overview: newest event id", cards.get("newest event id") == sql("SELECT act.max_event_id()"), cards)
    check("overview: sealed tree size shown", "sealed tree size" in cards, cards)
    check("overview: no checkpoint yet", cards.get("last checkpoint") == "none yet", cards)
    sql("SELECT act.checkpoint()")
    size = sql("SELECT max(size) FROM act.checkpoints")
    WebDriverWait(browser.driver, 10).until(lambda d: browser.cards().get("last checkpoint", "").startswith("size "))
    check("overview: the last checkpoint, live", browser.cards().get("last checkpoint", "").startswith(f"size {size} "),
          browser.cards())


def log(browser):
    browser.open(args.reader + "/log", "table, #empty", "log")
    ids = browser.column("table", "id")
    stored = sql("SELECT string_agg(id::text, ',' ORDER BY id DESC) FROM act.events").split(",")
    check("log: every event, newest first", ids == stored, f"{ids} != {stored}")
    for query, want, count, what in [("stream=orders-1", "orders-1$", 2, "an exact stream"),
                                     ("stream=%5Eorders-&regex=1", "orders-", 3, "a stream pattern")]:
        browser.open(f"{args.reader}/log?{query}", "table, #empty")
        streams = browser.column("table", "stream")
        check(f"log: filtered by {what}", len(streams) == count and all(re.match(want, s) for s in streams), streams)
    browser.open(f"{args.reader}/log?name=Placed", "table")
    check("log: filtered by an event name", browser.column("table", "name") == ["Placed", "Placed"],
          browser.column("table", "name"))
    browser.open(f"{args.reader}/log?correlation=c-2", "table")
    check("log: filtered by correlation", browser.column("table", "stream") == ["orders-2"], browser.column("table", "stream"))
    # The form puts its filters in the URL.
    browser.open(args.reader + "/log", "table")
    field = browser.driver.find_element(By.CSS_SELECTOR, "input[name=stream]")
    field.send_keys("customers-9")
    field.submit()
    WebDriverWait(browser.driver, 10).until(lambda d: "stream=customers-9" in d.current_url)
    browser.open(browser.driver.current_url, "table, #empty")
    check("log: the form's filter is kept in the URL", browser.column("table", "stream") == ["customers-9"],
          browser.driver.current_url)
    # Paging by id.
    browser.open(f"{args.reader}/log?limit=2", "table")
    first = browser.column("table", "id")
    browser.driver.find_element(By.ID, "older").click()
    WebDriverWait(browser.driver, 10).until(lambda d: "before=" in d.current_url)
    browser.open(browser.driver.current_url, "table")
    second = browser.column("table", "id")
    check("log: the older page follows the newest", first == stored[:2] and second == stored[2:4], f"{first} then {second}")
    # JSON folded: the summary holds the stored text, the body its pretty form.
    browser.open(f"{args.reader}/log?stream=orders-1&name=Placed", "table")
    check("log: data folded as stored", browser.text("table details summary") == '{"total": 12.50}',
          browser.text("table details summary"))
    # A filter no index serves reads a window of the log a request: pages
    # that say how far down they looked, whose "older" links still reach
    # every match.
    placed = sql("SELECT string_agg(id::text, ',' ORDER BY id DESC) FROM act.events WHERE name = 'Placed'").split(",")
    found, before, windows, bounded = [], None, 0, True
    while windows < 100:
        _, _, body = request(f"{args.reader}/api/log?name=Placed&window=2" + (f"&before={before}" if before else ""))
        page = json.loads(body)
        windows += 1
        found += [str(e["id"]) for e in page["events"]]
        bounded = bounded and (page["scanned_from"] is None or
                               all(e["id"] >= page["scanned_from"] for e in page["events"]))
        before = page["next_before"]
        if before is None:
            break
    check("log: a window of 2 events a request still reaches every match, in order",
          found == placed and windows > 2, f"{found} in {windows} requests, want {placed}")
    check("log: a windowed page holds only events of its window", bounded)
    browser.open(f"{args.reader}/log?name=Registered&window=1", "table, #empty")
    check("log: a page that stopped at its window says where", "down to id" in (browser.text("#scanned") or ""),
          browser.text("#scanned"))
    browser.open(f"{args.reader}/log?limit=0", "table, #error")
    check("log: a bad limit is refused, naming it", "limit" in (browser.text("#error") or ""), browser.text("#error"))


def correlation(browser):
    browser.open(args.reader + "/log?stream=mailer-1", "table")
    browser.driver.find_element(By.LINK_TEXT, "c-1").click()
    WebDriverWait(browser.driver, 10).until(lambda d: d.find_elements(By.ID, "tree"))
    if args.screenshots:
        browser.driver.save_screenshot(os.path.join(args.screenshots, "correlation.png"))
    placed, shipped, sent = (sql(f"SELECT id FROM act.events WHERE stream = '{s}' AND version = {v}")
                             for s, v in (("orders-1", 0), ("orders-1", 1), ("mailer-1", 0)))
    roots = browser.js("return [...document.querySelectorAll('#tree > li')].map(li => li.dataset.id)")
    check("correlation: the events without a cause among them start trees", roots == [placed, shipped], roots)
    nested = browser.js(f"return document.querySelector('#tree li[data-id=\"{placed}\"] li[data-id=\"{sent}\"] .after')")
    check("correlation: a reaction's event under its cause, with the time between",
          nested is not None and re.fullmatch(r"\+\d+ ms after its cause", nested.text), nested and nested.text)
    check("correlation: no absent part shown as text", not re.search(r"^null$", browser.text("main"), re.M),
          browser.text("main"))
    browser.open(args.reader + "/correlation/c-2", "#tree")
    check("correlation: only its own events", browser.js("return document.querySelectorAll('#tree li').length") == 1)


def personal_data(browser):
    browser.open(f"{args.reader}/log?stream=orders-1", "table")
    check("pii: hidden from a reader", "ann@example.com" not in browser.driver.page_source)
    status, _, body = request(f"{args.reader}/api/log?stream=orders-1")
    check("pii: not sent to a reader", status == 200 and "ann@example.com" not in body, body)
    browser.open(f"{args.pii}/log?stream=orders-1", "table")
    check("pii: shown to a reader of personal data", "ann@example.com" in browser.driver.page_source)


def stream(browser):
    browser.open(args.reader + "/streams/orders-1", "#chain", "stream")
    cards = browser.cards()
    check("stream: its version", cards.get("version") == "1", cards)
    check("stream: its chain verifies", cards.get("hash chain", "").startswith("valid (2 events"), cards)
    check("stream: its events", browser.column("table", "name")[:2] == ["Shipped", "Placed"], browser.column("table", "name"))
    readers = browser.column("table:last-of-type", "subscription")
    check("stream: the subscriptions that read it", sorted(readers) == ["mail-a", "mail-b", "stats"], readers)
    sql("SELECT count(*) FROM act.truncate('[{\"stream\":\"customers-9\"}]')")
    browser.open(args.reader + "/streams/customers-9", "#chain")
    check("stream: a closed stream says so", browser.cards().get("closed") == "yes (tombstone)", browser.cards())


def work(browser):
    browser.open(args.reader + "/work", "#work", "work")
    rows = browser.column("#work", "subscription")
    check("work: every subscription", rows == ["mail-a", "mail-b", "mail-c", "stats"], rows)
    check("work: the lease holder", set(browser.column("#work", "leased by")) == {"w1"}, browser.column("#work", "leased by"))
    check("work: the error", browser.column("#work", "error")[2] == "bad address", browser.column("#work", "error"))
    browser.open(args.reader + "/work?blocked=1", "#work")
    check("work: blocked only", browser.column("#work", "subscription") == ["mail-a", "mail-b", "mail-c"],
          browser.column("#work", "subscription"))
    browser.open(args.reader + "/work?lane=slow", "#work")
    check("work: by lane", browser.column("#work", "subscription") == ["stats"], browser.column("#work", "subscription"))
    check("work: no actions without --write", not browser.driver.find_elements(By.ID, "do-unblock"))
    check("work: no absent part shown as text", not re.search(r"^null$", browser.text("main"), re.M), browser.text("main"))


def read_only(browser):
    before = subscriptions()
    browser.open(args.read_only + "/work", "#work")
    check("read-only: no actions offered to an admin without --write", not browser.driver.find_elements(By.ID, "do-unblock"))
    status, body = browser.post_from_page("/api/actions/unblock", {"streams": ["mail-a"], "confirmed": 1})
    check("read-only: an action is refused", status == 403 and "read-only" in body, (status, body))
    for method in ("PUT", "DELETE"):
        code, _, _ = request(args.read_only + "/api/actions/unblock", method=method)
        check(f"read-only: {method} is refused", code == 403, code)
    check("read-only: nothing changed", subscriptions() == before)


def batch_unblock(browser):
    browser.open(args.admin + "/work?blocked=1", "#work")
    for stream in ("mail-a", "mail-b"):
        browser.driver.find_element(By.CSS_SELECTOR, f"input.pick[value='{stream}']").click()
    browser.driver.find_element(By.ID, "do-unblock").click()
    WebDriverWait(browser.driver, 10).until(lambda d: d.find_elements(By.ID, "dry-count"))
    if args.screenshots:
        browser.driver.save_screenshot(os.path.join(args.screenshots, "work-confirm.png"))
    check("unblock: the dry run counts the selected rows", browser.text("#dry-count") == "2", browser.text("#dry-count"))
    check("unblock: the dry run changed nothing", blocked() == "mail-a,mail-b,mail-c", blocked())
    browser.driver.find_element(By.ID, "confirm").click()
    WebDriverWait(browser.driver, 10).until(lambda d: d.find_elements(By.ID, "note"))
    check("unblock: the page says what changed", "unblock: 2 subscriptions changed" in browser.text("#note"),
          browser.text("#note"))
    check("unblock: exactly the confirmed rows", blocked() == "mail-c", blocked())
    audit = sql("SELECT data FROM act.events WHERE stream = 'actctl-audit'")
    check("unblock: an audit event", audit and json.loads(audit).get("changed") == 2 and
          json.loads(audit).get("streams") == ["mail-a", "mail-b"], audit)
    with open(args.admin_log) as log_file:
        check("unblock: an audit line", '"action":"unblock"' in log_file.read())
    # A dry run that no longer holds: nothing is applied.
    browser.open(args.admin + "/work", "#work")
    status, body = browser.post_from_page("/api/actions/unblock", {"streams": ["mail-c"], "confirmed": 0})
    check("unblock: a stale confirmation is refused", status == 400 and "confirmed" in body, (status, body))
    check("unblock: a stale confirmation changes nothing", blocked() == "mail-c", blocked())
    status, body = browser.post_from_page("/api/actions/unblock", {"streams": ["mail-c"], "confirmed": 1, "why": 1})
    check("unblock: an unknown key is refused, naming it", status == 400 and '\\"why\\"' in body, (status, body))


def forged(browser):
    status, headers, body = request(args.admin + "/api/session")
    token = json.loads(body)["token"]
    check("csrf: no other origin may read the token", "Access-Control-Allow-Origin" not in headers, dict(headers))
    url = args.admin + "/api/actions/unblock"
    action = json.dumps({"streams": ["mail-c"], "confirmed": 1})
    good = {"Content-Type": "application/json", "Origin": args.admin, "X-Inspector-Token": token}
    forgeries = {
        "another origin": {**good, "Origin": "http://evil.example"},
        "a wrong token": {**good, "X-Inspector-Token": "0" * len(token)},
        "no token": {k: v for k, v in good.items() if k != "X-Inspector-Token"},
        "neither Origin nor Referer": {k: v for k, v in good.items() if k != "Origin"},
        "a form's content type": {**good, "Content-Type": "application/x-www-form-urlencoded"},
        "another site's Referer": {k: v for k, v in {**good, "Referer": "http://evil.example/x"}.items() if k != "Origin"},
    }
    for what, headers in forgeries.items():
        code, _, answer = request(url, "POST", action, headers)
        check(f"csrf: {what} is refused", code == 403, (code, answer))
    code, _, _ = request(args.admin + "/api/session", headers={"Host": "evil.example"})
    check("csrf: a foreign Host name is refused", code == 403, code)
    check("csrf: forgeries changed nothing", blocked() == "mail-c", blocked())
    # The same request with everything right is applied: the refusals above are the forgeries' doing.
    code, _, answer = request(url, "POST", action, good)
    check("csrf: the genuine request is applied", code == 200 and blocked() is not None and blocked() == "", (code, answer))


def verify(browser):
    browser.open(args.reader + "/verify", "#verdict", "verify")
    size = sql("SELECT max(size) FROM act.checkpoints")
    check("verify: the log verifies", browser.text("#verdict").startswith("Entries 0 to ") and
          browser.text("#verdict").endswith(" verify"), browser.text("#verdict"))
    check("verify: the checkpoints kept", browser.column("table", "tree size") == [size], browser.column("table", "tree size"))
    # An inclusion proof, checked by the server and again by the page's own code.
    # The first entry: its path is all right-hand siblings (the last entry's, all left-hand ones).
    first = sql("SELECT id FROM act.log_entries(0, 1)")
    browser.open(args.reader + "/verify?proof=" + first, "#proof-browser, #proof-error", "verify-proof")
    check("verify: the server's proof holds", browser.text("#proof-server") == "server: holds",
          (browser.text("#proof-server"), browser.text("#proof-error")))
    check("verify: the browser checks the proof itself", browser.text("#proof-browser") == "browser: holds",
          browser.text("#proof-browser"))
    _, _, body = request(args.reader + "/api/verify/proof?id=" + first)
    proof = json.loads(body)
    wrong_root = ("0" if proof["root"][0] != "0" else "1") + proof["root"][1:]
    judged = browser.driver.execute_async_script("""const done = arguments[arguments.length - 1];
        const [p, root] = [arguments[0], arguments[1]];
        Promise.all([inspector.checkInclusion(p.entry, p.leaf_index, p.tree_size, p.path, p.root),
                     inspector.checkInclusion(p.entry, p.leaf_index, p.tree_size, p.path, root),
                     inspector.checkInclusion(p.entry, p.leaf_index + 1, p.tree_size, p.path, p.root)])
          .then(done).catch(e => done(String(e)));""", proof, wrong_root)
    check("verify: the page's check refuses another root and another position", judged == [True, False, False], judged)
    beyond = str(int(sql("SELECT max(id) FROM act.events")) + 1000)
    browser.open(args.reader + "/verify?proof=" + beyond, "#proof-error, #proof-browser")
    check("verify: an event beyond the tree is refused, naming it", browser.text("#proof-error") is not None and
          beyond in browser.text("#proof-error"), browser.text("#proof-error") or browser.text("#proof-browser"))
    tampered = sql("SELECT id FROM act.events WHERE stream = 'orders-2'")
    sql("UPDATE act.events SET data = '{\"total\": 300}' WHERE stream = 'orders-2'")
    browser.open(args.reader + "/verify", "#verdict", "verify-tampered")
    check("verify: a tampered event shows", browser.column("#problems", "event") == [tampered],
          (browser.text("#verdict"), browser.column("#problems", "event")))
    browser.open(args.reader + "/streams/orders-2", "#chain")
    check("verify: its stream's chain shows broken", browser.cards().get("hash chain") == "broken at version 0",
          browser.cards())
    browser.open(args.reader + "/verify?from=3&to=1", "#error")
    check("verify: a range backwards is refused, naming it", "from" in (browser.text("#error") or ""), browser.text("#error"))


def actctl(*arguments):
    return subprocess.run([args.actctl, *arguments], check=True, capture_output=True, text=True, timeout=60).stdout.strip()


def witnessed(browser):
    """A checkpoint signed with the log's key and cosigned by a witness: /verify
    shows each signature line with its own fields, checked against act.log_keys."""
    origin, witness = "pg_act/" + args.db, "w1.example/witness"
    keys = {name: os.path.join(args.work, name + ".pem") for name in ("log", "w1")}
    for pem in keys.values():
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", pem], check=True, capture_output=True)
    log_vkey = actctl("log", "vkey", "--key", keys["log"], "--name", origin)
    for vkey in (log_vkey, actctl("witness", "vkey", "--key", keys["w1"], "--name", witness)):
        sql(f"SELECT act.register_log_key('{vkey}')")
    sql("""SELECT count(*) FROM act.commit('witnessed-1', '[{"name":"Noted","data":{}}]')""")
    actctl("--dsn", "dbname=" + args.db, "log", "checkpoint", "--sign", keys["log"])
    out = os.path.join(args.work, "w1.out")
    with open(out, "w") as stdout:
        server = subprocess.Popen([args.actctl, "witness", "serve", "--key", keys["w1"], "--name", witness,
                                   "--state", os.path.join(args.work, "state-w1"), "--log", log_vkey,
                                   "--listen", "127.0.0.1:0"], stdout=stdout, stderr=subprocess.DEVNULL)
    try:
        WebDriverWait(browser.driver, 10).until(lambda d: "listening on " in open(out).read())
        url = re.search(r"^listening on (\S+)", open(out).read(), re.M).group(1)
        actctl("--dsn", "dbname=" + args.db, "log", "witness", "--witness", url)
    finally:
        server.terminate()
        server.wait(timeout=10)
    browser.open(args.reader + "/verify", "li.signature", "verify-witnessed")
    newest = browser.driver.find_element(By.CSS_SELECTOR, "#checkpoints tbody tr")
    lines = {(li.get_attribute("data-kind"), li.get_attribute("data-name")): li.text
             for li in newest.find_elements(By.CSS_SELECTOR, "li.signature")}
    check("verify: the log's signature on the newest checkpoint, verified",
          lines.get(("signature", origin), "").endswith(": verifies"), lines)
    cosigned = lines.get(("cosignature", witness), "")
    check("verify: the witness's cosignature as a line of its own, with its time, verified",
          re.fullmatch(r"witness \S+ \(key [0-9a-f]{8}\), cosigned \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: verifies", cosigned),
          lines)


def partitions(browser):
    """A router of two partitions: partition 0 a database with pg_act, partition 1 an address where nothing listens."""
    def on_partition(query):
        return sql(query, args.partition_db)
    streams = on_partition("SELECT string_agg(s, ',') FROM (SELECT format('p0-%s', g) AS s FROM generate_series(1, 40) AS g) AS n "
                           "WHERE act.partition_of(s, 2) = 0")
    for name in streams.split(",")[:3]:
        on_partition(f"""SELECT count(*) FROM act.commit('{name}', '[{{"name":"Noted","data":{{}}}}]')""")
    on_partition("""SELECT count(*) FROM act.subscribe('[{"stream":"p0-mailer"}]')""")
    browser.open(args.router + "/partitions", "#partitions", "partitions")
    check("partitions: one row per partition", browser.column("#partitions", "partition") == ["0", "1"],
          browser.column("#partitions", "partition"))
    check("partitions: 0 up, 1 down", browser.column("#partitions", "state") == ["up", "down"],
          browser.column("#partitions", "state"))
    errors = browser.column("#partitions", "error")
    check("partitions: the down one's error, naming its address", len(errors) == 2 and errors[0] == "" and
          args.down_address in errors[1], errors)
    figures = {header: browser.column("#partitions", header)[0]
               for header in ("mode", "horizon", "newest event id", "subscriptions")}
    direct = dict(zip(("mode", "horizon", "newest event id", "subscriptions"),
                      on_partition("SELECT concat_ws('|', mode, horizon, max_event_id, subscriptions) FROM act.status()")
                      .split("|")))
    check("partitions: partition 0's figures are its own act.status()", figures == direct, (figures, direct))
    check("partitions: no figures for the one down", browser.column("#partitions", "horizon")[1:] == [""],
          browser.column("#partitions", "horizon"))
    check("partitions: the nav link shown on a router",
          browser.js("return document.querySelector('nav a[data-view=partitions]').hidden") is False)
    on_partition(f"""SELECT count(*) FROM act.commit('{streams.split(",")[0]}', '[{{"name":"Noted","data":{{}}}}]')""")
    newest = on_partition("SELECT act.max_event_id()")
    try:
        WebDriverWait(browser.driver, 10).until(lambda d: browser.column("#partitions", "newest event id")[:1] == [newest])
    except TimeoutException:
        pass  # the check below says what was shown
    check("partitions: read again, live", browser.column("#partitions", "newest event id")[:1] == [newest],
          browser.column("#partitions", "newest event id"))
    # The other views need pg_act's own functions, which a router has not: they point here.
    browser.open(args.router + "/", "#router, #figures")
    check("partitions: a router's overview points to /partitions",
          browser.driver.find_elements(By.CSS_SELECTOR, "#router a[href='/partitions']") != [], browser.text("main"))
    code, _, body = request(args.router + "/api/status")
    check("partitions: a router refuses the overview's read, naming /partitions",
          code == 409 and "/partitions" in json.loads(body)["error"], (code, body))
    code, _, body = request(args.router + "/metrics")
    check("partitions: /metrics on a router, each partition up or not", code == 200 and
          re.search(r'^pg_act_partition_up\{partition="1"\} 0$', body, re.M), (code, body[:400]))
    # A store that is not a router says so.
    browser.open(args.reader + "/partitions", "#not-router, #partitions")
    check("partitions: a store that is not a router says so",
          "not a pg_act router" in (browser.text("#not-router") or ""), browser.text("main"))
    check("partitions: no nav link on a store that is not a router",
          browser.js("return document.querySelector('nav a[data-view=partitions]').hidden") is True)
    code, _, body = request(args.reader + "/api/partitions")
    check("partitions: /api/partitions refused on a store that is not a router", code == 409, (code, body))


def metrics():
    status, headers, body = request(args.reader + "/metrics")
    check("metrics: Prometheus text", status == 200 and headers.get("Content-Type", "").startswith("text/plain"), status)
    check("metrics: the subscriptions", re.search(r"^pg_act_subscriptions 4$", body, re.M), body)
    code, _, out = request(args.reader + "/api/actions/unblock/preview?stream=mail-c")
    check("preview: allowed to a reader (it changes nothing)", code == 200 and json.loads(out)["count"] == 0, out)


parser = argparse.ArgumentParser()
for option in ("--db", "--reader", "--pii", "--admin", "--read-only", "--admin-log", "--actctl", "--work", "--router",
               "--partition-db", "--down-address"):
    parser.add_argument(option, required=True)
parser.add_argument("--screenshots")
args = parser.parse_args()
seed()
browser = Browser()
try:
    for run in (overview, log, correlation, personal_data, stream, work, read_only, batch_unblock, forged, verify, witnessed,
                partitions):
        try:
            run(browser)
        except Exception as e:  # a step that breaks fails once and the next runs
            check(f"{run.__name__}: ran to its end", False, repr(e))
    metrics()
finally:
    browser.driver.quit()
print(f"{passed} {failed}")
