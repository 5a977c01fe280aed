import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunFlags, runCommand } from './run-command.ts';
import { testIo } from './test-io.ts';
import { excerptCli } from './testing/excerpt-cli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-mcp-unavailable-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// An embedder's CliTask may come without an MCP form: asking for that transport
// is refused by name before any work (exit 2, as any setup failure), not a crash.
test.each(['mcp', 'http'])('--transport %s on a task with no such form: spawn/mcp_unavailable, exit 2, nothing written', async (transport) => {
  const cwd = mkdtempSync(join(scratch, `${transport}-`));
  const cli = excerptCli();
  const parsed = parseRunFlags(['--transport', transport, '--run-id', 'none'], 'demo', cli);
  if (!parsed.ok) throw new Error(parsed.message);
  const io = testIo(cwd);
  const code = await runCommand(parsed.value, io, cli);
  expect(code).toBe(2);
  expect(io.err()).toContain('spawn/mcp_unavailable');
  expect(io.err()).toContain(transport === 'http' ? 'the MCP HTTP transport is not available in this build' : 'the MCP transport is not available in this build');
  expect(existsSync(join(cwd, 'caplab-runs', 'none'))).toBe(false);
});
