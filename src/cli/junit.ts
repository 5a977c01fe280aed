import type { CheckResult } from './check.ts';

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
