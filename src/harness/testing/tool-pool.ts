/**
 * Fixed tool pools for ToolSearch's tests and bench (issue 25). `toolPool()`
 * is 50 tools shaped like a real code-forge server's listing (issues, pull
 * requests, branches, files, releases, workflows, search …), renamed and
 * written out by hand: fixed text, so committed rankings and byte counts
 * hold. `generatedPool(n)` builds n tools from a seeded generator for the
 * 10,000-tool case; `shuffled` reorders a pool by seed. Nothing here is random.
 */
import type { SearchableTool } from '../tool-search/index.ts';

type Schema = Readonly<Record<string, unknown>>;

const str = (description: string): Schema => ({ type: 'string', description });
const int = (description: string): Schema => ({ type: 'integer', description });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const oneOf = (values: readonly string[], description: string): Schema => ({ type: 'string', enum: values, description });
const list = (items: Schema, description: string): Schema => ({ type: 'array', items, description });
const object = (properties: Readonly<Record<string, Schema>>, description: string, required?: readonly string[]): Schema => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
  description,
});

/** One tool; `required` names the properties a call must give. */
function tool(name: string, description: string, properties: Readonly<Record<string, Schema>>, required: readonly string[] = []): SearchableTool {
  return { name, description, input_schema: { type: 'object', properties, required, additionalProperties: false } };
}

const OWNER = str('Account or organisation that owns the repository.');
const REPO = str('Repository name, without the owner.');
const PAGE = int('Page of results to return, starting at 1.');
const PER_PAGE = int('Results per page, at most 100.');
const ISSUE = int('Number of the issue within the repository.');
const PULL = int('Number of the pull request within the repository.');
const BRANCH = str('Name of the branch.');
const PATH = str('Path of the file from the repository root.');

/** Issues, labels and milestones. */
const ISSUES: readonly SearchableTool[] = [
  tool('list_issues', 'List issues in a repository, newest first. Filter by state, labels or assignee; pull requests are not included.', { owner: OWNER, repo: REPO, state: oneOf(['open', 'closed', 'all'], 'Which issues to list by state.'), labels: list(str('A label name.'), 'Only issues carrying every one of these labels.'), page: PAGE }, ['owner', 'repo']),
  tool('get_issue', 'Get one issue with its title, body, labels, assignees and state.', { owner: OWNER, repo: REPO, issue_number: ISSUE }, ['owner', 'repo', 'issue_number']),
  tool('create_issue', 'Open a new issue in a repository. The body accepts Markdown.', { owner: OWNER, repo: REPO, title: str('Title of the issue.'), body: str('Text of the issue, in Markdown.'), labels: list(str('A label name.'), 'Labels to put on the issue.'), assignees: list(str('A user login.'), 'Users to assign.') }, ['owner', 'repo', 'title']),
  tool('update_issue', 'Change the title, body, state, labels or assignees of an existing issue. Fields left out keep their value.', { owner: OWNER, repo: REPO, issue_number: ISSUE, title: str('New title.'), state: oneOf(['open', 'closed'], 'Close or reopen the issue.'), body: str('New text, in Markdown.') }, ['owner', 'repo', 'issue_number']),
  tool('add_issue_comment', 'Add a comment to an issue or a pull request. Comments are public and notify subscribers.', { owner: OWNER, repo: REPO, issue_number: ISSUE, body: str('Text of the comment, in Markdown.') }, ['owner', 'repo', 'issue_number', 'body']),
  tool('list_issue_comments', 'List the comments on an issue, oldest first.', { owner: OWNER, repo: REPO, issue_number: ISSUE, page: PAGE, per_page: PER_PAGE }, ['owner', 'repo', 'issue_number']),
  tool('search_issues', 'Search issues and pull requests across all repositories with the forge query syntax, such as `is:open label:bug`.', { query: str('Search query in the forge issue syntax.'), sort: oneOf(['created', 'updated', 'comments'], 'Field to sort the results by.'), order: oneOf(['asc', 'desc'], 'Sort direction.'), page: PAGE }, ['query']),
  tool('list_labels', 'List the labels defined in a repository, with their colours and descriptions.', { owner: OWNER, repo: REPO, page: PAGE }, ['owner', 'repo']),
  tool('create_label', 'Create a label in a repository so issues and pull requests can carry it.', { owner: OWNER, repo: REPO, name: str('Name of the label.'), color: str('Colour as six hexadecimal digits, without `#`.'), description: str('Short text explaining what the label means.') }, ['owner', 'repo', 'name', 'color']),
  tool('list_milestones', 'List the milestones of a repository with their due dates and progress.', { owner: OWNER, repo: REPO, state: oneOf(['open', 'closed', 'all'], 'Which milestones to list by state.') }, ['owner', 'repo']),
];

/** Pull requests and reviews. */
const PULLS: readonly SearchableTool[] = [
  tool('list_pull_requests', 'List pull requests in a repository. Filter by state, head branch or base branch.', { owner: OWNER, repo: REPO, state: oneOf(['open', 'closed', 'all'], 'Which pull requests to list by state.'), base: str('Only pull requests into this base branch.'), page: PAGE }, ['owner', 'repo']),
  tool('get_pull_request', 'Get one pull request with its title, body, head and base branches, mergeability and review state.', { owner: OWNER, repo: REPO, pull_number: PULL }, ['owner', 'repo', 'pull_number']),
  tool('create_pull_request', 'Open a pull request that proposes merging a head branch into a base branch.', { owner: OWNER, repo: REPO, title: str('Title of the pull request.'), head: str('Branch holding the changes.'), base: str('Branch the changes should be merged into.'), draft: bool('Open it as a draft that cannot be merged yet.') }, ['owner', 'repo', 'title', 'head', 'base']),
  tool('merge_pull_request', 'Merge a pull request into its base branch. Fails when checks are required and have not passed.', { owner: OWNER, repo: REPO, pull_number: PULL, merge_method: oneOf(['merge', 'squash', 'rebase'], 'How to combine the commits.'), commit_title: str('Title of the merge commit.') }, ['owner', 'repo', 'pull_number']),
  tool('get_pull_request_diff', 'Get the unified diff of a pull request against its base branch.', { owner: OWNER, repo: REPO, pull_number: PULL }, ['owner', 'repo', 'pull_number']),
  tool('list_pull_request_files', 'List the files a pull request changes, with additions, deletions and status per file.', { owner: OWNER, repo: REPO, pull_number: PULL, page: PAGE, per_page: PER_PAGE }, ['owner', 'repo', 'pull_number']),
  tool('request_reviewers', 'Ask users or teams to review a pull request. They are notified at once.', { owner: OWNER, repo: REPO, pull_number: PULL, reviewers: list(str('A user login.'), 'Users to ask for a review.'), team_reviewers: list(str('A team slug.'), 'Teams to ask for a review.') }, ['owner', 'repo', 'pull_number']),
  tool('create_review', 'Submit a review on a pull request: approve it, request changes, or comment, optionally with comments on lines of the diff.', {
    owner: OWNER,
    repo: REPO,
    pull_number: PULL,
    event: oneOf(['APPROVE', 'REQUEST_CHANGES', 'COMMENT'], 'The verdict of the review.'),
    body: str('Overall text of the review.'),
    comments: list(object({ path: PATH, line: int('Line of the diff the comment is on.'), body: str('Text of the line comment.') }, 'One comment on a line of the diff.', ['path', 'line', 'body']), 'Comments on lines of the diff.'),
  }, ['owner', 'repo', 'pull_number', 'event']),
  tool('list_reviews', 'List the reviews submitted on a pull request, in the order they were submitted.', { owner: OWNER, repo: REPO, pull_number: PULL }, ['owner', 'repo', 'pull_number']),
  tool('update_pull_request_branch', 'Bring a pull request branch up to date by merging the latest base branch into it.', { owner: OWNER, repo: REPO, pull_number: PULL, expected_head_sha: str('Refuse the update unless the head branch is at this commit.') }, ['owner', 'repo', 'pull_number']),
];

/** Branches, commits, tags and files. */
const CODE: readonly SearchableTool[] = [
  tool('list_branches', 'List the branches of a repository, with the commit each one points at.', { owner: OWNER, repo: REPO, protected: bool('Only protected branches.'), page: PAGE }, ['owner', 'repo']),
  tool('create_branch', 'Create a branch from an existing branch or commit.', { owner: OWNER, repo: REPO, branch: str('Name of the new branch.'), from_branch: str('Branch to start from; the default branch when left out.') }, ['owner', 'repo', 'branch']),
  tool('delete_branch', 'Delete a branch. A protected branch or the default branch cannot be deleted.', { owner: OWNER, repo: REPO, branch: BRANCH }, ['owner', 'repo', 'branch']),
  tool('get_file_contents', 'Read the contents of a file or list a directory at a branch, tag or commit. Files larger than 1 MB are returned as a download link.', { owner: OWNER, repo: REPO, path: PATH, ref: str('Branch, tag or commit to read from; the default branch when left out.') }, ['owner', 'repo', 'path']),
  tool('create_or_update_file', 'Write one file in a single commit on the default branch, creating it or replacing its contents.', { owner: OWNER, repo: REPO, path: PATH, content: str('New contents of the file.'), message: str('Commit message.'), sha: str('Blob hash of the file being replaced; required when it exists.') }, ['owner', 'repo', 'path', 'content', 'message']),
  tool('delete_file', 'Delete one file in a single commit.', { owner: OWNER, repo: REPO, path: PATH, message: str('Commit message.'), branch: str('Branch to commit to.') }, ['owner', 'repo', 'path', 'message', 'branch']),
  tool('push_files', 'Commit several files to a branch at once, in one commit.', { owner: OWNER, repo: REPO, branch: str('Branch to commit to.'), message: str('Commit message.'), files: list(object({ path: PATH, content: str('Contents of the file.') }, 'One file to write.', ['path', 'content']), 'The files to write.') }, ['owner', 'repo', 'branch', 'message', 'files']),
  tool('list_commits', 'List commits of a branch, newest first, optionally only those touching one path.', { owner: OWNER, repo: REPO, sha: str('Branch or commit to start listing from.'), path: str('Only commits that change this path.'), author: str('Only commits by this author.'), page: PAGE }, ['owner', 'repo']),
  tool('get_commit', 'Get one commit with its message, author, parents and the files it changed.', { owner: OWNER, repo: REPO, sha: str('Hash of the commit, or a branch or tag name.') }, ['owner', 'repo', 'sha']),
  tool('compare_commits', 'Compare two branches, tags or commits: the commits between them and the combined diff.', { owner: OWNER, repo: REPO, base: str('Branch, tag or commit to compare from.'), head: str('Branch, tag or commit to compare to.') }, ['owner', 'repo', 'base', 'head']),
];

/** Releases, repositories and search. */
const REPOS: readonly SearchableTool[] = [
  tool('list_releases', 'List the published releases of a repository, newest first.', { owner: OWNER, repo: REPO, page: PAGE }, ['owner', 'repo']),
  tool('get_latest_release', 'Get the most recent published release of a repository, with its assets.', { owner: OWNER, repo: REPO }, ['owner', 'repo']),
  tool('create_release', 'Publish a release from a tag, with release notes. The tag is created when it does not exist.', { owner: OWNER, repo: REPO, tag_name: str('Tag to release.'), name: str('Title of the release.'), body: str('Release notes, in Markdown.'), prerelease: bool('Mark the release as a pre-release.') }, ['owner', 'repo', 'tag_name']),
  tool('get_repository', 'Get a repository with its description, default branch, visibility and counts of stars and forks.', { owner: OWNER, repo: REPO }, ['owner', 'repo']),
  tool('create_repository', 'Create a repository for the signed-in user.', { name: str('Name of the new repository.'), description: str('One line saying what it holds.'), private: bool('Make the repository private.'), auto_init: bool('Start it with a README commit.') }, ['name']),
  tool('fork_repository', 'Fork a repository into your account or an organisation.', { owner: OWNER, repo: REPO, organization: str('Organisation to fork into; your account when left out.') }, ['owner', 'repo']),
  tool('search_repositories', 'Search repositories by name, description, topic or language.', { query: str('Search query, such as `topic:parser language:rust`.'), page: PAGE, per_page: PER_PAGE }, ['query']),
  tool('search_code', 'Search file contents across repositories. Matches whole words; results show the matching lines.', { query: str('Search query, such as `readFile repo:acme/tools`.'), page: PAGE, per_page: PER_PAGE }, ['query']),
];

/** Workflows, people, notifications and security. */
const OTHER: readonly SearchableTool[] = [
  tool('list_workflows', 'List the automation workflows defined in a repository.', { owner: OWNER, repo: REPO }, ['owner', 'repo']),
  tool('run_workflow', 'Start a workflow run on a branch or tag, with inputs the workflow declares.', { owner: OWNER, repo: REPO, workflow_id: str('File name or id of the workflow.'), ref: str('Branch or tag to run on.'), inputs: object({ environment: str('Environment to deploy to, when the workflow asks for one.'), dry_run: bool('Run without side effects.') }, 'Inputs the workflow declares.') }, ['owner', 'repo', 'workflow_id', 'ref']),
  tool('list_workflow_runs', 'List the runs of a workflow with their status and conclusion, newest first.', { owner: OWNER, repo: REPO, workflow_id: str('File name or id of the workflow.'), status: oneOf(['queued', 'in_progress', 'completed'], 'Only runs in this status.'), page: PAGE }, ['owner', 'repo', 'workflow_id']),
  tool('get_job_logs', 'Get the logs of the jobs of a workflow run; failed jobs only when asked.', { owner: OWNER, repo: REPO, run_id: int('Id of the workflow run.'), failed_only: bool('Only the logs of failed jobs.') }, ['owner', 'repo', 'run_id']),
  tool('cancel_workflow_run', 'Cancel a workflow run that is queued or in progress.', { owner: OWNER, repo: REPO, run_id: int('Id of the workflow run.') }, ['owner', 'repo', 'run_id']),
  tool('get_me', 'Get the signed-in user: login, name and email, and the scopes of the current token when asked.', { include_scopes: bool('Also list the scopes the current token grants.') }),
  tool('list_collaborators', 'List the users who can push to a repository, with their permission level.', { owner: OWNER, repo: REPO, page: PAGE }, ['owner', 'repo']),
  tool('add_collaborator', 'Invite a user to a repository with a permission level. The user must accept the invitation.', { owner: OWNER, repo: REPO, username: str('Login of the user to invite.'), permission: oneOf(['read', 'triage', 'write', 'maintain', 'admin'], 'Permission level to grant.') }, ['owner', 'repo', 'username']),
  tool('list_notifications', 'List notifications for the signed-in user, unread ones first.', { all: bool('Include notifications already marked as read.'), participating: bool('Only threads the user takes part in.'), page: PAGE }),
  tool('list_code_scanning_alerts', 'List the code scanning alerts of a repository, filtered by state or severity.', { owner: OWNER, repo: REPO, state: oneOf(['open', 'dismissed', 'fixed'], 'Only alerts in this state.'), severity: oneOf(['critical', 'high', 'medium', 'low'], 'Only alerts of this severity.') }, ['owner', 'repo']),
  tool('get_secret_scanning_alert', 'Get one secret scanning alert: which secret leaked, where, and whether it was revoked.', { owner: OWNER, repo: REPO, alert_number: int('Number of the alert.') }, ['owner', 'repo', 'alert_number']),
  tool('create_gist', 'Create a gist holding one or more files, public or secret.', { description: str('Description of the gist.'), public: bool('Whether anyone can find the gist.'), files: object({ filename: object({ content: str('Contents of the file.') }, 'A file of the gist, keyed by its name.') }, 'Files of the gist, keyed by file name.') }, ['files']),
];

/** The 50 tools of a code-forge server, in its listing order (a fresh copy each call). */
export function toolPool(): SearchableTool[] {
  return structuredClone([...ISSUES, ...PULLS, ...CODE, ...REPOS, ...OTHER]);
}

/** A seeded generator of floats in [0, 1) (mulberry32): the same seed, the same sequence. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return function next(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A copy of `items` in an order fixed by `seed` (Fisher–Yates over `seeded`). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const random = seeded(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'export', 'import', 'sync', 'archive', 'restore', 'validate'];
const NOUNS = ['invoice', 'customer', 'ticket', 'report', 'dataset', 'schedule', 'device', 'document', 'payment', 'shipment', 'contract', 'metric', 'alert', 'backup', 'channel', 'webhook'];
const QUALIFIERS = ['draft', 'archived', 'pending', 'shared', 'regional', 'monthly', 'external', 'internal', 'priority', 'legacy'];
const FIELDS = ['id', 'name', 'status', 'owner', 'region', 'limit', 'cursor', 'since', 'until', 'format', 'tags', 'notes'];
const TYPES = ['string', 'integer', 'boolean'] as const;

/** One generated tool: the `index`-th, its words drawn from `random`. */
function generatedTool(index: number, random: () => number): SearchableTool {
  const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)]!;
  const [verb, noun, qualifier] = [pick(VERBS), pick(NOUNS), pick(QUALIFIERS)];
  const properties: Record<string, Schema> = {};
  const count = 1 + Math.floor(random() * 5);
  for (let k = 0; k < count; k++) {
    const field = `${pick(NOUNS)}_${pick(FIELDS)}`;
    properties[field] = { type: pick(TYPES), description: `The ${field.replace('_', ' ')} of the ${qualifier} ${noun} to ${verb}.` };
  }
  if (random() < 0.25) {
    const field = pick(FIELDS);
    properties['filter'] = object({ [field]: str(`Only ${qualifier} ${noun}s whose ${field} matches.`) }, `Narrows which ${noun}s to ${verb}.`);
  }
  return tool(`${verb}_${qualifier}_${noun}_${index.toString(36)}`, `${verb[0]!.toUpperCase()}${verb.slice(1)} ${qualifier} ${noun} records of the ${pick(NOUNS)} service. Returns at most ${10 + Math.floor(random() * 90)} ${noun}s per page.`, properties, Object.keys(properties).slice(0, 1));
}

/**
 * `n` generated tools with distinct names (each ends in its index in base 36),
 * the same for the same `n` and `seed`: the 10,000-tool case's pool.
 */
export function generatedPool(n: number, seed = 25): SearchableTool[] {
  const random = seeded(seed);
  return Array.from({ length: n }, (_, index) => generatedTool(index, random));
}
