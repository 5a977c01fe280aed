import { expect, test } from 'bun:test';
import { seeded } from '../testing/tool-pool.ts';
import { countNameTokens, countTokens, nameTokens, textTokens } from './tokens.ts';

test('text is lowercased runs of Unicode letters and digits; everything else separates, nothing is stemmed or dropped', () => {
  expect(textTokens('Read the FILE, then files: read-only!')).toEqual(['read', 'the', 'file', 'then', 'files', 'read', 'only']);
  expect(textTokens('Größe 42 sha256 ٤٢ 工具数量 x² ÉTÉ')).toEqual(['größe', '42', 'sha256', '٤٢', '工具数量', 'x²', 'été']);
  // The capital sharp s lowercases to ß, so GRÖẞE and Größe are one token.
  expect(textTokens('GRÖẞE')).toEqual(['größe']);
  // Prose keeps its case changes: GitHub is one word.
  expect(textTokens('GitHub readSource')).toEqual(['github', 'readsource']);
  expect(textTokens('  ,;.+-_  ')).toEqual([]);
  expect(textTokens('')).toEqual([]);
});

test('a name splits at `_`, `-` and case changes: lower→upper, digit→upper, and before the last capital of a capital run', () => {
  expect(nameTokens('read_source')).toEqual(['read', 'source']);
  expect(nameTokens('readSource')).toEqual(['read', 'source']);
  expect(nameTokens('ReadSource')).toEqual(['read', 'source']);
  expect(nameTokens('read-source')).toEqual(['read', 'source']);
  expect(nameTokens('HTMLParser')).toEqual(['html', 'parser']);
  expect(nameTokens('getHTTP2Response')).toEqual(['get', 'http2', 'response']);
  expect(nameTokens('userID')).toEqual(['user', 'id']);
  expect(nameTokens('sha256Sum')).toEqual(['sha256', 'sum']);
  expect(nameTokens('mcp__forge__list_pull_requests')).toEqual(['mcp', 'forge', 'list', 'pull', 'requests']);
  expect(nameTokens('ÉtéChaud')).toEqual(['été', 'chaud']);
  expect(nameTokens('URL')).toEqual(['url']);
  expect(nameTokens('größeÄndern')).toEqual(['größe', 'ändern']);
});

/** What `countTokens` must give, computed from `textTokens`' list. */
function expected(tokens: readonly string[], wanted: readonly string[]): { tokens: number; counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  for (const token of tokens) if (wanted.includes(token)) counts[token] = (counts[token] ?? 0) + 1;
  return { tokens: tokens.length, counts };
}

/** Runs of ASCII, Latin, Turkish İ, sharp s, combining marks, CJK, emoji, a non-BMP letter, lone surrogates, digits of other scripts. */
const ALPHABET = ['a', 'B', 'z', 'Q', '0', '9', ' ', '_', '-', ',', 'É', 'ö', 'ß', 'ẞ', 'İ', '\u0301', '工', '具', '😀', '\u{1d400}', '\ud800', '\udc00', '٤', 'Ⅻ', '\u00a0', 'ǅ', 'K'];

test('countTokens counts exactly the tokens textTokens gives (and countNameTokens those of nameTokens), over seeded random text', () => {
  const random = seeded(2024);
  for (let round = 0; round < 2000; round++) {
    const text = Array.from({ length: Math.floor(random() * 40) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]!).join('');
    for (const [list, count] of [[textTokens, countTokens], [nameTokens, countNameTokens]] as const) {
      const tokens = list(text);
      const wanted = [...new Set([...tokens.slice(0, 3), 'a', 'zz', 'ß'])];
      const counts = new Map<string, number>();
      const total = count(text, wanted, counts);
      expect({ text, tokens: total, counts: Object.fromEntries(counts) }).toEqual({ text, ...expected(tokens, wanted) });
    }
  }
  const counts = new Map<string, number>();
  expect(countTokens('Read a file, read it again.', ['read'], counts)).toBe(6);
  expect(Object.fromEntries(counts)).toEqual({ read: 2 });
});
