import { expect, test } from 'bun:test';
import { COMMAND_TASK, loadTask, loadTasks, UNNAMED_TASK } from './tasks.ts';

test('the registry is by task id: each entry’s task has its key as id, and the commands’ task and the unnamed records’ are in it', async () => {
  const tasks = await loadTasks();
  expect([...tasks].map(([id, task]) => [id, task.id])).toEqual([['excerpt', 'excerpt'], ['expectations', 'expectations']]);
  expect([tasks.has(COMMAND_TASK), tasks.has(UNNAMED_TASK)]).toEqual([true, true]);
  const loaded = await loadTask({ envSource: {} });
  expect([loaded.task.id, loaded.overMcp?.id, loaded.scenarios.demo]).toEqual(['excerpt', 'excerpt', 'happy']);
});
