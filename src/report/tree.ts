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
 * (or `tool_call_id`) — the parent's `Agent` call. A request id or call id
 * is looked up within one agent's events only, so a subagent's `req-01`
 * never lands in the parent's. An event nothing claims stays at the top, in
 * its place; none is dropped.
 */
export function nest(lines: readonly FoundLine[]): Node[] {
  const roots: Node[] = [];
  const requests = new Map<string, Node>();
  const calls = new Map<string, Node>();
  const agents = new Map<string, Node>();
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
      parent = callId === undefined ? undefined : calls.get(key(str(event, 'parent_agent_id') ?? '', callId));
      if (agent !== undefined) agents.set(agent, node);
    } else if (type !== 'request' && request !== undefined) {
      parent = requests.get(key(scope, request));
    }
    parent ??= scope === '' ? undefined : agents.get(scope);
    if (type === 'request' && request !== undefined) requests.set(key(scope, request), node);
    const callId = str(event, 'tool_call_id');
    if (type === 'call' && callId !== undefined) calls.set(key(scope, callId), node);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** Every line of a tree, depth first, in order. */
export function flatten(nodes: readonly Node[]): FoundLine[] {
  return nodes.flatMap((node) => [node.line, ...flatten(node.children)]);
}
