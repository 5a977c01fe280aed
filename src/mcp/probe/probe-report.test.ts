import { expect, test } from 'bun:test';
import { LIMITS, redactorFor } from '../../contract/index.ts';
import { finding } from './probe-finding.ts';
import { reportFinding, reportServer, reportStderr, reportTool } from './probe-report.ts';

const redactor = redactorFor({ TOKEN: 'sekret-token' });

test('a finding as reported: its message cut at reportValueBytes and marked; placed values redacted; a long tool name clipped', () => {
  const long = finding('protocol', 'k', 'caplab host rule', `${'m'.repeat(LIMITS.reportValueBytes)} sekret-token`, { tool: 't'.repeat(5_000), evidence: 'sekret-token seen' });
  const reported = reportFinding(long, redactor);
  expect(reported.message).toBe(`${'m'.repeat(LIMITS.reportValueBytes)}…`);
  expect(reported.evidence).toBe('[redacted:TOKEN] seen');
  expect(reported.tool).toMatchObject({ clipped: 'bytes', bytes: 5_000 });
  const short = reportFinding(finding('protocol', 'k', 'spec MUST', 'short', { tool: 'read', evidence: 'e' }), redactor);
  expect(short).toEqual({ class: 'protocol', kind: 'k', basis: 'spec MUST', message: 'short', tool: 'read', evidence: 'e' });
});

test('evidence cut through a placed value keeps no part of it', () => {
  // The cut at evidenceChars falls inside the token: its first half must not survive.
  const evidence = `${'e'.repeat(LIMITS.evidenceChars - 7)}sekret-token and more`;
  const reported = reportFinding(finding('protocol', 'k', 'spec MUST', 'm', { evidence }), redactor);
  expect(reported.evidence).toBe(`${'e'.repeat(LIMITS.evidenceChars - 7)}…`);
});

test('stderr keeps its last reportValueBytes, with a placed value cut at its start trimmed', () => {
  const tail = `sekret-token${'s'.repeat(LIMITS.reportValueBytes - 4)}`;
  const kept = reportStderr(tail, redactor);
  expect(kept).toBe(`…${'s'.repeat(LIMITS.reportValueBytes - 4)}`);
  expect(reportStderr('short\n', redactor)).toBe('short\n');
});

test('stderr stays within reportValueBytes when its markers are longer than the values they replace', () => {
  const short = redactorFor({ SHORT_SECRET: 'abcd' });
  const kept = reportStderr(`${'abcd '.repeat(2_000)}end\n`, short);
  expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(LIMITS.reportValueBytes);
  expect(kept).toEndWith('[redacted:SHORT_SECRET] end\n');
  expect(kept).not.toContain('abcd');
});

test('serverInfo: name, version, title, websiteUrl and icons in place; every other member under extras, bounded as one value', () => {
  const info = { name: 'srv', version: '1', title: 'T', websiteUrl: 'https://example.invalid', icons: [{ src: 'i.png' }], vendor: { a: 1 }, build: 'x' };
  expect(reportServer(info, redactor)).toEqual({ name: 'srv', version: '1', title: 'T', websiteUrl: 'https://example.invalid', icons: [{ src: 'i.png' }], extras: { vendor: { a: 1 }, build: 'x' } });
  expect(reportServer({ name: 'srv', version: '1' }, redactor)).toEqual({ name: 'srv', version: '1' });
});

test('a tool: title and icons kept, annotations bounded', () => {
  const tool = { name: 'read', title: 'Read', inputSchemaHash: 'h', annotations: { readOnlyHint: true }, icons: [{ src: 'r.png' }] };
  expect(reportTool(tool, redactor)).toEqual(tool);
});
