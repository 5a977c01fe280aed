import { canonicalJson } from '../contract/index.ts';
import type { Event, ReadRecorded, VerifyFailure } from '../ledger/index.ts';
import { failAt } from '../ledger/index.ts';
import { TOOL_SEARCH, toolDisclosure } from './disclosure.ts';
import { canonicalOf, eventAt, parseJson } from './record-checks.ts';
import { searchPayload } from './tool-search/tool-search.ts';

type RequestEvent = Event<'request'>;

/** The deferral fields of a request event as recorded (format 8); absent before it. */
interface RecordedDisclosure {
  readonly disclosed?: unknown;
  readonly visibleBytes?: unknown;
  readonly deferred: readonly string[];
}

function recordedDisclosure(request: RequestEvent): RecordedDisclosure {
  const fields = request as { disclosed_tools?: unknown; visible_tool_bytes?: unknown };
  const deferred = request.tools.filter((tool) => 'deferred' in tool && tool.deferred === true).map((tool) => tool.name);
  return { disclosed: fields.disclosed_tools, visibleBytes: fields.visible_tool_bytes, deferred };
}

/**
 * Deferred tools, re-checked from the payload bytes (SPEC F-DISCOVERY): in a
 * run that defers (run_start `defer`), every request's `disclosed_tools`,
 * `visible_tool_bytes` and the tools it marks `deferred` must be what
 * `toolDisclosure` reads from its payload; a call to a tool its request
 * deferred entered its handler only if that request disclosed it; and each
 * ToolSearch call that answered is searched again over its producing
 * payload: the references the next payload carries for it must be exactly
 * that search's. A run that defers nothing records none of these fields.
 */
export function checkDeferral(events: readonly Event[], readFile: ReadRecorded): VerifyFailure | undefined {
  const start = events.find((e) => e.type === 'run_start');
  const defers = start !== undefined && 'defer' in start && start.defer !== undefined;
  const payloads = new Map<string, Uint8Array>();
  const requests = new Map<string, RequestEvent>();
  for (const event of events) {
    if (event.type !== 'request') continue;
    requests.set(event.request_id, event);
    const wrong = defers ? disclosureMismatch(event, readFile, payloads) : undeferredFields(event);
    if (wrong) return failAt('disclosure_mismatch', `request ${event.request_id}: ${wrong}`, eventAt(event));
  }
  return defers ? checkDeferredCalls(events, requests, payloads) : undefined;
}

/** A run that defers nothing: no request says anything of deferral. */
function undeferredFields(request: RequestEvent): string | undefined {
  const recorded = recordedDisclosure(request);
  return recorded.disclosed !== undefined || recorded.visibleBytes !== undefined || recorded.deferred.length > 0 ? 'records deferral fields, but run_start defers nothing' : undefined;
}

function disclosureMismatch(request: RequestEvent, readFile: ReadRecorded, payloads: Map<string, Uint8Array>): string | undefined {
  const ref = request.files.find((f) => f.role === 'request_payload');
  const bytes = ref ? readFile(ref.path) : undefined;
  if (!bytes?.ok) return 'has no readable payload file';
  payloads.set(request.request_id, bytes.value);
  const shown = toolDisclosure(bytes.value);
  const recorded = recordedDisclosure(request);
  if (canonicalOf(recorded.disclosed ?? null) !== canonicalJson(shown.disclosed)) return `disclosed_tools ${JSON.stringify(recorded.disclosed ?? null)}, its payload discloses ${JSON.stringify(shown.disclosed)}`;
  if (recorded.visibleBytes !== shown.visibleToolBytes) return `visible_tool_bytes ${JSON.stringify(recorded.visibleBytes ?? null)}, its payload shows ${shown.visibleToolBytes}`;
  if (canonicalJson([...recorded.deferred].sort()) !== canonicalJson([...shown.deferred].sort())) return `marks ${JSON.stringify(recorded.deferred)} deferred, its payload defers ${JSON.stringify(shown.deferred)}`;
  return undefined;
}

/** Each call against its producing request's disclosure, and each answered ToolSearch against the next payload. */
function checkDeferredCalls(events: readonly Event[], requests: ReadonlyMap<string, RequestEvent>, payloads: ReadonlyMap<string, Uint8Array>): VerifyFailure | undefined {
  const order = [...requests.keys()];
  for (const event of events) {
    if (event.type !== 'call' || !event.handler_entered) continue;
    const request = requests.get(event.request_id);
    if (!request) continue; // checkRecord has tied every call to a request before this
    const recorded = recordedDisclosure(request);
    const disclosed = Array.isArray(recorded.disclosed) ? recorded.disclosed : [];
    if (recorded.deferred.includes(event.name) && !disclosed.includes(event.name)) {
      return failAt('undisclosed_call', `call ${event.tool_call_id} ran deferred tool ${event.name}, which request ${event.request_id} did not disclose`, eventAt(event));
    }
    if (event.name !== TOOL_SEARCH || event.via !== 'host' || event.outcome.ok !== true) continue;
    const next = order[order.indexOf(event.request_id) + 1];
    const wrong = next === undefined ? undefined : searchMismatch(event, payloads.get(event.request_id)!, payloads.get(next)!);
    if (wrong) return failAt('search_mismatch', `call ${event.tool_call_id}: ${wrong}`, eventAt(event));
  }
  return undefined;
}

function searchMismatch(call: Event<'call'>, producing: Uint8Array, next: Uint8Array): string | undefined {
  const input = call.arguments.original as { query?: unknown; max_results?: unknown } | null;
  if (typeof input?.query !== 'string' || typeof input.max_results !== 'number') return 'a ToolSearch that answered without a query and max_results';
  const expected = searchPayload(producing, { query: input.query, max_results: input.max_results }).references;
  const carried = referencesIn(next, call.tool_call_id);
  if (carried === undefined) return 'the next payload carries no tool_result for it';
  return canonicalJson(carried) === canonicalJson(expected) ? undefined : `the next payload references ${JSON.stringify(carried)}; searching its producing payload again gives ${JSON.stringify(expected)}`;
}

/** The tool_reference names of the tool_result answering `toolUseId` in a payload; undefined when it has none. */
function referencesIn(payload: Uint8Array, toolUseId: string): string[] | undefined {
  const messages = (parseJson(payload) as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return undefined;
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      const b = block as { type?: unknown; tool_use_id?: unknown; content?: unknown } | null;
      if (b?.type !== 'tool_result' || b.tool_use_id !== toolUseId || !Array.isArray(b.content)) continue;
      return b.content.flatMap((item: { type?: unknown; tool_name?: unknown } | null) => (item?.type === 'tool_reference' && typeof item.tool_name === 'string' ? [item.tool_name] : []));
    }
  }
  return undefined;
}
