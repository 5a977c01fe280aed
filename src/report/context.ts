import type { FoundLine, FoundRun } from './found.ts';
import { html, type Html } from './html.ts';
import { viewPayload, type PayloadView, type ToolResult } from './payloads.ts';
import { str } from './values.ts';

/** What every renderer may look up beyond its own event. */
export interface Context {
  readonly run: FoundRun;
  /** Whether the record verifies; when not, every section says "unverified: as found". */
  readonly verified: boolean;
  /** The record format its seal names, as found. */
  readonly format?: string;
  readonly lines: readonly FoundLine[];
  /** Each request's payload as read, by the request's ledger index. */
  readonly payloads: ReadonlyMap<number, PayloadView>;
  /** Each call's tool_result as the first later request of its agent shows it, by the call's ledger index. */
  readonly results: ReadonlyMap<number, ToolResult>;
  /** The ledger index of a call by its agent (`''` the run's own) and tool call id. */
  callAt(scope: string, toolCallId: string): number | undefined;
}

/** The agent an event belongs to: its `agent_id`, or `''` for the run's own. */
export const scopeOf = (line: FoundLine): string => str(line.event, 'agent_id') ?? '';

/** Reads every request's payload once and pairs each call with the tool_result that answered it. */
export function contextOf(run: FoundRun, verified: boolean): Context {
  const format = str(run.seal, 'format');
  const payloads = new Map<number, PayloadView>();
  const results = new Map<number, ToolResult>();
  const calls = new Map<string, number>();
  const pending = new Map<string, FoundLine[]>();
  for (const line of run.lines) {
    const type = str(line.event, 'type');
    const scope = scopeOf(line);
    const callId = str(line.event, 'tool_call_id');
    if (type === 'call' && callId !== undefined) {
      calls.set(`${scope}\u0000${callId}`, line.index);
      pending.set(scope, [...(pending.get(scope) ?? []), line]);
    }
    if (type !== 'request' || !line.event) continue;
    const view = viewPayload(run, line.event);
    payloads.set(line.index, view);
    const waiting = pending.get(scope) ?? [];
    const answered = waiting.filter((call) => view.results.has(str(call.event, 'tool_call_id')!));
    for (const call of answered) results.set(call.index, view.results.get(str(call.event, 'tool_call_id')!)!);
    pending.set(scope, waiting.filter((call) => !answered.includes(call)));
  }
  return { run, verified, ...(format !== undefined ? { format } : {}), lines: run.lines, payloads, results, callAt: (scope, id) => calls.get(`${scope}\u0000${id}`) };
}

/** A section of the page: its heading, and "unverified: as found" on it when the record does not verify. */
export function section(title: string, body: Html, context: Context, cls = ''): Html {
  const label = context.verified ? html`` : html` <span class="unverified">unverified: as found</span>`;
  return html`<section class="${cls}"><h2>${title}${label}</h2>${body}</section>`;
}
