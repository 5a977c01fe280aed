import { expect, test } from 'bun:test';
import { PID_PLACEHOLDER, withoutPids } from './mcp-tools.ts';

test('withoutPids replaces the number of every labelled pid, whatever its value, and nothing else', () => {
  const line = (pid: number) => `caplab serve: caplab-fixture 1.0.0 ready (MCP 2025-06-18, stdio; pid ${pid}; inherited fds 0,1,2)\nchild pid=${pid + 1} PID: 7\n`;
  const expected = `caplab serve: caplab-fixture 1.0.0 ready (MCP 2025-06-18, stdio; pid ${PID_PLACEHOLDER}; inherited fds 0,1,2)\nchild pid=${PID_PLACEHOLDER} PID: ${PID_PLACEHOLDER}\n`;
  for (const pid of [18, 2025, 7064, 4194303]) expect(withoutPids(line(pid))).toBe(expected);
  expect(withoutPids('rapid 12; pidfile 3')).toBe('rapid 12; pidfile 3');
});
