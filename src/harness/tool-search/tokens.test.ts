import { expect, test } from 'bun:test';
import { nameTokens, textTokens } from './tokens.ts';

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
