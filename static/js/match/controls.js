// The match page's buttons: which are shown and enabled (buttonStates, pure), drawing that
// (showButtons) and wiring clicks and the space bar to the page's actions (bindControls).
import { rematchOffer } from "./strings.js";

/**
 * {buttonId: {visible, enabled, text?}} for a MatchModel, given whether a command is in flight
 * (`pending`) and whether the socket is usable (`live`).
 */
export function buttonStates(model, t, { pending, live, flipped }) {
  const v = model.view;
  const m = v.match;
  const g = v.game;
  const player = model.mySeat() !== null;
  const active = m.status === "active";
  const myTurn = model.isMyTurn();
  const offer = rematchOffer(model, t);
  const cube = (g && g.cube) || null;
  const cubeOffered = !!cube && cube.offered_by !== null && cube.offered_by !== undefined;
  const answering = player && active && cubeOffered && cube.offered_by !== model.mySeat();
  const states = {
    "roll-button": { visible: player && active && myTurn && !!g && g.phase === "roll" && !cubeOffered, enabled: !pending },
    "double-button": { visible: player && active && myTurn && !!cube && !!cube.may_double, enabled: !pending },
    "take-button": { visible: answering, enabled: !pending },
    "drop-button": { visible: answering, enabled: !pending },
    "confirm-button": { visible: player && active && model.awaitingConfirm(), enabled: !pending },
    "undo-button": {
      visible: player && active && myTurn && !!g && g.phase === "move" && !!g.can_undo && (g.steps || []).length > 0,
      enabled: !pending,
    },
    // Until each player has made a first move the match can be called off without a result.
    "abort-button": { visible: player && active && !!m.abortable, enabled: !pending },
    // One way out (docs/rules.md: leaving the table is resigning); its confirmation says so.
    "resign-button": { visible: player && active, enabled: true },
    "rematch-button": { visible: offer.visible, enabled: offer.enabled, text: offer.text },
    "decline-button": { visible: offer.declineVisible, enabled: true, text: offer.declineText },
  };
  for (const state of Object.values(states)) state.enabled = state.enabled && live;
  // Spectators may turn the board round; a player always sees it from their own side.
  states["flip-button"] = { visible: !player, enabled: true, pressed: !!flipped };
  return { buttons: states, note: offer.note, replay: m.status === "finished" };
}

export function showButtons(root, { buttons, note, replay }) {
  for (const [id, state] of Object.entries(buttons)) {
    const b = root.querySelector(`#${id}`);
    if (!b) continue;
    b.hidden = !state.visible;
    b.disabled = !state.enabled;
    if (state.text !== undefined) b.textContent = state.text;
    if (state.pressed !== undefined) b.setAttribute("aria-pressed", String(state.pressed));
  }
  const noteEl = root.querySelector("#rematch-note");
  if (noteEl) {
    noteEl.textContent = note;
    noteEl.hidden = !note;
  }
  const link = root.querySelector("#replay-link");
  if (link) link.hidden = !(replay && link.getAttribute("href"));
}

/**
 * The page's keyboard shortcuts: Space or R rolls, U or Backspace undoes; Enter or Space confirms
 * a turn waiting for it (`confirming`).
 */
export function shortcut(e, confirming = false) {
  if (confirming && (e.key === "Enter" || e.code === "Space" || e.key === " ")) return "confirm";
  if (e.code === "Space" || e.key === " " || e.key === "r" || e.key === "R") return "roll";
  if (e.key === "u" || e.key === "U" || e.key === "Backspace") return "undo";
  return null;
}

/**
 * actions: {roll, undo, confirm, double, take, drop, abort, resign, rematch, decline, flip, claim,
 * wait, toggleSound, notifications, canRoll, canConfirm}. The space bar rolls
 * (the roll button's title says so) unless the focus is in a field or on another button.
 */
export function bindControls(root, actions) {
  const on = (id, fn) => {
    const b = root.querySelector(`#${id}`);
    if (b) b.addEventListener("click", fn);
  };
  on("roll-button", actions.roll);
  on("undo-button", actions.undo);
  on("confirm-button", actions.confirm);
  on("double-button", actions.double);
  on("take-button", actions.take);
  on("drop-button", actions.drop);
  on("abort-button", actions.abort);
  on("resign-button", actions.resign);
  on("rematch-button", actions.rematch);
  on("decline-button", actions.decline);
  on("flip-button", actions.flip);
  on("claim-button", actions.claim);
  on("wait-button", actions.wait);
  on("sound-button", actions.toggleSound);
  on("notify-button", actions.notifications);
  root.ownerDocument.addEventListener("keydown", (e) => {
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || e.ctrlKey || e.metaKey || e.altKey) return;
    const key = shortcut(e, !!(actions.canConfirm && actions.canConfirm()));
    if (key === "confirm") {
      // A focused button's Enter or Space is that button's (Undo stays Undo).
      if (tag === "BUTTON" && e.target.id !== "confirm-button") return;
      e.preventDefault();
      actions.confirm();
    } else if (key === "roll") {
      if (tag === "BUTTON" && e.target.id !== "roll-button" && e.key === " ") return;
      if (actions.canRoll()) {
        e.preventDefault();
        actions.roll();
      }
    } else if (key === "undo" && actions.undo) {
      e.preventDefault();
      actions.undo();
    }
  });
}
