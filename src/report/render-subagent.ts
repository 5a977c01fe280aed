import type { Context } from './context.ts';
import type { Found, FoundLine } from './found.ts';
import { html, idAttr, type Html } from './html.ts';
import { facts, hash, num, obj, str, strings } from './values.ts';

/** `subagent_start` (format 11): the type and tools an `Agent` call's nested loop ran with; its own events nest inside. */
export function renderSubagentStart(event: Found, line: FoundLine, _context: Context, nested: Html): Html {
  const source = obj(event, 'source');
  const recorded = obj(event, 'recorded');
  const notApplied = strings(event, 'not_applied');
  const extra = strings(event, 'additional_context');
  return html`<details class="subagent" open ${idAttr(line.index)}><summary>subagent ${str(event, 'agent_id') ?? '?'}: ${str(event, 'agent_type') ?? '?'} <span class="muted">seq ${line.index}</span></summary>${facts([
    ['description', str(event, 'description')],
    ['type source', source ? `${str(source, 'kind') ?? '?'} ${str(source, 'path') ?? ''}` : undefined],
    ['type sha256', source?.['sha256'] === undefined ? undefined : hash(source['sha256'])],
    ['tools', strings(event, 'tools').join(', ') || 'none'],
    ['prompt sha256', event['prompt_sha256'] === undefined ? undefined : hash(event['prompt_sha256'])],
    ['recorded, not applied', recorded ? ['model', 'effort', 'name'].filter((k) => str(recorded, k) !== undefined).map((k) => `${k} ${str(recorded, k)}`).join(', ') || undefined : undefined],
    ['fields not applied', notApplied.length > 0 ? notApplied.join(', ') : undefined],
    ['SubagentStart context (not applied)', extra.length > 0 ? html`<ul>${extra.map((c) => html`<li>${c}</li>`)}</ul>` : undefined],
  ])}${nested}</details>`;
}

/** `subagent_end` (format 11): how the nested loop stopped, its counts and its final text's hash. */
export function renderSubagentEnd(event: Found, line: FoundLine): Html {
  const stop = str(event, 'stop') ?? '?';
  return html`<div class="event" ${idAttr(line.index)}><h3>subagent ${str(event, 'agent_id') ?? '?'} ended: <span class="badge ${stop === 'final_answer' ? 'ok' : 'bad'}">${stop}</span> <span class="muted">seq ${line.index}</span></h3>${facts([
    ['requests', num(event, 'requests')],
    ['tool calls', num(event, 'tool_calls')],
    ['final text sha256', event['final_text_sha256'] === null ? 'none' : event['final_text_sha256'] === undefined ? undefined : hash(event['final_text_sha256'])],
    ['reason', str(event, 'reason')],
  ])}</div>`;
}
