/**
 * ToolSearch over the fixed 50-tool pool (issue 25's acceptance): ten fixed
 * queries with their ranked answers written out by hand after reading each,
 * and the same answers whatever the order of the pool.
 */
import { expect, test } from 'bun:test';
import { shuffled, toolPool } from '../testing/tool-pool.ts';
import { searchTools, type SearchAnswer } from './index.ts';

const found = (names: readonly string[], unknown: readonly string[] = []): SearchAnswer => ({ names, unknown });

/** Query → its answer at `max_results` 20 over `toolPool()`. */
const ANSWERS: Readonly<Record<string, SearchAnswer>> = {
  // The one tool about merging leads; then pull-request tools, shorter documents first.
  'merge pull request': found([
    'merge_pull_request', 'get_pull_request_diff', 'get_pull_request', 'update_pull_request_branch', 'list_pull_request_files',
    'list_reviews', 'request_reviewers', 'create_pull_request', 'create_review', 'add_issue_comment', 'list_pull_requests',
    'search_issues', 'create_label', 'list_issues',
  ]),
  'read file contents': found([
    'get_file_contents', 'create_or_update_file', 'create_gist', 'push_files', 'search_code', 'list_notifications',
    'delete_file', 'list_workflow_runs', 'list_pull_request_files', 'run_workflow', 'create_review',
  ]),
  // No stop words: `on` and `an` count too, but rarely enough to stay behind `comment` and `issue`.
  'comment on an issue': found([
    'add_issue_comment', 'list_issue_comments', 'create_review', 'create_issue', 'update_issue', 'get_issue',
    'run_workflow', 'fork_repository', 'create_branch', 'list_reviews', 'search_issues', 'create_or_update_file',
  ]),
  'release notes': found(['create_release', 'get_latest_release']),
  // delete_file and get_commit tie (three `commit` each among 40 tokens): by name.
  commit: found([
    'push_files', 'delete_file', 'get_commit', 'compare_commits', 'merge_pull_request', 'create_or_update_file',
    'get_file_contents', 'create_repository', 'list_branches', 'create_branch', 'update_pull_request_branch', 'list_commits',
  ]),
  // Only a +word: every tool with `issue` in its name, by name (no stemming: list_issues says `issues`).
  '+issue': found(['add_issue_comment', 'create_issue', 'get_issue', 'list_issue_comments', 'update_issue']),
  // +words filter by name; `review` ranks. Only get_pull_request mentions a review; the admitted rest score 0, by name.
  '+pull +request review': found(['get_pull_request', 'create_pull_request', 'get_pull_request_diff', 'list_pull_request_files', 'merge_pull_request', 'update_pull_request_branch']),
  'select:get_issue,read_source, get_issue ,,create_branch': found(['get_issue', 'create_branch'], ['read_source']),
  'workflow logs failed': found(['get_job_logs', 'run_workflow', 'cancel_workflow_run', 'list_workflow_runs']),
  'secret leaked': found(['get_secret_scanning_alert', 'create_gist']),
};

test('ten fixed queries over the 50-tool pool give their committed ranked answers', () => {
  const pool = toolPool();
  for (const [query, answer] of Object.entries(ANSWERS)) expect({ query, ...searchTools(pool, query, 20) }).toEqual({ query, ...answer });
});

test("shuffling the pool's order changes no answer", () => {
  for (const seed of [1, 2, 3, 25, 1000, 0xdeadbeef]) {
    const pool = shuffled(toolPool(), seed);
    for (const [query, answer] of Object.entries(ANSWERS)) expect({ seed, query, ...searchTools(pool, query, 20) }).toEqual({ seed, query, ...answer });
  }
});

test('max_results cuts the ranked list after its best names', () => {
  const pool = toolPool();
  const full = ANSWERS['merge pull request']!.names;
  for (const max of [1, 3, 5, 14, 20]) expect(searchTools(pool, 'merge pull request', max).names).toEqual(full.slice(0, max));
  expect(searchTools(pool, 'commit', 2).names).toEqual(['push_files', 'delete_file']);
  expect(searchTools(pool, 'select:get_issue,read_source,create_branch', 1)).toEqual(found(['get_issue'], ['read_source']));
});
