// The chat panel's pure parts (static/js/match/chat.js): merging a snapshot with live messages,
// and the text a message shows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chatOpen, mergeMessages, messageText } from "../../static/js/match/chat.js";
import { DEFAULT_STRINGS } from "../../static/js/match/strings.js";
import { translator } from "../../static/js/strings.js";

const t = translator(DEFAULT_STRINGS, { phrase_good_game: "Хорошая игра!" });
const message = (id, text = `m${id}`) => ({ id, room: "players", user: "ana", text, phrase: null });

test("a snapshot replaces what it covers and keeps the live messages after it", () => {
  const live = [message(1), message(2, "hidden since"), message(5)];
  const merged = mergeMessages(live, [message(1), message(3)]);
  assert.deepEqual(merged.map((m) => m.id), [1, 3, 5]); // 2 is gone (a block or mute), 5 is newer
});

test("an empty snapshot keeps only what came after nothing: everything live", () => {
  assert.deepEqual(mergeMessages([message(4)], []).map((m) => m.id), [4]);
});

test("a quick phrase shows in the reader's language; a text as it was typed", () => {
  assert.equal(messageText({ phrase: "good_game", text: "" }, t), "Хорошая игра!");
  assert.equal(messageText({ phrase: null, text: "<b>hi</b>" }, t), "<b>hi</b>");
});

test("no chat before the match starts: an open or cancelled challenge has none", () => {
  assert.deepEqual(
    ["open", "cancelled", "active", "finished", "aborted"].map(chatOpen),
    [false, false, true, true, true],
  );
  assert.equal(t("chat_not_started"), "The chat opens when the match starts.");
});
