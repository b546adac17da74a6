/**
 * How deeply a YAML text nests collections, measured by one pass over its characters (no parser,
 * no recursion), so text that would overflow the yaml library's recursive composer never reaches it.
 *
 * It follows what decides nesting in YAML: indentation columns of block mappings and sequences
 * (including `- - x` and `- key:` on one line, and a sequence written at its key's column), and
 * flow brackets. Quoted strings, block scalars (`|`, `>`), plain scalars and comments do not count.
 * It is an estimate, not a parser: it can count a level too many on odd plain text, never a whole
 * document's worth, and load.ts re-checks depth exactly while converting.
 */

interface Level {
  readonly col: number;
  readonly seq: boolean;
}

const isBlank = (c: string | undefined) => c === undefined || c === " " || c === "\t" || c === "\r" || c === "\n";
const FLOW_INDICATORS = ",[]{}";

/** Offset of the first collection nested deeper than `limit`, or undefined when none is. */
export function findDeepNesting(text: string, limit: number): number | undefined {
  return scanNesting(text, limit).deep;
}

/**
 * At least as many as the values the text holds, from the same pass: one per block indicator
 * (`- `, `? `, `key: `), two per flow collection opened and one per flow `,` or `:`, one for the
 * root. Quoted and block scalars and comments are skipped, so prose does not count. Counting
 * scans to the end even past `limit`'s depth; the caller reads `deep` first.
 */
export function estimateYamlValues(text: string, limit: number): { deep?: number; values: number } {
  return scanNesting(text, limit, true);
}

function scanNesting(text: string, limit: number, count = false): { deep?: number; values: number } {
  let values = 1;
  const deepAt = (offset: number) => (count ? undefined : offset);
  let deep: number | undefined;
  const result = (): { deep?: number; values: number } => (deep === undefined ? { values } : { deep, values });
  const stack: Level[] = [];
  let flow = 0;
  let flowBase = 0;
  let quote: '"' | "'" | null = null;
  let scalarParent = -1; // inside a block scalar: its lines are indented more than this column
  let pos = 0;

  /** A block collection node at column `col` of the current line; returns false when too deep. */
  const enter = (col: number, seq: boolean): boolean => {
    while (stack.length > 0 && stack[stack.length - 1]!.col > col) stack.pop();
    let top = stack[stack.length - 1];
    if (top && top.col === col && !top.seq && !seq) return true;
    if (top && top.col === col && top.seq && seq) return true;
    if (top && top.col === col && top.seq && !seq) {
      // A key at the column of a sequence that was the value of the key before it: back to that map.
      stack.pop();
      top = stack[stack.length - 1];
      if (top && top.col === col && !top.seq) return true;
    }
    stack.push({ col, seq });
    return stack.length <= limit;
  };
  /** Record the first place nesting passes the limit; true when the scan must stop there. */
  const tooDeep = (offset: number): boolean => {
    deep ??= offset;
    return deepAt(offset) !== undefined;
  };

  while (pos < text.length) {
    let eol = text.indexOf("\n", pos);
    if (eol < 0) eol = text.length;
    let i = pos;
    while (i < eol && text[i] === " ") i++;
    const indent = i - pos;
    const empty = i >= eol || text[i] === "\r" || text[i] === "#";
    if (scalarParent >= 0) {
      if (i >= eol || text[i] === "\r" || indent > scalarParent) {
        pos = eol + 1;
        continue;
      }
      scalarParent = -1;
    }
    let indicatorsAllowed = false;
    if (quote === null && flow === 0) {
      if (empty) {
        pos = eol + 1;
        continue;
      }
      if (indent === 0 && (text.startsWith("---", i) || text.startsWith("...", i)) && isBlank(text[i + 3])) {
        stack.length = 0;
        i += 3;
      }
      // Content at this indentation closes every block collection indented more.
      while (stack.length > 0 && stack[stack.length - 1]!.col > indent) stack.pop();
      indicatorsAllowed = true;
    }
    let lastNode = indent;
    let tokenStart = -1;
    let keyed = false;
    while (i < eol) {
      const c = text[i]!;
      if (quote === '"') {
        if (c === "\\") i += 2;
        else {
          if (c === '"') quote = null;
          i++;
        }
        continue;
      }
      if (quote === "'") {
        if (c === "'" && text[i + 1] === "'") i += 2;
        else {
          if (c === "'") quote = null;
          i++;
        }
        continue;
      }
      if (c === " " || c === "\t" || c === "\r") {
        i++;
        continue;
      }
      if (c === "#" && (i === pos || isBlank(text[i - 1]))) break;
      const col = i - pos;
      if (flow === 0 && indicatorsAllowed && (c === "-" || c === "?" || c === ":") && isBlank(text[i + 1])) {
        values++;
        if (!enter(col, c === "-") && tooDeep(i)) return result();
        lastNode = col;
        i++;
        continue;
      }
      indicatorsAllowed = false;
      if (c === "[" || c === "{") {
        values += 2;
        if (flow === 0) flowBase = stack.length;
        flow++;
        if (flowBase + flow > limit && tooDeep(i)) return result();
        i++;
        continue;
      }
      if (c === "]" || c === "}") {
        if (flow > 0) flow--;
        i++;
        continue;
      }
      if (flow > 0 && (c === "," || c === ":")) {
        values++;
        i++;
        continue;
      }
      if (c === ":" && isBlank(text[i + 1])) {
        // The value indicator after a block key: the key's column is a mapping's.
        values++;
        if (!keyed && tokenStart >= 0) {
          if (!enter(tokenStart, false) && tooDeep(pos + tokenStart)) return result();
          lastNode = tokenStart;
          keyed = true;
        }
        i++;
        continue;
      }
      if (flow === 0 && (c === "|" || c === ">") && /^[|>][0-9+-]*[ \t]*(#.*)?\r?$/.test(text.slice(i, eol))) {
        scalarParent = lastNode;
        break;
      }
      if (tokenStart < 0 || keyed) tokenStart = col;
      if (c === '"' || c === "'") {
        quote = c;
        i++;
        continue;
      }
      if (c === "&" || c === "!" || c === "*") {
        // Anchors, tags and aliases: one word.
        while (i < eol && !isBlank(text[i]) && !(flow > 0 && FLOW_INDICATORS.includes(text[i]!))) i++;
        continue;
      }
      // A plain scalar runs to ": ", " #", the end of the line, or (in flow) a flow indicator.
      while (i < eol) {
        const ch = text[i]!;
        if (ch === ":" && (isBlank(text[i + 1]) || (flow > 0 && FLOW_INDICATORS.includes(text[i + 1] ?? "")))) break;
        if (ch === "#" && isBlank(text[i - 1])) break;
        if (flow > 0 && FLOW_INDICATORS.includes(ch)) break;
        i++;
      }
    }
    pos = eol + 1;
  }
  return result();
}
