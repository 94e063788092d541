// Provably fair dice in the browser (docs/rules.md, Platform rules): the same roll function and
// export check as games/fairness (dice.py, verify.py), computed with WebCrypto only. Nothing here
// asks the server whether a roll is right: the match record (the public JSON export) is read and
// every roll is recomputed from the revealed seeds. The method is documented on /fairness/.

export const USABLE_BYTES = 252; // 6 x 42: bytes 0..251 map evenly onto the six faces
const CLIENT_SEED = /^[A-Za-z0-9_-]{1,64}$/;
const SERVER_SEED = /^[0-9a-f]{64}$/;

export function newClientSeed(random = globalThis.crypto) {
  const bytes = new Uint8Array(16);
  random.getRandomValues(bytes);
  return toHex(bytes);
}

export function isClientSeed(value) {
  return typeof value === "string" && CLIENT_SEED.test(value);
}

function toHex(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export async function commitment(serverSeed, subtle = globalThis.crypto.subtle) {
  return toHex(new Uint8Array(await subtle.digest("SHA-256", fromHex(serverSeed))));
}

// The dice of usable bytes, in order (a byte b < 252 gives b % 6 + 1, others are skipped).
export function diceFromBytes(bytes) {
  const dice = [];
  for (const byte of bytes) if (byte < USABLE_BYTES) dice.push((byte % 6) + 1);
  return dice;
}

// A roller for one server seed: (client seeds, game, roll) -> [die 1, die 2].
export async function roller(serverSeed, subtle = globalThis.crypto.subtle) {
  if (!SERVER_SEED.test(serverSeed)) throw new Error("a server seed is 64 lowercase hex digits");
  const key = await subtle.importKey("raw", fromHex(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const encoder = new TextEncoder();
  return async (clientSeeds, game, roll) => {
    const message = `${clientSeeds[0]}:${clientSeeds[1]}:${game}:${roll}`;
    const dice = [];
    for (let block = 0; dice.length < 2; block += 1) {
      const text = block === 0 ? message : `${message}:${block}`;
      const digest = new Uint8Array(await subtle.sign("HMAC", key, encoder.encode(text)));
      dice.push(...diceFromBytes(digest));
    }
    return [dice[0], dice[1]];
  };
}

const sameExactly = (a, b) => a.length === 2 && a[0] === b[0] && a[1] === b[1];
const sameEitherOrder = (a, b) => sameExactly([...a].sort(), [...b].sort());

// Every roll of an export checked as games/fairness/verify.py does; problems are
// {code, game?, ...} for the page to translate.
export async function verifyExport(data, subtle = globalThis.crypto.subtle) {
  const report = { checks: [], problems: [], ok: false };
  const fairness = data?.match?.fairness;
  if (!fairness || !Array.isArray(data.games)) {
    report.problems.push({ code: "not_export" });
    return report;
  }
  if (fairness.verifiable !== true) {
    report.problems.push({ code: "not_verifiable", source: fairness.dice_source });
    return report;
  }
  if (!SERVER_SEED.test(fairness.server_seed || "")) {
    report.problems.push({ code: "not_revealed" });
    return report;
  }
  const seeds = fairness.client_seeds || [];
  if (seeds.length !== 2 || !seeds.every(isClientSeed)) {
    report.problems.push({ code: "bad_seeds" });
    return report;
  }
  if ((await commitment(fairness.server_seed, subtle)) !== fairness.server_seed_hash) {
    report.problems.push({ code: "commitment" });
  }
  const roll = await roller(fairness.server_seed, subtle);
  for (const game of data.games) {
    const number = game.number;
    const used = [];
    const check = async (rollNumber, kind, turn, shown, exact) => {
      const expected = await roll(seeds, number, rollNumber);
      const ok = exact ? sameExactly(shown, expected) : sameEitherOrder(shown, expected);
      report.checks.push({ game: number, roll: rollNumber, kind, turn, shown, expected, ok });
    };
    let deciding = null;
    if (game.opening) {
      const ties = game.opening.ties || [];
      for (let i = 0; i < ties.length; i += 1) {
        await check(i + 1, "tie", null, ties[i], true);
        used.push(i + 1);
      }
      deciding = ties.length + 1;
      const { white, black } = game.opening;
      await check(deciding, "opening", null, game.white_seat === 0 ? [white, black] : [black, white], true);
      used.push(deciding);
    }
    const turns = game.turns || [];
    const all = game.unfinished_turn ? [...turns, game.unfinished_turn] : turns;
    for (const turn of all) {
      if (!Number.isInteger(turn.roll) || turn.roll < 1) {
        report.problems.push({ code: "no_roll_number", game: number });
        continue;
      }
      const kind = turn === game.unfinished_turn ? "unfinished" : "turn";
      await check(turn.roll, kind, turn.number, turn.dice, false);
      if (turn.roll === deciding && turn === turns[0]) continue; // the starter plays the opening roll
      used.push(turn.roll);
    }
    const distinct = [...new Set(used)].sort((a, b) => a - b);
    if (distinct.length !== used.length) report.problems.push({ code: "twice", game: number });
    const drawn = Number.isInteger(game.rolls) ? game.rolls : Math.max(0, ...used);
    if (distinct.length !== drawn || distinct.some((value, index) => value !== index + 1)) {
      report.problems.push({ code: "missing", game: number, drawn });
    }
  }
  report.ok = report.problems.length === 0 && report.checks.every((item) => item.ok);
  return report;
}

// The "Fair dice" panel of the match and replay pages (templates/games/_fairness.html).
export class FairnessPanel {
  constructor(root, { t, send = null }) {
    this.root = root;
    this.t = t;
    this.send = send; // the match socket's send, for the creator's seed while the challenge is open
    this.exportData = null;
    this.$ = (id) => root.querySelector(`[data-fair="${id}"]`);
    this.$("verify")?.addEventListener("click", () => this.verify());
    this.$("seed-form")?.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = this.$("seed-input").value.trim();
      if (isClientSeed(value) && this.send) this.send({ type: "client_seed", client_seed: value });
    });
    this.$("seed-new")?.addEventListener("click", () => {
      this.$("seed-input").value = newClientSeed();
    });
  }

  // The live `state.match` (docs/protocol.md): seeds, the commitment, the seed once revealed.
  update(match, mySeat) {
    const fairness = match?.fairness;
    if (!fairness) return;
    this.$("hash").textContent = fairness.server_seed_hash || "—";
    fairness.client_seeds.forEach((seed, seat) => {
      const cell = this.$(`seed-${seat}`);
      if (cell) cell.textContent = seed || "—";
    });
    const rematchHash = match.rematch?.server_seed_hash;
    this.$("rematch").hidden = !rematchHash;
    this.$("rematch-hash").textContent = rematchHash || "";
    const revealed = Boolean(fairness.server_seed);
    this.$("server-seed").textContent = revealed ? fairness.server_seed : this.t("fair_hidden");
    this.$("verify").hidden = !(revealed && fairness.verifiable);
    this.$("not-verifiable").hidden = fairness.verifiable;
    const form = this.$("seed-form");
    if (form) {
      const editing = match.status === "open" && mySeat === 0;
      form.hidden = !editing;
      const input = this.$("seed-input");
      if (editing && document.activeElement !== input) input.value = fairness.client_seeds[0] || "";
    }
  }

  setExport(data) {
    this.exportData = data;
  }

  async verify() {
    const summary = this.$("summary");
    const list = this.$("results");
    summary.textContent = this.t("fair_verifying");
    summary.className = "fair-summary";
    list.replaceChildren();
    let data = this.exportData;
    try {
      if (!data) {
        const response = await fetch(this.root.dataset.exportUrl, { credentials: "same-origin" });
        data = await response.json();
      }
    } catch {
      summary.textContent = this.t("fair_load_failed");
      return;
    }
    const report = await verifyExport(data);
    this.show(report);
    this.root.dataset.verified = report.ok ? "ok" : "failed";
    return report;
  }

  show(report) {
    const t = this.t;
    const list = this.$("results");
    for (const check of report.checks) {
      const item = document.createElement("li");
      item.className = check.ok ? "fair-ok" : "fair-bad";
      item.dataset.ok = String(check.ok);
      const where = check.kind === "turn" || check.kind === "unfinished"
        ? t(`fair_kind_${check.kind}`, { n: check.turn })
        : t(`fair_kind_${check.kind}`);
      const mark = check.ok ? t("fair_match") : t("fair_mismatch", { expected: check.expected.join("-") });
      item.textContent = `${check.ok ? "✓" : "✗"} ${t("fair_game_roll", { game: check.game, roll: check.roll })}, ${where}: ${check.shown.join("-")} — ${mark}`;
      list.append(item);
    }
    const bad = report.checks.filter((check) => !check.ok).length;
    const lines = report.problems.map((problem) => t(`fair_problem_${problem.code}`, problem));
    lines.unshift(
      report.ok
        ? t("fair_verified", { n: report.checks.length })
        : t("fair_failed", { bad, n: report.checks.length }),
    );
    const summary = this.$("summary");
    summary.textContent = lines.join(" ");
    summary.className = `fair-summary ${report.ok ? "fair-ok" : "fair-bad"}`;
  }
}
