import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_KINDS } from '../wire/index.ts';
import { levelOf, parseLevelOverride, reachesFailOn } from './probe-levels.ts';
import { basesOf, PROBE_RULES } from './probe-rules.ts';

const root = join(import.meta.dir, '../../..');

test("README's table of probe's kinds is PROBE_RULES, row for row", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('<!-- probe-rules:start -->'), readme.indexOf('<!-- probe-rules:end -->'));
  const rows = table.split('\n').filter((line) => line.startsWith('| `'));
  const expected = Object.entries(PROBE_RULES).map(([kind, r]) => `| \`${kind}\` | ${r.class} | ${basesOf(r).join(' / ')} | ${r.level} | ${r.help} |`);
  expect(rows).toEqual(expected);
});

/** Probe's own sources (test kits and tests left out). */
function probeSources(): string[] {
  return readdirSync(import.meta.dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.parentPath.includes('testing'))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
}

test('every kind probe raises (finding, refuse, fail) is a rule, with the class and a basis it is raised with', () => {
  const raised = probeSources().flatMap((text) => [...text.matchAll(/\b(?:finding|refuse|fail)\(\s*'([a-z_]+)',\s*'([a-z_]+)',\s*('[^']+'|[\w.]+)?/g)]);
  expect(raised.length).toBeGreaterThan(40);
  const wrong = raised.flatMap(([, errorClass, kind, basis]) => {
    // A usage failure (a pin file caplab cannot read: exit 2) is no finding.
    if (errorClass === 'invalid_arguments') return [];
    const rule = Object.hasOwn(PROBE_RULES, kind!) ? PROBE_RULES[kind!] : undefined;
    if (!rule) return [`${kind}: no rule`];
    if (rule.class !== errorClass) return [`${kind}: raised as ${errorClass}, rule says ${rule.class}`];
    const literal = basis?.startsWith("'") ? basis.slice(1, -1) : undefined;
    if (literal !== undefined && ['spec MUST', 'spec SHOULD', 'caplab host rule'].includes(literal) && !basesOf(rule).includes(literal as never)) return [`${kind}: raised on ${literal}`];
    return [];
  });
  expect(wrong).toEqual([]);
  const pins = probeSources().flatMap((text) => [...text.matchAll(/\bpinFinding\(\s*'([a-z_]+)'/g)].map((m) => m[1]!));
  // tool_changed and tool_meta_changed are chosen by what moved (pin-compare.ts).
  expect(new Set([...pins, 'tool_changed', 'tool_meta_changed']).size).toBe(9);
  expect(pins.filter((kind) => PROBE_RULES[kind]?.class !== 'evidence')).toEqual([]);
  // The closing barrier's kind is built from the era's method.
  expect(['ping_unanswered', 'discover_unanswered'].every((kind) => Object.hasOwn(PROBE_RULES, kind))).toBe(true);
});

/** mcp kinds only the host session, the fixed profile, `serve` or config raise: never in a probe report. */
const NOT_PROBES = new Set(['output_invalid', 'unexpected_tools', 'pagination_unsupported', 'tool_drift', 'result_conflict', 'tool_error', 'server_closed']);

/** mcp kinds the task engine reports as findings beside a call that goes on (a pollInterval below the floor is polled at the floor): warnings. */
const FINDINGS_ONLY = new Set(['task_poll_interval']);

test('every failure of mcp\'s table that can end a probe session has a rule (a kind added to the table fails here until it gets one)', () => {
  const ending = Object.entries(MCP_KINDS).filter(([kind, row]) => row.class !== 'invalid_arguments' && row.class !== 'permission_denied' && !NOT_PROBES.has(kind));
  const missing = ending.filter(([kind]) => !Object.hasOwn(PROBE_RULES, kind)).map(([kind]) => kind);
  expect(missing).toEqual([]);
  for (const [kind] of ending.filter(([kind]) => !FINDINGS_ONLY.has(kind))) expect({ kind, level: PROBE_RULES[kind]!.level }).toEqual({ kind, level: 'error' });
  for (const kind of FINDINGS_ONLY) expect({ kind, level: PROBE_RULES[kind]!.level }).toEqual({ kind, level: 'warning' });
});

test('defaults: MUST error, SHOULD warning, host rule warning but for the named errors; a MUST finding stays an error whatever --level says', () => {
  expect(levelOf({ kind: 'input_schema', basis: 'spec MUST' })).toBe('error');
  expect(levelOf({ kind: 'text_without_structured', basis: 'spec SHOULD' })).toBe('warning');
  expect(levelOf({ kind: 'oversized_description', basis: 'caplab host rule' })).toBe('warning');
  for (const kind of ['duplicate_tool', 'tools_changed', 'is_error', 'jsonrpc_error', 'unlisted_tool']) expect(levelOf({ kind, basis: 'caplab host rule' })).toBe('error');
  expect(levelOf({ kind: 'oversized_description', basis: 'caplab host rule' }, { oversized_description: 'note' })).toBe('note');
  expect(levelOf({ kind: 'input_schema', basis: 'spec MUST' }, { input_schema: 'note' })).toBe('error');
  expect(levelOf({ kind: 'never_heard_of', basis: 'caplab host rule' })).toBe('error');
});

test('--level: KIND=LEVEL; an unknown kind or level, or lowering a MUST, is refused', () => {
  expect(parseLevelOverride('oversized_description=error')).toEqual({ kind: 'oversized_description', level: 'error' });
  expect(parseLevelOverride('input_schema=error')).toEqual({ kind: 'input_schema', level: 'error' });
  expect(parseLevelOverride('input_schema=warning')).toContain('rests on a spec MUST');
  expect(parseLevelOverride('nope=warning')).toContain('probe reports no kind "nope"');
  expect(parseLevelOverride('oversized_description=fatal')).toContain('LEVEL one of error, warning, note');
  expect(parseLevelOverride('oversized_description')).toContain('KIND=LEVEL');
});

test('--fail-on: a warning reaches warning and note, not error', () => {
  const found = [{ class: 'protocol', kind: 'x', basis: 'caplab host rule', message: '', evidence: '', level: 'warning' }] as const;
  expect([reachesFailOn(found, 'error'), reachesFailOn(found, 'warning'), reachesFailOn(found, 'note')]).toEqual([false, true, true]);
  const { level: _, ...unleveled } = found[0];
  expect(reachesFailOn([unleveled], 'error')).toBe(true);
});
