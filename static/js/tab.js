// The tab's title and icon say what waits for the player while they look at another tab: their
// turn on the match page (match/alerts.js), a direct challenge on any page (notify.js, the site
// socket of docs/protocol.md "The site socket"). Both marks share one title, so neither undoes
// the other's; each is cleared by whoever set it, and the page's own title and icon come back
// when none is left. `composeTitle` and `iconFor` are pure (Node tests).

/** The title with its marks in front: "● ⚔ Challenge from ana · Match 42". */
export function composeTitle(baseTitle, { turn = false, challenge = null } = {}) {
  const marks = [];
  if (turn) marks.push("●");
  if (challenge) marks.push(`⚔ ${challenge} ·`);
  return marks.length ? `${marks.join(" ")} ${baseTitle}` : baseTitle;
}

/** Which icon the tab shows: "turn" before "challenge" (the table waits on the clock), else "". */
export function iconFor({ turn = false, challenge = null } = {}) {
  if (turn) return "turn";
  return challenge ? "challenge" : "";
}

const svgIcon = (dot) =>
  "data:image/svg+xml," +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="15" cy="17" r="13" fill="#f4ecd8" stroke="#333" stroke-width="2"/>${dot}</svg>`,
  );
// A checker with a red dot: your turn; with a gold star-like dot: a challenge waits.
const ICONS = {
  turn: svgIcon('<circle cx="25" cy="7" r="7" fill="#d33"/>'),
  challenge: svgIcon('<circle cx="25" cy="7" r="6" fill="#e0a100" stroke="#333" stroke-width="1.5"/>'),
};

const tabs = new WeakMap(); // window -> its Tab: one title per document, whoever marks it

class Tab {
  constructor(win) {
    this.win = win;
    this.baseTitle = win.document.title;
    this.baseIcon = null;
    this.marks = { turn: false, challenge: null };
  }

  /** Set one mark (`turn`: true/false; `challenge`: its text, or null) and redraw. */
  mark(name, value) {
    this.marks[name] = value;
    const doc = this.win.document;
    doc.title = composeTitle(this.baseTitle, this.marks);
    let link = doc.querySelector("link[rel~='icon']");
    if (!link) {
      link = doc.createElement("link");
      link.rel = "icon";
      doc.head.appendChild(link);
    }
    // The attribute as written (a relative URL), to give it back as it was.
    if (this.baseIcon === null) this.baseIcon = (link.getAttribute ? link.getAttribute("href") : link.href) || "";
    const icon = iconFor(this.marks);
    link.href = icon ? ICONS[icon] : this.baseIcon;
    link.dataset.turn = icon === "turn" ? "1" : "";
    link.dataset.challenge = this.marks.challenge ? "1" : "";
  }
}

/** The tab of `win` (the page's window), made at its first use. */
export function tabOf(win = globalThis.window) {
  if (!win || !win.document) return null;
  if (!tabs.has(win)) tabs.set(win, new Tab(win));
  return tabs.get(win);
}
