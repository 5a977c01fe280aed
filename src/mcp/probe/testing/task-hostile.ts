/**
 * TEST ONLY — a 2025-11-25 task server that misbehaves, on stdio, for probe
 * (`bun task-hostile.ts MODE [METHODS_LOG]`): each mode one way a task can
 * break the revision, served by the scripted task peer. Every request's
 * method is appended to METHODS_LOG when given, so a test can count what
 * probe sent (one tools/call, one tasks/cancel).
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { taskAnswer, type TaskPeerLog, type TaskScript } from '../../tasks/testing/task-peer.ts';

export const TASK_HOSTILE_MODES: Readonly<Record<string, TaskScript>> = {
  terminal_to_working: { statuses: ['completed', 'working'] },
  poll_zero: { pollInterval: 0, statuses: ['working', 'working', 'working', 'completed'] },
  first_completed: { first: 'completed' },
  no_related_meta: { relatedMeta: false },
  long_task_id: { taskId: 't'.repeat(300) },
  never_terminal: { statuses: ['working'], pollInterval: 0 },
  rpc_input_error: { rejectCalls: true },
};

if (import.meta.main) {
  const mode = process.argv[2] ?? '';
  const script = TASK_HOSTILE_MODES[mode];
  if (!script) throw new Error(`unknown mode ${mode}`);
  const methods = process.argv[3];
  const log: TaskPeerLog = { methods: [], params: [] };
  for await (const line of createInterface({ input: process.stdin })) {
    const message = JSON.parse(line) as Record<string, unknown>;
    if (methods && message['id'] !== undefined) appendFileSync(methods, `${String(message['method'])}\n`);
    const answer = taskAnswer(script, log, message);
    if (answer) process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
}
