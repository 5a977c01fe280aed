import { atLeast, PIN_KINDS, type FuzzSection, type Level, type ProbeFinding } from '../mcp/index.ts';
import type { CheckResult } from './check.ts';
import { toolName, type ReportedServerRun } from './probe-sarif.ts';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    // XML 1.0 cannot carry most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '\uFFFD');

/**
 * JUnit XML for `caplab check --junit FILE`: one testcase per scenario; a
 * failure carries the observed class and kind, and an expectations case's
 * failure names each failed check id (in its message, and one body line each
 * with what was expected and observed). Times are omitted on purpose:
 * the report is deterministic and performance is measured elsewhere.
 */
export function junitXml(results: readonly CheckResult[]): string {
  const failures = results.filter((r) => !r.passed).length;
  const cases = results.map((r) => {
    const open = `    <testcase classname="caplab.check.${escape(r.transport)}" name="${escape(r.id)}">`;
    if (r.passed) return `${open}\n      <system-out>${escape(`expected: ${r.expected}; observed: ${r.observed}`)}</system-out>\n    </testcase>`;
    const type = r.failure ? `${r.failure.class}/${r.failure.kind}` : 'expectation';
    const failed = (r.checks ?? []).filter((check) => check.verdict !== 'pass');
    const named = failed.length > 0 ? `failed checks: ${failed.map((check) => check.id).join(', ')}; ` : '';
    const body = [r.failure?.message ?? r.observed, ...failed.map((check) => `${check.id}: expected ${check.condition}; observed ${check.evidence}`)].join('\n');
    return `${open}\n      <failure message="${escape(`${named}expected ${r.expected}; observed ${r.observed}`)}" type="${escape(type)}">${escape(body)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="caplab check" tests="${results.length}" failures="${failures}">`,
    `  <testsuite name="caplab.check" tests="${results.length}" failures="${failures}" errors="0" skipped="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** A probe finding as a JUnit body line. */
const findingText = (f: ProbeFinding): string => `${f.level ?? 'error'} ${f.class}/${f.kind} [${f.basis}]${toolName(f.tool) !== undefined ? ` ${toolName(f.tool)}:` : ''} ${f.message} — ${f.evidence}`;

/** The kinds of a session as a whole (not of the listing): what ended it and what its messages did. */
const SESSION_KINDS = new Set(['server_request', 'list_changed_undeclared', 'tools_changed', 'ping_unanswered', 'discover_unanswered']);

/** One testcase: failed when a finding reaches `failOn`; every finding listed either way. */
function probeCase(suite: string, name: string, findings: readonly ProbeFinding[], failOn: Level, note?: string): { xml: string; failed: boolean } {
  const open = `    <testcase classname="caplab.probe.${escape(suite)}" name="${escape(name)}">`;
  const failing = findings.filter((f) => atLeast(f.level ?? 'error', failOn));
  const out = [note, ...findings.map(findingText)].filter((line): line is string => line !== undefined).join('\n');
  const body = out === '' ? '' : `\n      <system-out>${escape(out)}</system-out>`;
  if (failing.length === 0) return { xml: `${open}${body}\n    </testcase>`, failed: false };
  const message = `${failing.length} finding(s) at or above ${failOn}: ${[...new Set(failing.map((f) => f.kind))].join(', ')}`;
  return { xml: `${open}\n      <failure message="${escape(message)}" type="${escape(`${failing[0]!.class}/${failing[0]!.kind}`)}">${escape(failing.map(findingText).join('\n'))}</failure>${body}\n    </testcase>`, failed: true };
}

/** A server's run as JUnit reads it: with its pins (compared or recorded) and its fuzzing, when asked for. */
type JunitRun = ReportedServerRun & { readonly pinned?: boolean; readonly fuzz?: FuzzSection };

/** A testcase per fuzzed tool (its findings; the counts as a note), and one for fuzz findings of no tool (a changed listing, a restart that failed). */
function fuzzCases(run: JunitRun, failOn: Level): { xml: string; failed: boolean }[] {
  if (!run.fuzz) return [];
  const { tools, findings, seed } = run.fuzz;
  const cases = tools.map((tool) => probeCase(run.name, `fuzz ${tool.name}`, findings.filter((f) => f.tool === tool.name), failOn, `seed ${seed}: ${tool.sent} of ${tool.drawn} sent (${tool.valid} valid, ${tool.invalid} invalid)${tool.stopped ? `; ${tool.stopped}` : ''}`));
  const toolless = findings.filter((f) => f.tool === undefined);
  return toolless.length > 0 ? [...cases, probeCase(run.name, 'fuzz session', toolless, failOn)] : cases;
}

/** The testcases of one server: listing, session, each call, pins (when compared or recorded), each fuzzed tool. */
function serverCases(run: JunitRun, failOn: Level): { xml: string; failed: boolean }[] {
  const { findings, calls, failure } = run.report;
  const listing = findings.filter((f) => !SESSION_KINDS.has(f.kind) && !PIN_KINDS.has(f.kind));
  const session = [...findings.filter((f) => SESSION_KINDS.has(f.kind)), ...(failure ? [failure] : [])];
  const cases = [probeCase(run.name, 'listing', listing, failOn), probeCase(run.name, 'session', session, failOn)];
  calls.forEach((call, index) => cases.push(probeCase(run.name, `call ${index + 1} ${toolName(call.tool) ?? '?'}`, call.findings, failOn, `outcome ${call.outcome}`)));
  if (run.pinned !== undefined) cases.push(probeCase(run.name, 'pins', findings.filter((f) => PIN_KINDS.has(f.kind)), failOn));
  return [...cases, ...fuzzCases(run, failOn)];
}

/**
 * JUnit XML for `caplab probe --junit FILE`: one testsuite per server, its
 * testcases the listing, the session, each call, the pins and each fuzzed
 * tool; a testcase
 * fails when one of its findings is at or above `--fail-on`. No times, as
 * `check`'s: the same probe gives the same file.
 */
export function probeJunitXml(runs: readonly JunitRun[], failOn: Level): string {
  const suites = runs.map((run) => ({ run, cases: serverCases(run, failOn) }));
  const total = suites.reduce((n, s) => n + s.cases.length, 0);
  const failed = suites.reduce((n, s) => n + s.cases.filter((c) => c.failed).length, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="caplab probe" tests="${total}" failures="${failed}">`,
    ...suites.flatMap(({ run, cases }) => [
      `  <testsuite name="${escape(run.name)}" tests="${cases.length}" failures="${cases.filter((c) => c.failed).length}" errors="0" skipped="0">`,
      ...cases.map((c) => c.xml),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ].join('\n');
}
