/**
 * What probe reads of a 2025-11-25 listing beyond 2025-06-18's: each tool's
 * `execution.taskSupport` (kept, and checked against the server's `tasks`
 * capability), and icons (tool and server; kept and shown, never fetched):
 * an `http(s)` icon off the server's origin — any, for a stdio server, which
 * has none — is `protocol/icon_origin` (spec SHOULD).
 */
import { excerpt, finding, type ProbeFinding } from './probe-finding.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The revision from which tasks and icons exist. */
export const TASKS_VERSION = '2025-11-25';

const TASK_SUPPORT: readonly string[] = ['required', 'optional', 'forbidden'];

/** A listed tool's `execution.taskSupport`, as sent, when it has one. */
export function taskSupportOf(entry: Readonly<Record<string, unknown>>): { readonly taskSupport?: unknown } {
  const execution = entry['execution'];
  return isObject(execution) && execution['taskSupport'] !== undefined ? { taskSupport: execution['taskSupport'] } : {};
}

/** Whether a session may run a call as a task: its revision, and whether the server declared `tasks.requests.tools.call`. */
export interface Tasking {
  readonly version: string;
  readonly toolsCall: boolean;
}

export function taskingOf(version: string, capabilities: unknown): Tasking {
  const tasks = isObject(capabilities) ? capabilities['tasks'] : undefined;
  const requests = isObject(tasks) ? tasks['requests'] : undefined;
  const tools = isObject(requests) ? requests['tools'] : undefined;
  return { version, toolsCall: isObject(tools) && isObject(tools['call']) };
}

/** How probe sends a `--call` of a tool: as a task (2025-11-25, declared, the tool required or optional), or plain. */
export function runsAsTask(taskSupport: unknown, tasking: Tasking): boolean {
  return tasking.version === TASKS_VERSION && tasking.toolsCall && (taskSupport === 'required' || taskSupport === 'optional');
}

/**
 * The listing's task findings at 2025-11-25: an unknown `taskSupport`, or
 * `required` on a server that does not declare `tasks.requests.tools.call`
 * (no client could ever call it: spec MUST). Before 2025-11-25 the member
 * means nothing; a call of a `required` tool gets a note instead.
 */
export function taskListingFindings(tools: readonly { readonly name: string; readonly taskSupport?: unknown }[], tasking: Tasking): ProbeFinding[] {
  if (tasking.version !== TASKS_VERSION) return [];
  const found: ProbeFinding[] = [];
  for (const tool of tools) {
    if (tool.taskSupport === undefined) continue;
    if (typeof tool.taskSupport !== 'string' || !TASK_SUPPORT.includes(tool.taskSupport)) {
      found.push(finding('protocol', 'task_support', 'spec MUST', `execution.taskSupport is not one of ${TASK_SUPPORT.join(', ')}`, { tool: tool.name, evidence: excerpt(tool.taskSupport) }));
    } else if (tool.taskSupport === 'required' && !tasking.toolsCall) {
      found.push(finding('protocol', 'task_support', 'spec MUST', 'execution.taskSupport is "required", but the server does not declare tasks.requests.tools.call: no client may call it', { tool: tool.name, evidence: 'capabilities.tasks.requests.tools.call absent' }));
    }
  }
  return found;
}

/** The `src` of each icon in a value that should be an icons array (anything else yields none). */
function sources(icons: unknown): string[] {
  if (!Array.isArray(icons)) return [];
  return icons.flatMap((icon) => (isObject(icon) && typeof icon['src'] === 'string' ? [icon['src']] : []));
}

/** The origin of an `http(s)` URL, or undefined for anything else (a `data:` icon has none to judge). */
function httpOrigin(src: string): string | undefined {
  try {
    const url = new URL(src);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `protocol/icon_origin` for each `http(s)` icon (of a tool, or of the
 * server) whose origin is not the server's: `serverOrigin` is the URL probe
 * reached over HTTP, undefined for stdio (every http(s) icon is off-origin).
 * Icons are never fetched: this reads only their URLs.
 */
export function iconFindings(owners: readonly { readonly tool?: string; readonly icons: unknown }[], serverOrigin: string | undefined): ProbeFinding[] {
  const found: ProbeFinding[] = [];
  for (const owner of owners) {
    for (const src of sources(owner.icons)) {
      const origin = httpOrigin(src);
      if (origin === undefined || origin === serverOrigin) continue;
      const where = serverOrigin === undefined ? 'a stdio server has no origin' : `the server's origin is ${serverOrigin}`;
      found.push(finding('protocol', 'icon_origin', 'spec SHOULD', `an icon is served from ${origin}; ${where} (probe never fetches icons)`, { ...(owner.tool !== undefined ? { tool: owner.tool } : {}), evidence: excerpt(src) }));
    }
  }
  return found;
}
