/**
 * The report's one way to make markup: the `html` tagged template. Its
 * literal parts are the report's own markup; every interpolation is escaped
 * as text (`&`, `<`, `>`, `"`, `'`) unless it is itself `Html` made by this
 * tag, and a control or bidi character shows as a visible escape (`\u202E`
 * in a marked span), so nothing a model or a server wrote into a record can
 * open an element, end one, or reorder what a reader sees. There is no other
 * constructor of `Html`: no raw path for recorded data.
 */

const MARK: unique symbol = Symbol('html');

/** Markup made by `html` (or `join` of it): the only thing interpolated unescaped. */
export interface Html {
  readonly [MARK]: string;
}

/** What `html` takes in a hole: markup, text, a number, a list of them, or nothing (`undefined`, `null`, `false`). */
export type Hole = Html | string | number | boolean | null | undefined | readonly Hole[];

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Characters shown as escapes, never as themselves: C0 controls but tab and
 * newline, DEL and the C1 controls, the bidi embeddings, overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069), the bidi marks, a BOM, and a lone
 * surrogate (no character at all).
 */
const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SPECIAL = /[&<>"']/g;

/** The visible form of one invisible character: `\u` and its four hex digits. */
const visible = (char: string): string => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Text as markup: escaped, its invisible characters as visible escapes in a marked span. */
export function escapeText(text: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    out += text.slice(from, match.index).replace(SPECIAL, (c) => ENTITIES[c]!);
    out += `<span class="esc">${visible(match[0])}</span>`;
    from = match.index + match[0].length;
  }
  return out + text.slice(from).replace(SPECIAL, (c) => ENTITIES[c]!);
}

const made = (markup: string): Html => ({ [MARK]: markup });

function holeText(hole: Hole): string {
  if (hole === undefined || hole === null || hole === false) return '';
  if (Array.isArray(hole)) return hole.map(holeText).join('');
  if (typeof hole === 'object' && MARK in hole) return (hole as Html)[MARK];
  return escapeText(String(hole));
}

/** Markup from a template: its literal parts as written, each hole escaped (see the module comment). */
export function html(parts: TemplateStringsArray, ...holes: readonly Hole[]): Html {
  let out = parts[0]!;
  for (let i = 0; i < holes.length; i++) out += holeText(holes[i]!) + parts[i + 1]!;
  return made(out);
}

/** Pieces of markup joined by a separator of markup. */
export function join(pieces: readonly Html[], separator: Html = html``): Html {
  return made(pieces.map((piece) => piece[MARK]).join(separator[MARK]));
}

/** The markup's text, to write out. */
export function markupOf(markup: Html): string {
  return markup[MARK];
}

/** UTF-8 bytes of a piece of markup, as the written file will hold it. */
export function bytesOf(markup: Html): number {
  return Buffer.byteLength(markup[MARK], 'utf8');
}

/**
 * An anchor id for the event at `index` (its place in the ledger, which is
 * its seq in a record that verifies): made from a count of our own, never a
 * recorded value.
 */
export function anchorOf(index: number): string {
  return `e${Math.max(0, Math.trunc(index))}`;
}

/** `id="e3"` for the event at `index`. */
export function idAttr(index: number): Html {
  return made(`id="${anchorOf(index)}"`);
}

/** A link to the event at `index`, its text escaped. */
export function linkTo(index: number, text: Hole): Html {
  return html`<a href="#${made(anchorOf(index))}">${text}</a>`;
}
