import { spawnChild, type Launch } from '../../mcp/index.ts';

/** A spawn that keeps what it launched and the pids it started (a test reads a server's env and waits for its pids). */
export function recordingSpawn(): { readonly spawn: (launch: Launch) => ReturnType<typeof spawnChild>; readonly launched: Launch[]; readonly pids: number[] } {
  const launched: Launch[] = [];
  const pids: number[] = [];
  const spawn = (launch: Launch): ReturnType<typeof spawnChild> => {
    launched.push(launch);
    const child = spawnChild(launch);
    if (child.ok) pids.push(child.value.pid);
    return child;
  };
  return { spawn, launched, pids };
}
