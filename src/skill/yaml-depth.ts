/**
 * An upper bound on how deeply YAML text nests, from its characters alone
 * (no parse, no recursion), so `Bun.YAML.parse` never meets a nesting that
 * overflows its stack: about 5,000 levels of `[`, of indentation, of `- - -`,
 * or of aliases (`a1: &a1 [*a0]` …) do.
 *
 * It overcounts rather than parse to be sure: a line indented deeper than the
 * one above counts as many levels as it may open (one per `- `/`? `, one for
 * a mapping after them, one for a block sequence that shares its parent's
 * indentation); quotes and comments are not recognised (a `[` inside a quoted
 * scalar or a comment counts); every `*` where an alias could stand is taken
 * for one, and each alias may repeat the deepest node before it, so the
 * result is (deepest nesting of the text) × (aliases + 1). A frontmatter
 * nests two levels and uses no alias; its limit is far above that.
 *
 * Lines are broken where YAML breaks them (`LINE_BREAK`): a lone `\r` ends a
 * line too, and text split on `\n` alone would read the lines after it as one
 * line whose indentation and `- ` indicators go uncounted.
 */
export function yamlDepthBound(text: string): number {
  const open: { readonly indent: number; readonly levels: number }[] = [];
  let block = 0;
  let flow = 0;
  let deepest = 0;
  let aliases = 0;
  for (const line of text.split(LINE_BREAK)) {
    const indent = /^[ \t]*/.exec(line)![0].length;
    if (indent === line.length) continue;
    while (open.length > 0 && open.at(-1)!.indent >= indent) block -= open.pop()!.levels;
    let levels = 2;
    INDICATOR.lastIndex = indent;
    while (INDICATOR.test(line)) levels += 1;
    open.push({ indent, levels });
    block += levels;
    for (let at = indent; at < line.length; at++) {
      const c = line[at]!;
      if (c === '[' || c === '{') flow++;
      else if ((c === ']' || c === '}') && flow > 0) flow--;
      else if (c === '*' && mayStartNode(line, at)) aliases++;
      deepest = Math.max(deepest, block + flow);
    }
  }
  return deepest * (aliases + 1);
}

/** YAML's line breaks (b-break): CR LF, CR or LF. No other character ends a line. */
const LINE_BREAK = /\r\n|\r|\n/;

/** A block indicator that opens a collection, matched where the last one ended (sticky). */
const INDICATOR = /[-?](?:[ \t]+|$)/y;

/** Whether a node may start at `at`: nothing but blanks or an indicator (`: - ? [ { ,`) before it. */
function mayStartNode(line: string, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && (line[before] === ' ' || line[before] === '\t')) before--;
  return before < 0 || ':-?[{,'.includes(line[before]!);
}
