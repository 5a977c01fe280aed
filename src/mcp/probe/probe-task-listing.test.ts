import { describe, expect, test } from 'bun:test';
import { iconFindings, runsAsTask, taskingOf, taskListingFindings } from './probe-task-listing.ts';

const DECLARED = { tools: {}, tasks: { requests: { tools: { call: {} } } } };

describe("probe's 2025-11-25 listing checks", () => {
  test('taskSupport: an unknown value, or required without tasks.requests.tools.call, is task_support (spec MUST); before 2025-11-25 nothing', () => {
    const tools = [{ name: 'a', taskSupport: 'sometimes' }, { name: 'b', taskSupport: 'required' }, { name: 'c', taskSupport: 'optional' }, { name: 'd' }];
    const without = taskListingFindings(tools, taskingOf('2025-11-25', { tools: {} }));
    expect(without.map((f) => [f.tool, f.kind, f.basis])).toEqual([['a', 'task_support', 'spec MUST'], ['b', 'task_support', 'spec MUST']]);
    expect(taskListingFindings(tools, taskingOf('2025-11-25', DECLARED)).map((f) => f.tool)).toEqual(['a']);
    expect(taskListingFindings(tools, taskingOf('2025-06-18', { tools: {} }))).toEqual([]);
  });

  test('a call runs as a task only at 2025-11-25, declared, for required or optional', () => {
    expect(runsAsTask('required', taskingOf('2025-11-25', DECLARED))).toBe(true);
    expect(runsAsTask('optional', taskingOf('2025-11-25', DECLARED))).toBe(true);
    expect(runsAsTask('forbidden', taskingOf('2025-11-25', DECLARED))).toBe(false);
    expect(runsAsTask('required', taskingOf('2025-11-25', { tools: {} }))).toBe(false);
    expect(runsAsTask('required', taskingOf('2025-06-18', DECLARED))).toBe(false);
  });

  test('icon_origin: an http(s) icon off the server origin (any, over stdio); data: icons and same-origin ones pass', () => {
    const owners = [
      { tool: 't', icons: [{ src: 'https://cdn.example/i.png' }, { src: 'data:image/png;base64,AA' }, { src: 'http://127.0.0.1:9/i.png' }] },
      { icons: [{ src: 'https://cdn.example/s.png' }] },
    ];
    expect(iconFindings(owners, 'http://127.0.0.1:9').map((f) => [f.tool, f.kind, f.basis])).toEqual([['t', 'icon_origin', 'spec SHOULD'], [undefined, 'icon_origin', 'spec SHOULD']]);
    expect(iconFindings(owners, undefined)).toHaveLength(3);
  });
});
