"""Drive the static harness pages: python tests/e2e/harness/drive.py PORT OUTDIR"""

import sys

from playwright.sync_api import sync_playwright

port, out = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}/tests/e2e/harness"
errors = []


def page_for(browser, scenario, width=1280, height=800, extra=""):
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=width < 500, has_touch=width < 500
    )
    page = ctx.new_page()
    page.on(
        "console", lambda m: errors.append(f"{scenario}: {m.text}") if m.type == "error" else None
    )
    page.on("pageerror", lambda e: errors.append(f"{scenario}: {e}"))
    page.goto(f"{base}/match.html?scenario={scenario}{extra}")
    page.wait_for_selector("#match-app[data-version='12']")
    return page


with sync_playwright() as p:
    browser = p.chromium.launch(
        executable_path="/usr/bin/chromium",
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    )
    for sc in [
        "white_move",
        "black_move",
        "white_roll",
        "spectator",
        "bear_off",
        "finished",
        "open",
    ]:
        page = page_for(browser, sc)
        page.screenshot(path=f"{out}/{sc}-desktop.png", full_page=True)
        print(
            sc,
            "status:",
            page.text_content("#status"),
            "| phase",
            page.get_attribute("#match-app", "data-phase"),
            "| result",
            page.get_attribute("#match-app", "data-result"),
        )
        page.context.close()
        page = page_for(browser, sc, 375, 740)
        sw = page.evaluate("document.documentElement.scrollWidth")
        print("  phone scrollWidth", sw)
        page.screenshot(path=f"{out}/{sc}-phone.png", full_page=True)
        page.context.close()

    # Two-click move, optimistic then confirmed.
    page = page_for(browser, "white_move")
    srcs = page.eval_on_selector_all(
        "[data-point].legal-source", "els => els.map(e => e.dataset.point)"
    )
    print("sources", srcs)
    page.click("[data-point='24'].legal-source")
    dests = page.eval_on_selector_all(".legal-destination", "els => els.map(e => e.dataset.point)")
    print("dests of 24", dests)
    page.screenshot(path=f"{out}/selected.png")
    page.click(".legal-destination")
    page.wait_for_selector("#match-app[data-version='13']")
    print("sent", [m for m in page.evaluate("window.fakeServer.sent")])
    print("board 20 (index 20)", page.evaluate("window.matchApp.view.game.board[20]"))
    page.context.close()

    # Error reverts the optimistic step.
    page = page_for(browser, "white_move")
    page.evaluate("window.fakeServer.rejectSteps = true")
    page.click("[data-point='19'].legal-source")
    page.click(".legal-destination")
    print("optimistic board[15]", page.evaluate("window.matchApp.view.game.board[15]"))
    page.wait_for_selector("#toast:not([hidden])")
    page.wait_for_timeout(300)
    print(
        "after error board[15]",
        page.evaluate("window.matchApp.view.game.board[15]"),
        "toast",
        page.text_content("#toast"),
    )
    page.context.close()

    # Black: drag and drop 24 -> 18 (own numbering).
    page = page_for(browser, "black_move")
    src = page.locator("[data-point='24'].legal-source circle.checker.top")
    box = src.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 30, box["y"] + 40, steps=5)
    dst = page.locator("[data-point='18'].legal-destination").bounding_box()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.screenshot(path=f"{out}/dragging.png")
    page.mouse.up()
    page.wait_for_selector("#match-app[data-version='13']")
    print("black drag sent", page.evaluate("window.fakeServer.sent"))
    page.context.close()

    # Bear off via tray; pick larger die when same src/dst.
    page = page_for(browser, "bear_off")
    page.click("[data-point='6'].legal-source")
    print(
        "bear-off dests",
        page.eval_on_selector_all(".legal-destination", "els => els.map(e => e.dataset.point)"),
    )
    page.screenshot(path=f"{out}/bearoff-selected.png")
    page.click("[data-point='0'].legal-destination")
    page.wait_for_selector("#match-app[data-version='13']")
    print("bear-off sent", page.evaluate("window.fakeServer.sent"))
    page.context.close()

    # Roll via space; gap in versions asks for a snapshot; passed turn; close codes.
    page = page_for(browser, "white_roll", extra="&auto=0")
    page.keyboard.press("Space")
    print("roll sent", page.evaluate("window.fakeServer.sent"))
    page.evaluate(
        """() => { const s = window.matchApp.confirmed; window.fakeServer.push({type: 'event', version: 15, kind: 'rolled', detail: {}, state: s}); }"""
    )
    print("after gap sent", page.evaluate("window.fakeServer.sent.map(m => m.type)"))
    page.evaluate(
        """() => { const s = window.matchApp.confirmed; window.fakeServer.push({type: 'event', version: 13, kind: 'turn', detail: {side: 'w', dice: [6, 6], steps: [], passed: true}, state: s}); }"""
    )
    print(
        "toast",
        page.text_content("#toast"),
        "version",
        page.get_attribute("#match-app", "data-version"),
    )
    page.evaluate(
        "window.fakeServer.push({type: 'presence', presence: {'0': true, '1': true}, spectators: 7})"
    )
    print("spectators", page.text_content("#spectators"))
    page.evaluate("window.fakeServer.drop(4001)")
    print("after 4001", page.text_content("#status"))
    page.context.close()

    page = page_for(browser, "white_move")
    page.evaluate("window.fakeServer.drop(1006)")
    print("after 1006", page.text_content("#status"))
    page.wait_for_selector("#match-app[data-version='12']")
    page.wait_for_timeout(1500)
    print(
        "after reconnect",
        page.text_content("#status"),
        "sockets",
        page.evaluate("window.fakeServer.sockets.length"),
    )
    page.context.close()
    # Replay page.
    for w, h in [(1280, 800), (375, 740)]:
        ctx = browser.new_context(viewport={"width": w, "height": h})
        page = ctx.new_page()
        page.on(
            "console", lambda m: errors.append(f"replay: {m.text}") if m.type == "error" else None
        )
        page.on("pageerror", lambda e: errors.append(f"replay: {e}"))
        page.goto(f"{base}/replay.html")
        page.wait_for_selector("#replay-app[data-ready='1']")
        page.click("#replay-forward")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        print(
            "replay game/turn",
            page.get_attribute("#replay-app", "data-game"),
            page.get_attribute("#replay-app", "data-turn"),
            page.text_content("#replay-position"),
        )
        page.screenshot(path=f"{out}/replay-{w}.png", full_page=True)
        page.click("#replay-last")
        print(
            "last",
            page.get_attribute("#replay-app", "data-turn"),
            page.text_content("#replay-result"),
        )
        page.screenshot(path=f"{out}/replay-end-{w}.png")
        page.select_option("#replay-game", "1")
        page.click("#moves li[data-k='5']")
        print(
            "game 2 turn",
            page.get_attribute("#replay-app", "data-game"),
            page.get_attribute("#replay-app", "data-turn"),
        )
        page.click("#flip-button")
        page.keyboard.press("ArrowLeft")
        print(
            "after left",
            page.get_attribute("#replay-app", "data-turn"),
            "scrollWidth",
            page.evaluate("document.documentElement.scrollWidth"),
        )
        ctx.close()
    browser.close()

print("console errors:", errors)
