/**
 * Characters a terminal acts on instead of showing: C0 controls (ESC, CR,
 * LF, BEL, TAB …), DEL, C1 controls (U+0080–U+009F, CSI among them), the
 * line and paragraph separators, and the bidi marks, embeddings, overrides
 * and isolates that reorder what follows them.
 */
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as a terminal may print it: each active character written out as an
 * escape (`\x1b`, `\u202e`), so text from a server can neither clear the
 * screen, set the title, recolour, reorder, nor start a line of its own.
 *
 * @example
 * inert('ok\r\n  exit 0'); // 'ok\\x0d\\x0a  exit 0'
 */
export function inert(text: string): string {
  return text.replace(ACTIVE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
