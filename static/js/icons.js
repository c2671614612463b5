// Small line icons drawn as inline SVG: they show on every system, where an emoji
// (🔒, 🔇) is a blank box without an emoji font. Each takes the text colour and the
// font size of its button; the button's aria-label names it, the icon stays silent.

const SVG = "http://www.w3.org/2000/svg";

// Each icon: shapes on a 24x24 grid, as [tag, attributes].
const SHAPES = {
  lock: [
    ["rect", { x: 5, y: 11, width: 14, height: 10, rx: 2 }],
    ["path", { d: "M8 11V7a4 4 0 0 1 8 0v4" }],
  ],
  "sound-on": [
    ["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }],
    ["path", { d: "M16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11" }],
  ],
  "sound-off": [
    ["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }],
    ["path", { d: "M16 9.5l5 5M21 9.5l-5 5" }],
  ],
  // scissors: the players' cut (static/js/cut.js)
  cut: [
    ["circle", { cx: 6, cy: 6.5, r: 2.75 }],
    ["circle", { cx: 6, cy: 17.5, r: 2.75 }],
    ["path", { d: "M8.3 8.1L20 17M8.3 15.9L20 7" }],
  ],
  alert: [
    ["path", { d: "M12 3.5L21.5 20h-19z" }],
    ["path", { d: "M12 10v4.5M12 17.2v.3" }],
  ],
};

/** An <svg> icon by name ("lock", "sound-on", "sound-off", "cut", "alert"). */
export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const [tag, attributes] of SHAPES[name]) {
    const shape = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) shape.setAttribute(key, String(value));
    svg.append(shape);
  }
  return svg;
}
