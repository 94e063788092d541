// The tab's title and icon (static/js/tab.js): the turn's mark and a challenge's share one title,
// neither undoes the other, and the page's own title and icon return when both are gone.
import assert from "node:assert/strict";
import { test } from "node:test";

import { composeTitle, iconFor, tabOf } from "../../static/js/tab.js";

function fakeWindow(title, iconHref) {
  const link = { rel: "icon", href: iconHref, dataset: {} };
  const head = { appendChild() {} };
  const document = { title, head, querySelector: () => link, createElement: () => link };
  return { window: { document }, link };
}

test("the title carries the turn's mark and the challenge's text in front", () => {
  assert.equal(composeTitle("Match 42"), "Match 42");
  assert.equal(composeTitle("Match 42", { turn: true }), "● Match 42");
  assert.equal(composeTitle("Play", { challenge: "Challenge from ana" }), "⚔ Challenge from ana · Play");
  assert.equal(composeTitle("Match 42", { turn: true, challenge: "x" }), "● ⚔ x · Match 42");
  assert.equal(iconFor({}), "");
  assert.equal(iconFor({ challenge: "x" }), "challenge");
  assert.equal(iconFor({ turn: true, challenge: "x" }), "turn");
});

test("marks set and cleared in any order restore the page's own title and icon", () => {
  const { window, link } = fakeWindow("Match 42 · Long Nardy", "/static/favicon.svg");
  const tab = tabOf(window);
  assert.equal(tabOf(window), tab, "one tab per window, whoever marks it");
  tab.mark("challenge", "Challenge from ana");
  assert.equal(window.document.title, "⚔ Challenge from ana · Match 42 · Long Nardy");
  assert.equal(link.dataset.challenge, "1");
  assert.match(link.href, /^data:image\/svg\+xml,/);
  tab.mark("turn", true);
  assert.equal(window.document.title, "● ⚔ Challenge from ana · Match 42 · Long Nardy");
  assert.equal(link.dataset.turn, "1");
  tab.mark("challenge", null); // accepted elsewhere, declined, lapsed or withdrawn
  assert.equal(window.document.title, "● Match 42 · Long Nardy");
  assert.equal(link.dataset.challenge, "");
  tab.mark("turn", false);
  assert.equal(window.document.title, "Match 42 · Long Nardy");
  assert.equal(link.href, "/static/favicon.svg");
});
