/**
 * The guard program (`caplab __guard`, started by guard.ts): reads what
 * caplab registers on its stdin until EOF, which comes however caplab ends
 * (exit, crash, SIGKILL: the kernel closes caplab's end of the pipe). Then it
 * SIGKILLs every process group still registered, waits (bounded) until they
 * have no living member, removes every folder still registered, and returns.
 *
 * main.ts imports this module alone (not platform/index.ts): the guard loads
 * nothing but this, the protocol and the group helpers (test/module-graph.test.ts).
 */
import { rmSync } from 'node:fs';
import { decodeGuardMessage, type GuardMessage } from './guard-protocol.ts';
import { livingMembers, signalGroup } from './process-group.ts';

/** What is registered now. */
export interface Guarded {
  readonly groups: Set<number>;
  readonly folders: Set<string>;
}

/** How long the guard waits for killed groups to die before removing the folders anyway. */
export const GUARD_KILL_WAIT_MS = 2000;

function toggle<T>(set: Set<T>, key: T, add: boolean): void {
  if (add) set.add(key);
  else set.delete(key);
}

export function applyGuardMessage(state: Guarded, message: GuardMessage): void {
  if (message.kind === 'group') toggle(state.groups, message.pgid, message.add);
  else toggle(state.folders, message.path, message.add);
}

/** Polls until no group has a living member or the deadline passes: a killed group is not our child, so no exit event exists. */
async function waitGroupsGone(groups: readonly number[], withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (groups.some((pgid) => livingMembers(pgid).length > 0) && performance.now() < deadline) await Bun.sleep(5);
}

/** Kills every registered group, then removes every registered folder (killed first, so nothing writes into them meanwhile). */
export async function endGuarded(state: Guarded, withinMs: number = GUARD_KILL_WAIT_MS): Promise<void> {
  const groups = [...state.groups];
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
  await waitGroupsGone(groups, withinMs);
  for (const path of state.folders) {
    try {
      // rm -rf semantics: a symlink put in the folder's place is unlinked, never followed.
      rmSync(path, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Nobody is left to tell (the guard's stderr is /dev/null); the next folder still goes.
    }
  }
}

/** Splits a byte stream into lines (the last, unterminated piece is dropped: a message is whole only with its newline). */
async function* linesOf(input: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of input) {
    const lines = (pending + decoder.decode(chunk, { stream: true })).split('\n');
    pending = lines.pop() ?? '';
    yield* lines;
  }
}

/**
 * Runs the guard over `input` (its stdin): registrations until EOF, then
 * `endGuarded`. A broken input is EOF too.
 */
export async function runGuard(input: ReadableStream<Uint8Array>): Promise<void> {
  const state: Guarded = { groups: new Set(), folders: new Set() };
  try {
    for await (const line of linesOf(input)) {
      const message = decodeGuardMessage(line);
      if (message) applyGuardMessage(state, message);
    }
  } catch {
    // A read error means caplab's end is gone as surely as EOF does.
  }
  await endGuarded(state);
}
