import * as v from 'valibot';
import { sha256Hex } from '../../contract/index.ts';
import type { Event, ReadRecorded, VerifyFailure } from '../../ledger/index.ts';
import { failAt } from '../../ledger/index.ts';
import { contentSha256, textBlock } from '../../pipeline/index.ts';
import { eventAt, parseJson } from '../record-checks.ts';
import { agentIdOf, finalText } from './nested-loop.ts';

/** A subagent's part of the record: its start, its own events in order, its end. */
export interface SubagentLevel {
  readonly start: Event<'subagent_start'>;
  readonly events: readonly Event[];
  readonly end: Event<'subagent_end'> | undefined;
}

/** The record split by loop: the run's own events (no `agent_id`, no subagent event), and each subagent's. */
export interface Levels {
  readonly top: readonly Event[];
  readonly agents: readonly SubagentLevel[];
}

const agentOf = (event: Event): string | undefined => ('agent_id' in event && typeof event.agent_id === 'string' ? event.agent_id : undefined);

/**
 * Splits the record by loop. A subagent's events lie between its
 * subagent_start and subagent_end, each naming its `agent_id`; one naming
 * no started subagent, or outside its bounds, is `misplaced_event`.
 */
export function splitLevels(events: readonly Event[]): Levels | VerifyFailure {
  const top: Event[] = [];
  const agents: { start: Event<'subagent_start'>; events: Event[]; end: Event<'subagent_end'> | undefined }[] = [];
  let open: (typeof agents)[number] | undefined;
  for (const event of events) {
    if (event.type === 'subagent_start') {
      if (open) return failAt('misplaced_event', `subagent ${event.agent_id} starts inside subagent ${open.start.agent_id}`, eventAt(event));
      if (agents.some((a) => a.start.agent_id === event.agent_id)) return failAt('subagent_mismatch', `subagent ${event.agent_id} starts twice`, eventAt(event));
      open = { start: event, events: [], end: undefined };
      agents.push(open);
    } else if (event.type === 'subagent_end') {
      if (!open || open.start.agent_id !== event.agent_id) return failAt('misplaced_event', `subagent_end of ${event.agent_id} ends no running subagent`, eventAt(event));
      open.end = event;
      open = undefined;
    } else if (agentOf(event) !== undefined) {
      if (!open || open.start.agent_id !== agentOf(event)) return failAt('misplaced_event', `line ${event.seq + 1} names subagent ${agentOf(event)}, which is not running there`, eventAt(event));
      open.events.push(event);
    } else {
      if (open && event.type !== 'run_end') return failAt('misplaced_event', `line ${event.seq + 1} of the run's own loop lies inside subagent ${open.start.agent_id}`, eventAt(event));
      top.push(event);
    }
  }
  return { top, agents };
}

/** Whether a subagent's last response must have all its calls recorded (it stopped at no bound or refusal). */
export const levelCompleted = (level: SubagentLevel): boolean => level.end !== undefined && ['final_answer', 'script_exhausted', 'max_requests'].includes(level.end.stop);

const Blocks = v.looseObject({ content: v.array(v.looseObject({ type: v.string(), text: v.optional(v.string()) })) });

/**
 * Each subagent against its own records and its Agent call: its id is its
 * action's, it starts after the parent response that asked for that call
 * and ends right before the call; its ids are its own (`<action>.req-NN`,
 * `.act-NN`); subagent_end's counts are its events'; its final text's hash
 * is the text of its last recorded response, and the Agent call's result
 * is exactly that text (which the parent's next payload then carries, as
 * every call's result is tied). Any difference is `subagent_mismatch`.
 */
export function checkSubagents(events: readonly Event[], levels: Levels, readFile: ReadRecorded): VerifyFailure | undefined {
  for (const level of levels.agents) {
    const wrong = levelMismatch(events, level, readFile);
    if (wrong) return failAt('subagent_mismatch', `subagent ${level.start.agent_id}: ${wrong.message}`, eventAt(wrong.at));
  }
  return undefined;
}

function levelMismatch(events: readonly Event[], level: SubagentLevel, readFile: ReadRecorded): { message: string; at: Event } | undefined {
  const { start, end } = level;
  if (start.agent_id !== agentIdOf(start.action_id)) return { message: `its id is not agent-${start.action_id}, its Agent action's`, at: start };
  const prefix = `${start.action_id}.`;
  const foreign = level.events.find((e) => (e.type === 'request' || e.type === 'response' ? !e.request_id.startsWith(`${prefix}req-`) : e.type === 'call' ? !e.action_id.startsWith(`${prefix}act-`) || !e.request_id.startsWith(`${prefix}req-`) : false));
  if (foreign) return { message: `line ${foreign.seq + 1} names an id outside its own (${prefix}req-NN, ${prefix}act-NN)`, at: foreign };
  if (!end) return undefined;
  const call = events.find((e): e is Event<'call'> => e.type === 'call' && e.action_id === start.action_id && agentOf(e) === undefined);
  const next = events[end.seq + 1];
  if (call && (next !== call || call.tool_call_id !== start.tool_call_id || call.request_id !== start.request_id)) return { message: `its Agent call ${start.action_id} is not the parent's call right after its end, with its tool_use and request ids`, at: end };
  const requests = level.events.filter((e) => e.type === 'request').length;
  const calls = level.events.filter((e) => e.type === 'call').length;
  if (end.requests !== requests || end.tool_calls !== calls) return { message: `subagent_end counts ${end.requests} requests and ${end.tool_calls} calls, its records hold ${requests} and ${calls}`, at: end };
  return finalTextMismatch(level, end, call, readFile);
}

/** The final text: the last response's text blocks, hashed in subagent_end, and the Agent call's whole result. */
function finalTextMismatch(level: SubagentLevel, end: Event<'subagent_end'>, call: Event<'call'> | undefined, readFile: ReadRecorded): { message: string; at: Event } | undefined {
  if (end.final_text_sha256 === null) {
    if (end.stop === 'final_answer') return { message: 'it stopped at a final answer, but subagent_end hashes no final text', at: end };
    return call?.outcome.ok ? { message: 'it ended without a final text, but its Agent call succeeded', at: end } : undefined;
  }
  const last = [...level.events].reverse().find((e): e is Exclude<Event<'response'>, { missing: true }> => e.type === 'response' && !('missing' in e));
  const ref = last?.files[0];
  const bytes = ref ? readFile(ref.path) : undefined;
  const parsed = bytes?.ok ? v.safeParse(Blocks, parseJson(bytes.value)) : undefined;
  if (!parsed?.success) return { message: 'its last response file cannot be read for its final text', at: end };
  const text = finalText(parsed.output.content);
  if (sha256Hex(text) !== end.final_text_sha256) return { message: 'subagent_end\'s final_text_sha256 is not the text of its last recorded response', at: end };
  // A failed Agent call (an unknown outcome inside, a hook's block) carries no result to tie; a successful one carries exactly the text.
  if (call?.outcome.ok && (!('model_content_sha256' in call) || call.model_content_sha256 !== contentSha256([textBlock(text)]))) {
    return { message: `its Agent call ${call.action_id}'s result is not its final text`, at: call };
  }
  return undefined;
}
