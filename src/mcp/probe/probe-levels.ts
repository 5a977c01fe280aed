/**
 * Levels on a report's findings: each kind's default (PROBE_RULES), changed
 * by `--level KIND=LEVEL`, never below `error` for a finding that rests on a
 * spec MUST; and whether a report reaches `--fail-on`.
 */
import type { ProbeFinding } from './probe-finding.ts';
import { atLeast, basesOf, LEVELS, PROBE_RULES, type Level } from './probe-rules.ts';

/** `--level` as given: kind → level. */
export type LevelOverrides = Readonly<Record<string, Level>>;

/**
 * One `--level KIND=LEVEL`, or why it is refused: an unknown kind or level,
 * or a level below `error` for a kind a spec MUST rests on.
 */
export function parseLevelOverride(spec: string): { readonly kind: string; readonly level: Level } | string {
  const at = spec.indexOf('=');
  const kind = at < 0 ? spec : spec.slice(0, at);
  const level = at < 0 ? '' : spec.slice(at + 1);
  if (at < 0 || !(LEVELS as readonly string[]).includes(level)) return `--level needs KIND=LEVEL, LEVEL one of ${LEVELS.join(', ')} (got ${JSON.stringify(spec)})`;
  const rule = Object.hasOwn(PROBE_RULES, kind) ? PROBE_RULES[kind] : undefined;
  if (!rule) return `--level ${spec}: probe reports no kind ${JSON.stringify(kind)} (see README's table of kinds)`;
  if (level !== 'error' && basesOf(rule).includes('spec MUST')) return `--level ${spec}: ${kind} rests on a spec MUST; it stays an error`;
  return { kind, level: level as Level };
}

/** A finding's level: a spec MUST is an error whatever was asked; else the override, else its kind's default (an unknown kind: error). */
export function levelOf(finding: Pick<ProbeFinding, 'kind' | 'basis'>, overrides: LevelOverrides = {}): Level {
  if (finding.basis === 'spec MUST') return 'error';
  if (Object.hasOwn(overrides, finding.kind)) return overrides[finding.kind]!;
  return Object.hasOwn(PROBE_RULES, finding.kind) ? PROBE_RULES[finding.kind]!.level : 'error';
}

const leveled = (finding: ProbeFinding, overrides: LevelOverrides): ProbeFinding => ({ ...finding, level: levelOf(finding, overrides) });

/** The parts of a report that hold findings. */
interface HasFindings {
  readonly findings: readonly ProbeFinding[];
  readonly calls: readonly { readonly findings: readonly ProbeFinding[] }[];
  readonly failure?: ProbeFinding;
}

/** The report with a level on every finding: the session's, each call's and what ended the session. */
export function withLevels<R extends HasFindings>(report: R, overrides: LevelOverrides = {}): R {
  return {
    ...report,
    findings: report.findings.map((f) => leveled(f, overrides)),
    calls: report.calls.map((call) => ({ ...call, findings: call.findings.map((f) => leveled(f, overrides)) })),
    ...(report.failure ? { failure: leveled(report.failure, overrides) } : {}),
  };
}

/** Every finding of a report: the session's, then each call's, then what ended it. */
export function allFindings(report: HasFindings): readonly ProbeFinding[] {
  return [...report.findings, ...report.calls.flatMap((call) => call.findings), ...(report.failure ? [report.failure] : [])];
}

/** Whether some finding is at or above `failOn` (a finding without a level counts as an error). */
export function reachesFailOn(findings: readonly ProbeFinding[], failOn: Level): boolean {
  return findings.some((f) => atLeast(f.level ?? 'error', failOn));
}
