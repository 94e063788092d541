"""The contrast of every visible link and button of a page, computed in the browser (WCAG 2.1's
relative luminance and contrast ratio, https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): the
text colour, its alpha and the opacities above it, over the backgrounds behind it composited
from the page up. A disabled control is exempt (WCAG 1.4.3 "inactive user interface component")."""

from __future__ import annotations

MINIMUM = 4.5

CONTRASTS = r"""
() => {
  const parse = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return [0, 0, 0, 0];
    const parts = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  const background = (element) => {
    const layers = [];
    for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
      const colour = parse(getComputedStyle(node).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] === 1) break;
    }
    let result = [255, 255, 255, 1];
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const opacity = (element) => {
    let value = 1;
    for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
      value *= Number(getComputedStyle(node).opacity);
    }
    return value;
  };
  const luminance = (rgb) => {
    const [r, g, b] = rgb.slice(0, 3).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const found = [];
  for (const element of document.querySelectorAll("a, button, summary, .button")) {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    if (element.disabled || !element.textContent.trim()) continue;
    const back = background(element);
    const text = parse(style.color);
    const seen = over([text[0], text[1], text[2], text[3] * opacity(element)], back);
    const [l1, l2] = [luminance(seen), luminance(back)].sort((a, b) => b - a);
    found.push({
      what: `${element.tagName.toLowerCase()}${element.id ? "#" + element.id : ""} ` +
        `"${element.textContent.trim().slice(0, 40)}"`,
      ratio: Math.round(((l1 + 0.05) / (l2 + 0.05)) * 100) / 100,
      color: style.color,
      background: `rgb(${back.slice(0, 3).map(Math.round).join(",")})`,
    });
  }
  return found;
}
"""


def low_contrast(page) -> list[dict]:
    """The page's visible links and buttons whose text is below 4.5:1 on what is behind it."""
    return [item for item in page.evaluate(CONTRASTS) if item["ratio"] < MINIMUM]
