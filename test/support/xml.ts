// A small strict XML 1.0 reader for tests (JUnit reports): well-formedness only — one root,
// matched tags, quoted attributes without duplicates, known entities, no raw control characters.
// Throws with the offset of the first problem; returns the element tree.
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /[A-Za-z_:][\w.:-]*/y;
const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(raw)) throw new Error(`character not allowed in XML near offset ${at}`);
  return raw.replace(/&([^;]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new Error(`unterminated entity near offset ${at}`);
    if (name in ENTITY) return ENTITY[name];
    const m = /^#(x[0-9a-fA-F]+|\d+)$/.exec(name);
    if (!m) throw new Error(`unknown entity &${name}; near offset ${at}`);
    return String.fromCodePoint(m[1][0] === 'x' ? parseInt(m[1].slice(1), 16) : Number(m[1]));
  });
}

export function parseXml(xml: string): XmlElement {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at offset ${i}: ${JSON.stringify(xml.slice(i, i + 40))}`);
  };
  const name = () => {
    NAME.lastIndex = i;
    const m = NAME.exec(xml);
    if (!m) fail('expected a name');
    i += m![0].length;
    return m![0];
  };
  const space = () => {
    while (i < xml.length && /\s/.test(xml[i])) i++;
  };
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) fail('unterminated declaration');
    i = end + 2;
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (stack.length) stack[stack.length - 1].text += decode(text, i);
    else if (text.trim()) fail('text outside the root element');
    if (lt < 0) break;
    i = lt + 1;
    if (xml.startsWith('!--', i)) {
      const end = xml.indexOf('-->', i);
      if (end < 0) fail('unterminated comment');
      i = end + 3;
      continue;
    }
    if (xml[i] === '/') {
      i++;
      const n = name();
      space();
      if (xml[i] !== '>') fail('expected >');
      i++;
      const open = stack.pop();
      if (!open || open.name !== n) fail(`</${n}> does not close <${open?.name ?? 'nothing'}>`);
      continue;
    }
    if (root && stack.length === 0) fail('a second root element');
    const el: XmlElement = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      const before = i;
      space();
      if (xml[i] === '>' || xml.startsWith('/>', i)) break;
      if (before === i) fail('expected a space before an attribute');
      const a = name();
      space();
      if (xml[i] !== '=') fail('expected =');
      i++;
      space();
      const q = xml[i];
      if (q !== '"' && q !== "'") fail('expected a quoted value');
      const end = xml.indexOf(q, i + 1);
      if (end < 0) fail('unterminated attribute value');
      const raw = xml.slice(i + 1, end);
      if (raw.includes('<')) fail('< in an attribute value');
      if (a in el.attrs) fail(`attribute ${a} twice`);
      el.attrs[a] = decode(raw, i);
      i = end + 1;
    }
    if (stack.length) stack[stack.length - 1].children.push(el);
    else root = el;
    if (xml.startsWith('/>', i)) i += 2;
    else {
      i++;
      stack.push(el);
    }
  }
  if (stack.length) fail(`<${stack[stack.length - 1].name}> is never closed`);
  if (!root) fail('no root element');
  return root!;
}

/** Every element named `name` under `el` (itself included), depth first. */
export function elements(el: XmlElement, name: string): XmlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => elements(c, name))];
}
