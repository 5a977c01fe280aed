/**
 * MCP 2025-11-25 tasks: the task object and its statuses (task-shape.ts),
 * and the client's engine that runs one `tools/call` as a task to its end
 * (task-run.ts). On the wire only: probe and the host session use the engine,
 * `caplab serve` the shapes.
 */
export { isTerminal, readTask, relatesTo, RELATED_TASK_KEY, TASK_STATUSES, taskIdProblem, transitionProblem, type TaskState, type TaskStatus } from './task-shape.ts';
export { runTask, TASK_TTL_MARGIN_MS, type TaskCancel, type TaskEnd, type TaskOptions, type TaskReceipt, type TaskRun, type TaskSession, type TaskTransition } from './task-run.ts';
