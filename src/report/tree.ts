import type { FoundLine } from './found.ts';
import { str } from './values.ts';

/** One event of the timeline and the events nested inside it. */
export interface Node {
  readonly line: FoundLine;
  readonly children: Node[];
}

const key = (scope: string, id: string): string => `${scope}\u0000${id}`;

/**
 * Nests the timeline's events, in ledger order, by the ids they carry: a
 * request's response and calls (same `request_id`) inside it; a subagent's
 * events (those carrying its `agent_id`) inside its `subagent_start`, and
 * that inside the parent's call named by the start's `parent_tool_call_id`
 * (or `tool_call_id`) — the parent's `Agent` call, which the ledger writes
 * after the subagent's end: a start seen first waits at the top, in its
 * place, until that call claims it. A request id or call id
 * is looked up within one agent's events only, so a subagent's `req-01`
 * never lands in the parent's. An event nothing claims stays at the top, in
 * its place; none is dropped.
 */
export function nest(lines: readonly FoundLine[]): Node[] {
  const roots: Node[] = [];
  const requests = new Map<string, Node>();
  const calls = new Map<string, Node>();
  const agents = new Map<string, Node>();
  // Subagent starts whose parent call comes later, by that call's key.
  const waiting = new Map<string, Node[]>();
  for (const line of lines) {
    const node: Node = { line, children: [] };
    const event = line.event;
    const type = str(event, 'type');
    const agent = str(event, 'agent_id');
    const scope = type === 'subagent_start' ? '' : (agent ?? '');
    const request = str(event, 'request_id');
    let parent: Node | undefined;
    if (type === 'subagent_start') {
      const callId = str(event, 'parent_tool_call_id') ?? str(event, 'tool_call_id');
      const callKey = callId === undefined ? undefined : key(str(event, 'parent_agent_id') ?? '', callId);
      parent = callKey === undefined ? undefined : calls.get(callKey);
      if (!parent && callKey !== undefined) waiting.set(callKey, [...(waiting.get(callKey) ?? []), node]);
      if (agent !== undefined) agents.set(agent, node);
    } else if (type !== 'request' && request !== undefined) {
      parent = requests.get(key(scope, request));
    }
    parent ??= scope === '' ? undefined : agents.get(scope);
    if (type === 'request' && request !== undefined) requests.set(key(scope, request), node);
    const callId = str(event, 'tool_call_id');
    if (type === 'call' && callId !== undefined) {
      calls.set(key(scope, callId), node);
      claim(waiting.get(key(scope, callId)) ?? [], node, roots);
    }
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** Moves subagent starts that waited at the top into the call they belong to, first among its children. */
function claim(starts: readonly Node[], call: Node, roots: Node[]): void {
  for (const start of starts) {
    const at = roots.indexOf(start);
    if (at >= 0) roots.splice(at, 1);
  }
  call.children.unshift(...starts);
}

/** Every line of a tree, depth first, in order. */
export function flatten(nodes: readonly Node[]): FoundLine[] {
  return nodes.flatMap((node) => [node.line, ...flatten(node.children)]);
}
