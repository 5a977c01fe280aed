/**
 * Events against their schemas (events.ts): the writer's check before a line
 * is appended, and `verify`'s parse of every recorded line with the schemas
 * of the format its seal names.
 */
import * as v from 'valibot';
import { issuePath } from '../base/index.ts';
import { ok, type Success } from '../contract/index.ts';
import { EVENT_SCHEMAS, EVENT_TYPES, FORMAT_USES, type Event, type EventType } from './events.ts';
import { KNOWN_FORMATS, LEDGER_FORMAT_2, type RecordFormat } from './format.ts';
import type { RecordedEvent } from './read-ledger.ts';
import { LEDGER_FILE } from './rel-path.ts';
import { failAt, type VerifyFailure, type VerifyLocation } from './report.ts';

const isEventType = (type: string): type is EventType => (EVENT_TYPES as readonly string[]).includes(type);

/** Each issue as `path: message` (a union's issues, those of its members). */
function issueTexts(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.flatMap((issue) => (issue.issues && issue.issues.length > 0 ? issueTexts(issue.issues) : [`${issuePath(issue) ?? '(event)'}: ${issue.message}`]));
}

/** The issues of a whole line (envelope and data) against one format's schema of its type; undefined when it is one. */
function lineIssues(format: RecordFormat, type: EventType, line: unknown): string[] | undefined {
  const parsed = v.safeParse(EVENT_SCHEMAS[format][type].line, line);
  return parsed.success ? undefined : issueTexts(parsed.issues);
}

/**
 * Checks a line a writer is about to append against its type's schema in the
 * run's format, so no run writes an event its own `verify` refuses.
 * @throws TypeError naming every issue: an event of another shape is the program's mistake.
 */
export function assertWritable(format: RecordFormat, type: string, line: Readonly<Record<string, unknown>>): void {
  if (!isEventType(type)) throw new TypeError(`ledger: ${JSON.stringify(type)} is no event type (${EVENT_TYPES.join(', ')})`);
  const issues = lineIssues(format, type, line);
  if (issues) throw new TypeError(`ledger: not a ${type} event of ${format}: ${issues.join('; ')}`);
}

const where = ({ line, event }: RecordedEvent): VerifyLocation => ({ file: LEDGER_FILE, line, seq: event.seq, type: event.type });

/**
 * Parses every line with its type's schema in the record's format. A line of
 * no known type, or of no known format's shape, is `bad_event` (naming each
 * issue); one that is another known format's shape, not its record's, is
 * `format_mismatch`.
 */
export function parseEvents(recorded: readonly RecordedEvent[], format: RecordFormat): Success<readonly Event[]> | VerifyFailure {
  for (const entry of recorded) {
    const { type } = entry.event;
    if (!isEventType(type)) return failAt('bad_event', `line ${entry.line} has type ${JSON.stringify(type)}, which is no event of ${format} (${EVENT_TYPES.join(', ')})`, where(entry));
    const issues = lineIssues(format, type, entry.event);
    if (!issues) continue;
    const other = KNOWN_FORMATS.find((known) => known !== format && !lineIssues(known, type, entry.event));
    if (other) {
      return failAt('format_mismatch', `line ${entry.line} is a ${type} event of ${other}, not of ${format}, the format the seal names: ${issues.join('; ')}`, where(entry));
    }
    return { ...failAt('bad_event', `line ${entry.line} is not a well-formed ${type} event: ${issues.join('; ')}`, where(entry)), issues };
  }
  // Every line was just parsed with the schema of its type in this format; only the static type is new.
  return ok(recorded.map((entry) => entry.event as unknown as Event));
}

/**
 * A record names a format newer than the base one only when it uses a shape
 * that format added (`FORMAT_USES`), so every run that does not keeps the
 * bytes, and the format, it had before.
 */
export function checkFormatUsed(events: readonly Event[], format: RecordFormat): VerifyFailure | undefined {
  if (format === LEDGER_FORMAT_2) return undefined;
  const { shapes, used } = FORMAT_USES[format];
  if (used(events)) return undefined;
  const start = events[0];
  const at: VerifyLocation = start ? { file: LEDGER_FILE, line: start.seq + 1, seq: start.seq, type: start.type } : { file: LEDGER_FILE };
  return failAt('format_mismatch', `the record names format ${format} but uses none of its shapes (${shapes})`, at);
}
