import { expect, test } from 'bun:test';
import { COMMAND_TASK, loadRechecks, loadTask, loadTasks, recordTaskId, UNNAMED_TASK } from './tasks.ts';

test('the registry is by task id: each entry’s task has its key as id, and the commands’ task and the unnamed records’ are in it', async () => {
  const tasks = await loadTasks();
  expect([...tasks].map(([id, task]) => [id, task.id])).toEqual([['excerpt', 'excerpt'], ['expectations', 'expectations']]);
  expect([tasks.has(COMMAND_TASK), tasks.has(UNNAMED_TASK)]).toEqual([true, true]);
  const loaded = await loadTask({ envSource: {} });
  expect([loaded.task.id, loaded.overMcp?.id, loaded.scenarios.demo]).toEqual(['excerpt', 'excerpt', 'happy']);
});

test('verify loads only the task its record names: the id is read from run_start, a line naming none (or unreadable) is the unnamed records\' task', async () => {
  expect(recordTaskId(() => '{"seq":0,"task":"expectations","type":"run_start"}')).toBe('expectations');
  expect([recordTaskId(() => '{"seq":0,"type":"run_start"}'), recordTaskId(() => 'not json'), recordTaskId(() => undefined), recordTaskId(() => '{"task":7}')]).toEqual([UNNAMED_TASK, UNNAMED_TASK, UNNAMED_TASK, UNNAMED_TASK]);
  expect([...(await loadRechecks(['excerpt'])).keys()]).toEqual(['excerpt']);
  expect([...(await loadRechecks(['expectations', 'expectations'])).keys()]).toEqual(['expectations']);
  // A task this caplab does not know loads nothing: verify then says unknown_task.
  expect([...(await loadRechecks(['quiz'])).keys()]).toEqual([]);
});
