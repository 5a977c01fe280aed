/**
 * The excerpt card's fixed layout. The program, never the model, decides the
 * path and every byte around the quotes, so the layout can be checked exactly.
 */

/** Where the card lives, relative to the run dir. */
export const CARD_PATH = 'card/excerpt-card.md';

export interface CardExcerpt {
  readonly sourceId: string;
  readonly sourceSha256: string;
  readonly quote: string;
}

export interface CardContent {
  readonly runId: string;
  readonly actionId: string;
  readonly snapshotId: string;
  readonly excerpts: readonly CardExcerpt[];
}

/**
 * Renders a card. A quote may span lines; each of its lines is prefixed with
 * "> " so the block stays unambiguous, and `parseCard` reverses it exactly.
 */
export function renderCard(card: CardContent): string {
  const blocks = card.excerpts.map((excerpt, i) =>
    [
      `## ${i + 1}. ${excerpt.sourceId}`,
      '',
      `source-sha256: ${excerpt.sourceSha256}`,
      '',
      ...excerpt.quote.split('\n').map((line) => `> ${line}`),
      '',
    ].join('\n'),
  );
  return [
    '# Excerpt card',
    '',
    `run: ${card.runId}`,
    `action: ${card.actionId}`,
    `snapshot: ${card.snapshotId}`,
    '',
    ...blocks,
  ].join('\n');
}

/**
 * Parses a card written by `renderCard`. Returns undefined unless re-rendering
 * the parsed content reproduces the text byte for byte — that is the layout check.
 */
export function parseCard(text: string): CardContent | undefined {
  const header = /^# Excerpt card\n\nrun: ([^\n]+)\naction: ([^\n]+)\nsnapshot: ([^\n]+)\n\n/.exec(text);
  if (!header) return undefined;
  const excerpts: CardExcerpt[] = [];
  const block = /## (\d+)\. ([^\n]+)\n\nsource-sha256: ([0-9a-f]{64})\n\n((?:> [^\n]*\n)+)(?:\n|$)/gy;
  block.lastIndex = header[0].length;
  let match: RegExpExecArray | null;
  while ((match = block.exec(text)) !== null) {
    const quote = match[4]!
      .slice(0, -1)
      .split('\n')
      .map((line) => line.slice(2))
      .join('\n');
    excerpts.push({ sourceId: match[2]!, sourceSha256: match[3]!, quote });
    if (block.lastIndex === text.length) break;
  }
  const card = { runId: header[1]!, actionId: header[2]!, snapshotId: header[3]!, excerpts };
  return renderCard(card) === text ? card : undefined;
}
