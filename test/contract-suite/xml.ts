/**
 * A strict XML 1.0 reader for the reports the tests parse (no DTDs, no CDATA, no processing
 * instructions but the declaration): throws on anything a conforming parser would reject that a
 * report writer can get wrong — unbalanced tags, a raw `<` or `&`, unknown entities, characters
 * XML forbids, duplicate attributes.
 */
export interface XmlElement {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*/;
// Characters XML 1.0 allows (tab, newline, carriage return and the ranges below), surrogate pairs included.
const FORBIDDEN = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\ud800-\udbff\udc00-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function decode(raw: string, where: number): string {
  if (raw.includes("<")) throw new Error(`raw < at ${where}`);
  return raw.replace(/&([^;]*);?/g, (all, entity: string) => {
    if (!all.endsWith(";")) throw new Error(`bare & at ${where}`);
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (Object.hasOwn(named, entity)) return named[entity]!;
    const m = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(entity);
    if (!m) throw new Error(`unknown entity &${entity}; at ${where}`);
    const code = m[1]!.startsWith("x") ? Number.parseInt(m[1]!.slice(1), 16) : Number(m[1]);
    const c = String.fromCodePoint(code);
    if (FORBIDDEN.test(c)) throw new Error(`forbidden character reference at ${where}`);
    return c;
  });
}

export function parseXml(text: string): XmlElement {
  const bad = FORBIDDEN.exec(text);
  if (bad) throw new Error(`forbidden character U+${bad[0].charCodeAt(0).toString(16)} at ${bad.index}`);
  let i = 0;
  const decl = /^<\?xml [^?]*\?>\s*/.exec(text);
  if (decl) i = decl[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < text.length) {
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i);
      if (end < 0) throw new Error("unterminated comment");
      i = end + 3;
    } else if (text.startsWith("</", i)) {
      const end = text.indexOf(">", i);
      const name = text.slice(i + 2, end).trim();
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> closes ${open?.name ?? "nothing"} at ${i}`);
      i = end + 1;
    } else if (text[i] === "<") {
      i++;
      const name = NAME.exec(text.slice(i))?.[0];
      if (!name) throw new Error(`bad tag name at ${i}`);
      i += name.length;
      const attributes = new Map<string, string>();
      for (;;) {
        const ws = /^\s*/.exec(text.slice(i))![0];
        i += ws.length;
        if (text.startsWith("/>", i) || text[i] === ">") break;
        if (!ws) throw new Error(`expected whitespace before an attribute at ${i}`);
        const attr = /^([A-Za-z_][\w.:-]*)\s*=\s*(["'])/.exec(text.slice(i));
        if (!attr) throw new Error(`bad attribute at ${i}`);
        i += attr[0].length;
        const end = text.indexOf(attr[2]!, i);
        if (end < 0) throw new Error("unterminated attribute");
        if (attributes.has(attr[1]!)) throw new Error(`duplicate attribute ${attr[1]} at ${i}`);
        attributes.set(attr[1]!, decode(text.slice(i, end), i));
        i = end + 1;
      }
      const element: XmlElement = { name, attributes, children: [], text: "" };
      if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
      else if (root) throw new Error("more than one root element");
      else root = element;
      if (text.startsWith("/>", i)) i += 2;
      else {
        i += 1;
        stack.push(element);
      }
    } else {
      const end = text.indexOf("<", i);
      const raw = text.slice(i, end < 0 ? text.length : end);
      const decoded = decode(raw, i);
      if (stack.length > 0) stack[stack.length - 1]!.text += decoded;
      else if (decoded.trim()) throw new Error(`text outside the root element at ${i}`);
      i = end < 0 ? text.length : end;
    }
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new Error("no root element");
  return root;
}

export function descendants(e: XmlElement, name: string): XmlElement[] {
  return e.children.flatMap((c) => [...(c.name === name ? [c] : []), ...descendants(c, name)]);
}
