// A page's translated strings. The template renders them, translated, into a JSON block
// (<script type="application/json" id="...-strings">); the defaults in each page's module only
// cover a harness page without that block.

/** "{name} won" with {name: "ana"} -> "ana won"; unknown placeholders stay as written. */
export function fmt(template, params = {}) {
  return String(template).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** t(key, params): the page's string for `key` (the key itself when there is none), filled in. */
export function translator(defaults, strings = {}) {
  const table = { ...defaults, ...strings };
  return (key, params) => fmt(table[key] !== undefined ? table[key] : key, params);
}

/** A page's translated strings: the JSON block rendered by the template (`{}` if missing). */
export function readStrings(id) {
  const node = document.getElementById(id);
  if (!node) return {};
  try {
    return JSON.parse(node.textContent);
  } catch (e) {
    return {};
  }
}

/** A player's rating as every page shows it: "1534", or "1534?" while provisional (the
 * protocol's `provisional`, docs/protocol.md). */
export function ratingText(player) {
  return `${player.rating}${player.provisional ? "?" : ""}`;
}
