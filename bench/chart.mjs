// A small hand-written SVG line chart with logarithmic axes, for the benchmark reports. Deterministic:
// the same data always gives the same bytes (fixed layout, fixed colours, rounded coordinates).

const W = 760;
const H = 440;
const PLOT = { left: 70, right: 560, top: 50, bottom: 380 }; // the legend goes right of the plot
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];

const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const num = (v) => (Math.round(v * 10) / 10).toString();
/** A tick label: 0.01, 0.1, 1, 10, 1,000, 5,000. */
const label = (v) => (v >= 1000 ? v.toLocaleString("en-US") : String(Number(v.toPrecision(3))));

/** Powers of ten covering [lo, hi], with the 2 and 5 multiples when the range is under three decades. */
function logTicks(lo, hi) {
  const ticks = [];
  const fine = Math.log10(hi / lo) < 3;
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of fine ? [1, 2, 5] : [1]) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(Number(v.toPrecision(3)));
    }
  }
  return ticks;
}

/**
 * series: [{ name, points: [[x, y], …], dashed? }]; points with a missing or non-positive y are left
 * out (a step that was not run). Both axes are logarithmic: a straight line of slope 1 is linear growth.
 */
export function lineChart({ title, subtitle, xLabel, yLabel, series, xTicks }) {
  const points = series.flatMap((s) => s.points).filter(([x, y]) => x > 0 && y > 0);
  if (points.length === 0) return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="80"><text x="10" y="40">${esc(title)}: no data</text></svg>\n`;
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  // Whole decades on y, so the grid starts and ends on a labelled line.
  const y0 = 10 ** Math.floor(Math.log10(Math.min(...ys)));
  const y1 = 10 ** Math.ceil(Math.log10(Math.max(...ys)));
  const sx = (x) => PLOT.left + ((Math.log10(x) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0) || 1)) * (PLOT.right - PLOT.left);
  const sy = (y) => PLOT.bottom - ((Math.log10(y) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0) || 1)) * (PLOT.bottom - PLOT.top);

  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${PLOT.left}" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
  ];
  if (subtitle) out.push(`<text x="${PLOT.left}" y="38" fill="#555555">${esc(subtitle)}</text>`);
  for (const t of xTicks ?? logTicks(x0, x1)) {
    const x = num(sx(t));
    out.push(`<line x1="${x}" y1="${PLOT.top}" x2="${x}" y2="${PLOT.bottom}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${x}" y="${PLOT.bottom + 16}" text-anchor="middle">${esc(label(t))}</text>`);
  }
  for (const t of logTicks(y0, y1)) {
    const y = num(sy(t));
    out.push(`<line x1="${PLOT.left}" y1="${y}" x2="${PLOT.right}" y2="${y}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${PLOT.left - 6}" y="${num(sy(t) + 4)}" text-anchor="end">${esc(label(t))}</text>`);
  }
  out.push(`<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#333333"/>`);
  out.push(`<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 36}" text-anchor="middle">${esc(xLabel)}</text>`);
  out.push(`<text transform="translate(18 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`);

  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const dash = s.dashed ? ` stroke-dasharray="6 4"` : "";
    const pts = s.points.filter(([x, y]) => x > 0 && y > 0);
    if (pts.length > 1) out.push(`<polyline fill="none" stroke="${colour}" stroke-width="2"${dash} points="${pts.map(([x, y]) => `${num(sx(x))},${num(sy(y))}`).join(" ")}"/>`);
    for (const [x, y] of pts) out.push(`<circle cx="${num(sx(x))}" cy="${num(sy(y))}" r="3" fill="${colour}"><title>${esc(`${s.name}: ${label(x)} → ${label(y)}`)}</title></circle>`);
    const ly = PLOT.top + 8 + i * 20;
    out.push(`<line x1="${PLOT.right + 16}" y1="${ly}" x2="${PLOT.right + 40}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash}/>`);
    out.push(`<text x="${PLOT.right + 46}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
