import { CAPLAB_VERSION } from '../version.ts';
import { RUN_ID_RULE } from './run-id.ts';

export const EXIT_CODES_HELP = `Exit codes:
  0  accepted / every scenario ended as expected / verified
  1  acceptance or expectation failed (or verification failed)
  2  usage error (bad flag, argument, path or file), found before any work
  3  protocol, transport or output failure (MCP framing, version, spawn …; stdout
     or the --junit file could not be written — a closed pipe is not a failure)
  4  outcome unknown (a call timed out or its connection was lost; never retried)
  70  internal error (a bug: an error nothing caught): one stderr line, no stack trace;
      probe first kills its server and removes its temp cwd, the guard ends the rest
  130  interrupted by SIGINT: new work stopped, hooks and servers terminated with
       their process groups, the run recorded as interrupted and sealed
  143  the same, by SIGTERM
When several apply, the most severe wins: 2 > 70 > 130/143 > 4 > 3 > 1 > 0.`;

const RUN_FLAGS = `  --transport mcp|local|http
                          read_source over the fixture MCP server on stdio (default), as a local
                          function, or over Streamable HTTP (caplab serve --http spawned with a
                          fresh bearer token, never recorded or printed)
  --out DIR               run dir (default ./caplab-runs/<run-id>/); must not exist or be empty, and
                          lie in no run dir and not under /proc or /sys
  --run-id ID             run id: ${RUN_ID_RULE};
                          with SOURCE_DATE_EPOCH, runs are byte-identical
  --json                  print one JSON document on stdout instead of the human report
  --settings FILE         hooks and permissions (Claude Code settings format); repeatable: every
                          file is applied, in order, each adding its rules and hooks (deny still wins)
  --trust                 apply settings found in the working directory, and read its
                          ./.claude/skills/ and ./.claude/agents/ (and, in skill tool mode, the
                          .claude/skills/ of each folder above a path a successful call touched)
                          (alias --trust-project)
  --allow-tool=NAME       allow a tool (repeatable)
  --deny-tool=NAME        deny a tool (repeatable; deny wins over every allow)
  --defer-tool=NAME       defer a tool, or a whole server mcp__<key> (repeatable): its definition is
                          sent with defer_loading, the host adds ToolSearch, and the tool may be
                          called only after a ToolSearch answer referenced it (README: Deferred tools)
  --yes                   resolve permission "ask" as allow (default: deny, non-interactive)
  --skills DIR            add method packages from DIR (repeatable)
  --agents-dir DIR        add subagent types from DIR (repeatable): the host offers Agent, whose
                          subagents run a narrower loop in the same record (README: Subagents)
  --no-skill              adopt no method package
  --skill-mode MODE       direct (default): the method package's text in every request's system;
                          tool: no package adopted, a <skills> catalog in every request's system and
                          the host's Skill tool, which gives a package's text for the request's stage
                          (exit 2 with --no-skill or an empty catalog; README: Skill tool mode)
  --durable               fsync every ledger event and file as it is written, so a machine crash
                          leaves a durable prefix (default: one sync of the run dir before the seal)`;

/** The flags of run, check and tools for users' MCP servers (demo runs the task alone). */
const SERVER_FLAGS = `  --mcp-config FILE       also start the stdio servers of FILE (Claude Code's .mcp.json format; the
                          project's own ./.mcp.json only with run's --trust) and connect to its http
                          ones: all at once, before the run dir opens, each stdio one in a fresh
                          empty cwd (removed at close) with PATH, HOME, LANG, LC_ALL, LC_CTYPE, TZ,
                          TMPDIR and the entry's env. Relative paths in
                          an entry resolve against FILE's folder. Tools are mcp__<key>__<tool>
                          (rewritten to the Messages API's ^[a-zA-Z0-9_-]{1,64}$ where needed),
                          untrusted: effect external, never read-only, so they ask (denied unless
                          --allow-tool, a rule or --yes allows). Each session offers MCP
                          2025-11-25: a tool with execution.taskSupport required or optional on a
                          server declaring tasks.requests.tools.call is called as a task (polled,
                          one tasks/cancel at --timeout-ms, the outcome then unknown, never
                          re-sent). Other entry types are a notice;
                          an entry that cannot start as written is a usage error (exit 2).
  --require-server KEY    fail (exit 3, no run dir) when that server does not start (repeatable);
                          another server that does not start is a notice and the run goes on
  --startup-timeout-ms N  how long a server may take to answer initialize and each page of its
                          first listing (default 120000)
  --timeout-ms N          how long one request to a configured server may take, a task call from
                          its tools/call to its result (default 10000)`;

export const HELP: Record<string, string> = {
  main: `caplab ${CAPLAB_VERSION} — a capability harness for tool-using agents

Usage: caplab <command> [options]

Commands:
  demo                 run the excerpt task with the scripted model (default: over MCP)
  run --scenario S     run a scenario (built-in name or JSON file; "task": "expectations"
                       checks your MCP servers' tools against what each call must show)
  run --replay FILE    run with recorded model responses (Anthropic Messages API, one per line)
  check                demo over MCP and local + every built-in negative scenario (CI smoke test)
  tools                list bound tools with contract and model-facing schemas
  skills               list method packages and their binding status
  agents               list subagent types, their tools under the task's and what a call meets
  verify RUN_DIR       re-check a run dir offline: ledger chain, files, acceptance
  report RUN_DIR       verify a run dir and write one script-free HTML page of it
  serve                the fixture MCP server on stdio (protocol 2025-06-18); --http over HTTP
  probe -- CMD ARGS…   check any stdio MCP server (general profile; --call to judge tools)
  scenario new         write a starter scenario for your MCP servers' read-only tools

Options: --help (on any command), --version (--version --json: commit, Bun, target, build flags). A flag that takes one value may be given once.
No live model is called: the model is scripted (responses from scenario files, usage synthetic)
or replayed (--replay: recorded responses, usage as recorded), and every report labels which.

${EXIT_CODES_HELP}`,
  demo: `Usage: caplab demo [options]

Runs the excerpt task: read two sources, create one card, finish — three scripted
requests, three tool calls — and accepts the card only from evidence.

${RUN_FLAGS}

${EXIT_CODES_HELP}`,
  verify: `Usage: caplab verify RUN_DIR [--json] [--head HASH]

Re-checks a run dir offline, from its bytes alone: every ledger line canonical and
chained to the previous one, the seal, every recorded file's sha256 (payloads, responses,
snapshot, card, kept outputs), no unreferenced file, one run_start, at most one
acceptance, a final run_end consistent with them, and every acceptance check
re-computed from the recorded bytes by the task run_start names (none: the
excerpt; one this caplab does not know: evidence/unknown_task). Names the record format it read, how the run
ended, or the first event or file that fails. A record re-forged whole (ledger and
seal recomputed) is caught only against a head kept elsewhere:
  --head HASH   also require this ledger head (as printed by the run)

Exit codes: 0 verified (also an intact run that ended failed or interrupted),
1 does not verify, 2 usage error, 3 stdout could not be written.`,
  report: `Usage: caplab report RUN_DIR [--out FILE]

Verifies RUN_DIR as verify does (acceptance re-computed by the task run_start names),
then writes one self-contained HTML page of it: the verdict first, then the run's
header and servers, every request with the tools it offered and the sources it
disclosed (each linked to the call that disclosed it), every call as a strip of its
pipeline stages with its arguments, hooks, permission, result and MCP exchange,
acceptance, the run's end and the ledger. A record that does not verify is drawn as
found, every section labelled "unverified: as found". The page has no script, loads
nothing (a Content-Security-Policy allowing inline style only) and shows every recorded
string as text; past reportBytes the later calls are listed by ledger seq.
  --out FILE    where to write it (default ./<basename of RUN_DIR>.report.html);
                an existing regular file is replaced whole (temp file, then rename);
                a folder, a symlink or a path inside any run dir is refused

Exit codes: 0 the record verifies, 1 it does not (the page is written either way),
2 usage error: RUN_DIR is not a folder (verify says exit 1 there: it has a verdict,
report has nothing to draw) or --out is bad, nothing written; 3 the page or stdout
could not be written.`,
  tools: `Usage: caplab tools [--model plain|strict|anthropic] [--defer-tool=NAME]… [--json]
       caplab tools --mcp-config FILE [--require-server KEY]… [--defer-tool=NAME]… [--json]

Lists every bound tool — the excerpt task's read_source and create_card, and the library's
example contracts — with its contract schema, the model-facing schema for the target, both
hashes, the argument/result conversion versions and the binding id. A contract the target
cannot represent without changing its meaning is listed as refused, with the field and why.

With --mcp-config, starts FILE's servers as a run does and lists each one's tools as a run
binds them instead: model name (and full mcp__<key>__<tool> name where it was rewritten),
binding id (a run's instance ids name its run id, so its ids differ: these are a run id
"tools"'s), schema hashes (result: none without an outputSchema), hints as listed, the
default permission; a tool left unbound and a server that did not start, with class/kind.
At 2025-11-25, a tool's title and icons and the server's description, websiteUrl and icons
are shown too (each string cut, icons by src; never fetched, sent to the model or recorded),
and a tool a run calls as an MCP task says so (task required|optional).

--defer-tool=NAME (a tool, or a whole server mcp__<key>; repeatable) marks the tools a run with
the same flag would send deferred, and lists ToolSearch after the task's tools; an unknown name,
or ToolSearch itself, is a usage error.
${SERVER_FLAGS}

Exit codes: 0 listed, 2 usage error, 3 a required server did not start or stdout could not be
written.`,
  agents: `Usage: caplab agents [--agents-dir DIR]… [--trust] [--json]

Lists the subagent types a run's Agent would offer: the host's general-purpose, each DIR's *.md
files and, with --trust, the project's ./.claude/agents/. For each: its source and file hash, the
tools it would get under the task's own (its tools, or all of them, minus disallowedTools and
Agent), maxTurns, the fields recorded but not applied, and the refusal a call to it meets (a type
wider than the task's tools, background). A file that cannot be read is listed with why; a call
naming it is refused. Two files of one type are a usage error.

Exit codes: 0 listed, 2 usage error.`,
  skills: `Usage: caplab skills [--skills DIR]… [--trust] [--json]

Lists method packages (embedded, plus each DIR, plus with --trust the project's ./.claude/skills/;
without it a present one is a notice): name and description, kind (method package or Agent Skill),
origin, version, hash, the tools each requires and whether they bind, catalog status (listed, held
by paths, not model-invocable, no description) and the frontmatter fields not applied, each with
why. A plain Agent Skills SKILL.md (no caplab-* field) is shown as plain: its body is its method,
sent whole in every request. A package that cannot be read (no frontmatter, bad YAML, over a
limit) is listed as not read, with why. A package grants nothing: callable tools come from
bindings and permissions only.

Exit codes: 0 listed, 2 usage error (a bad folder, a symlink that leads nowhere, a name given
twice, more than 256 packages), 3 stdout could not be written.`,
  serve: `Usage: caplab serve
       caplab serve --http [--host H] [--port N] [--token-env NAME] [--allow-origin O]… [--exit-on-stdin-eof]

The fixture MCP server on stdio (newline-delimited JSON-RPC, protocol 2025-06-18). Tool
read_source with inputSchema and outputSchema from the same contract the host validates with;
results carry structuredContent and one text block holding it serialized. An initialize
offering 2025-11-25 gets that revision, with count_words {source_id, delay_ms} too: callable
as a task (tasks/get, tasks/result, tasks/cancel; no tasks/list). Logs go to stderr only; exits on stdin EOF.
Every stdin line gets one answer (-32700 not JSON, -32600 not a request, -32601 unknown method,
-32602 bad params) or one stderr line; stdin is not read while stdout is not being read.
caplab demo spawns it itself (this same program with \`serve\`), with a cleaned environment.

With --http, the same server over Streamable HTTP at /mcp; one stdout line once listening,
\`listening http://HOST:PORT/mcp\`. POST one message (application/json, at most 1 MiB: 413;
Accept listing application/json and text/event-stream: 406); requests are answered as JSON,
notifications 202; GET 405; DELETE ends the session, as do 30 minutes without a request. The
initialize answer names Mcp-Session-Id; later requests need it (400; unknown or expired 404) and
MCP-Protocol-Version naming the negotiated revision (400). Tasks are kept across sessions. At most 64 live sessions (503).
  --host H               address to bind (default 127.0.0.1; another one warns on stderr)
  --port N               port, 0 to 65535 (default 0: the system picks; the line names it)
  --token-env NAME       every request needs Authorization: Bearer <value of NAME> (401 otherwise);
                         NAME unset or empty is a usage error
  --allow-origin O       an origin (scheme://host[:port]) allowed besides loopback (repeatable); Host
                         and Origin must be loopback or allowed (403 otherwise)
  --exit-on-stdin-eof    stop when stdin closes (exit 0)
SIGINT/SIGTERM close the listener, let requests in flight finish (up to 5 s) and exit 130/143;
a second one cuts that wait short (same exit code).

Exit codes: 0 stdin closed (or stdout closed by the client), 2 usage error, 3 a stdin line over
1 MiB (mcpLineBytes) or stdout could not be written; with --http 3 it could not listen (address in
use), 130/143 stopped by SIGINT/SIGTERM.`,
  check: `Usage: caplab check [--json] [--junit FILE] [--out DIR] [--run-id ID] [--durable] [--mcp-config FILE]
       caplab check --scenarios DIR [--mcp-config FILE] [--defer-tool=NAME]… [--json] [--junit FILE] [--out DIR] [--run-id ID] [--durable]

The smoke test for CI: the demo over MCP and over the local path, and every built-in negative
scenario (same-batch, hostile-protocol-names, deferred-search, deferred-select,
deferred-undisclosed, deferred-wrong-request, deferred-bad-search, deferred-denied, skill-tool,
skill-once, skill-unknown, subagent-summary, subagent-verbatim, subagent-creates, subagent-wider,
subagent-nested, subagent-denied, subagent-create-twice and subagent-background also over MCP),
each with its expected ending;
every run dir is then verified offline. Prints a table scenario / expected / observed / ✓.
  --json         one JSON document on stdout
  --junit FILE   JUnit XML: one testcase per scenario, failures with the observed class/kind (and
                 each failed check id of an expectations scenario); FILE
                 is absent or a regular file its owner may write (replaced whole, keeping its
                 mode), in no run dir and not under --out
  --out DIR      where the run dirs go (default ./caplab-runs/<check-id>/); must not exist or be
                 empty, and lie in no run dir; taken before the first scenario (of checks given
                 one --out, one runs, the others exit 2)
  --run-id ID    the check id (${RUN_ID_RULE})
  --durable      fsync every ledger event and file as it is written (default: once per run dir, before its seal)
  --scenarios DIR  run every *.scenario.json of DIR instead (sorted by name, not the folders below
                 it, at most 256: checkScenarios), each case named by its file's stem, in its own
                 run dir with freshly started servers (only those its scenario names; they need
                 --mcp-config). Every file is read, parsed and checked, and its servers looked up
                 in the config, before the first case: a bad file, a symlink or folder named so, or
                 too many files is exit 2 with no run dir and no server started. An expectations
                 scenario passes iff every expectation holds and the run ended accepted (an unknown
                 outcome or a failed transport fails it, whatever was expected), its run dir
                 verifies, and each call's handler was entered at most once, only for a tool_use id
                 a recorded response asked for; --json lists each check with its verdict and evidence. An excerpt scenario is
                 judged as the built-in ones. A case whose servers do not start fails (exit 1).
                 Then each file's servers are started once and closed again, before the first case,
                 so what needs their listing (an output_valid tool, a permission rule's tool name)
                 is exit 2 too, whichever file it is in.
  --defer-tool=NAME  with --scenarios only: defer that tool (or whole server mcp__<key>) in every
                 scenario's run, before the scenario's own "defer" (the built-in cases defer what
                 their own scenarios name)
With --mcp-config (and no --scenarios), first starts FILE's servers as a run does and adds one case
per server, server-<key>: it started, every tool it listed bound, and it closed clean (it exited
once stdin ended, nothing of it left running).
${SERVER_FLAGS}

Exit codes: 0 every scenario ended as expected, 1 some did not, 2 usage error (paths, the config
and every --scenarios file are checked before the first scenario), 3 a required server did not
start (without --scenarios), or the JUnit file or stdout could not be written.`,
  probe: `Usage: caplab probe [options] -- CMD ARGS…
       caplab probe [options] [--mcp-config FILE] --server NAME [--trust]
       caplab probe [options] --url URL [--header-env NAME=VAR]…
       caplab probe [options] [--mcp-config FILE] --all [--trust]

Starts one stdio MCP server (or, with --url, reaches one over Streamable HTTP) and checks it
with the general profile: initialize (offers 2025-06-18; reads 2025-11-25, 2025-03-26 and
2024-11-05 answers and says which checks do not apply), tools/list within bounds, the
requested calls, a re-list after list_changed, then a clean close: of a stdio server's whole
process group and, on Linux, of processes that left it (setsid: caplab is their child
subreaper); of an HTTP server's session (DELETE). Every finding names its class, kind, tool,
evidence and basis: spec MUST, spec SHOULD, or caplab host rule. Annotations are shown as
untrusted hints. A protocol violation (any non-protocol stdout byte included) ends the session.
A server value past 4 KiB or 8 levels deep is clipped (its size and sha256 kept); text mode
shows control and bidi characters a server sent as escapes (\\x1b, \\u202e).
  --json                   one JSON document on stdout
  --call NAME [--args JSON] send tools/call once (repeatable) and judge the result: isError,
                           content types, structuredContent against outputSchema (Ajv; draft-07
                           and 2020-12), a text block carrying it, timing; a NAME the
                           server did not list is an unlisted_tool finding (still sent once).
                           At 2025-11-25, a tool with execution.taskSupport required or
                           optional on a server declaring tasks.requests.tools.call runs as a
                           task: tasks/get at its pollInterval (at least every 100 ms), its
                           transitions timed in the report, tasks/result when it ends; past
                           --timeout-ms (or on Ctrl-C) one tasks/cancel, outcome unknown (4)
  --timeout-ms N           per request (tools/list page, tools/call; default 10000), and again
                           for judging each result (judging_timeout past it)
  --startup-timeout-ms N   spawn to initialize answer (default 120000, for cold npx installs)
  --protocol auto|VERSION  how a stdio session opens (default: initialize offering 2025-06-18).
                           2026-07-28: server/discover with the _meta envelope, no initialize,
                           the envelope on every request, resultType on every result and
                           ttlMs/cacheScope on lists required; another VERSION (2025-11-25,
                           2025-06-18, 2025-03-26, 2024-11-05) is offered in initialize. auto:
                           server/discover first; 2026-07-28 listed: modern; -32022 listing
                           nothing probe reads: version_mismatch; another error, or no answer
                           within --timeout-ms: initialize (offering 2025-11-25) on the same
                           connection; the server gone: started once more for initialize.
                           The report names the signal. --url takes a VERSION other than
                           2026-07-28 only
  --task-status ID         after initialize, one tasks/get of task ID (+ tasks/result if it is
                           completed) instead of the listing and calls; exit 0 for a terminal
                           status, 4 for working or a task the server does not know (a new
                           stdio process knows no earlier task; an HTTP server may). Not with
                           --call
  --cwd DIR                the server's cwd (default: a fresh empty directory, removed at
                           close; then relative paths after -- that exist in your cwd are
                           made absolute)
  --env NAME=VALUE         set a variable for the server (repeatable)
  --env-allow NAME         pass a variable from this environment (repeatable)
  --url URL                a Streamable HTTP server (http: or https:, no user:password@);
                           not with --, --env, --env-allow or --cwd. Only that URL is
                           contacted: a redirect is not followed, no proxy is used; the
                           session is ended (DELETE) at close
  --header-env NAME=VAR    with --url: send header NAME with the value of your variable VAR,
                           as is (repeatable; VAR unset is a usage error; Authorization is
                           \"Bearer <token>\" in VAR). A header value is never taken from the
                           command line; headers over http: go only to localhost,
                           127.0.0.0/8 or [::1]; values are never printed
  --mcp-config FILE --server NAME   a Claude Code .mcp.json entry (stdio, or http with url and
                           headers; \${VAR} and \${VAR:-default} expanded; an http entry's
                           Authorization only "\${VAR}" or "Bearer \${VAR}"; alias --config);
                           without it, ./.mcp.json.
                           Its relative command with a / and each argument naming an existing
                           path resolve against the config file's folder (whatever --cwd says);
                           a bare command is found on the server's PATH
  --trust (--trust-project)     use the project's own ./.mcp.json (refused without it)
  --all                    every entry of the config, in order (stdio and http); --json gives
                           {servers: […], exit}, the worst exit
  --fail-on LEVEL          error (default), warning or note: the lowest finding level that
                           exits 1 (3 and 4 stay). By default a spec MUST is an error, a spec
                           SHOULD and a caplab host rule a warning, except duplicate_tool,
                           tools_changed, is_error, jsonrpc_error, unlisted_tool and what ends
                           the session (errors)
  --level KIND=LEVEL       one kind's level (repeatable); a MUST never goes below error; an
                           unknown kind is a usage error
  --pins FILE              compare each tool (hashes of its entry, its members and the
                           descriptions in its schemas) and the server with FILE: tool_added,
                           tool_renamed, tool_changed, instructions_changed, server_unpinned
                           (errors); tool_removed, tool_meta_changed, server_changed
                           (warnings); server_version_changed (a note). A bad FILE: exit 2
  --update-pins            with --pins: record this listing in FILE instead (caplab.pins/1,
                           deterministic, other servers' entries kept; not for an incomplete
                           listing or a session that ended early)
  --name NAME              the server's entry in the pin file (needed with --url or -- CMD;
                           a config entry's key by default)
  --sarif FILE             write SARIF 2.1.0 (one rule per kind, a result per finding)
  --junit FILE             write JUnit XML (a testsuite per server; failures at --fail-on)
  --fuzz N --fuzz-tool NAME  send N argument sets (at most 10000) drawn from each named tool's
                           inputSchema (--fuzz-tool repeatable), for real, over fresh starts of
                           the server; --seed S (default 1, printed) gives the same sets again.
                           Ajv sorts them: valid ones are judged as --call; an invalid one
                           answered ok is accepted_invalid_input (warning). A set that hangs
                           or that the server exits on: exit 4; stray output after a set or an
                           exit with no call pending: exit 3; the server restarted (at most 8
                           times), that tool fuzzed no further, no set sent twice
  --fuzz-replay FILE       re-send each fuzz finding of a --json report once: reproduced or not
The server's environment: PATH, HOME, LANG, LC_ALL, LC_CTYPE, TZ, TMPDIR, plus what you name
(a name you write passes even if it looks like a credential). The command line is printed
before start with \${VAR} unexpanded; values are never printed, only names.

Exit codes: 0 clean, 1 a finding at or above --fail-on, 2 usage error, 3 protocol, transport
or spawn failure (or stdout, the pin file, --sarif or --junit could not be written), 4 a call's
outcome is unknown (timeout, or the server exited while it was pending, --fuzz calls included;
never re-sent), 70
internal error (caplab's own fault: the server is killed and the temp cwd removed).
When several apply, the most severe wins: 2 > 70 > 130/143 > 4 > 3 > 1 > 0.`,
  run: `Usage: caplab run --scenario NAME|FILE [options]
       caplab run --replay FILE [options]

Runs a scenario (built-in names: see \`caplab check\`), or recorded model responses, with the
same options as demo (a replay adopts no method package), and with your own MCP servers.
  --scenario NAME|FILE    scripted responses: a built-in scenario or a scenario JSON file. A
                          scenario may name its servers ("servers": only these start, each
                          required), add permission rules ("permissions", applied after every
                          --settings file; deny still wins) and raise its request bound
                          ("max_requests", 1 to 64; default 8). With "task": "expectations" it
                          checks your servers: "expect.calls" by tool_use id (ok, or error
                          class/kind; "values" by JSON Pointer into the call's data;
                          "output_valid") and "expect.end" (calls, stop), one acceptance check
                          each, re-computed by verify; --transport, --skills and --no-skill do
                          not apply to it (exit 2).
  --replay FILE           replayed responses: JSONL, line N the Anthropic Messages API response
                          to request N (text and tool_use blocks; no pause_turn). The whole file
                          is checked before the run (at most 4 MiB, replayBytes; a bad line
                          exits 2, naming its line and field); usage is recorded as the file has
                          it, cache counts too, labelled replayed. Not with --scenario.
${RUN_FLAGS}
${SERVER_FLAGS}

${EXIT_CODES_HELP}`,
  scenario: `Usage: caplab scenario new --mcp-config FILE [--server KEY]… --out FILE

Starts the stdio and http servers of FILE as a run does (--server KEY, repeatable: only those
start; default every stdio and http entry), reads what each lists, closes them and writes a starter
scenario for the expectations task to --out: one scripted response with one call per tool whose
own hints say readOnlyHint: true and not destructiveHint: true, in model-name order (ids call-01,
call-02 …), then a final answer; each call expected ok, the end expected after that many calls on
the final answer, and permissions.allow naming exactly those tools. A call's arguments are its
inputSchema's required properties only, each its default, else its first enum value, else
minimum or 0 (number, integer), minLength × "a" (string) or false (boolean), and the set is
checked with Ajv against the schema; a tool whose set fails or that no rule covers is left out.
The description names every tool left out and why. No tool is called; the same servers give the
same bytes. Edit the arguments and expectations to state what your agent relies on.
  --mcp-config FILE       the servers (Claude Code's .mcp.json format), started as run starts them
  --server KEY            a server to write the starter for (repeatable; a key FILE lacks is exit 2);
                          each chosen server must start (exit 3 otherwise, nothing written)
  --out FILE              the starter; must not exist (a file, folder or symlink there is
                          precondition/target_exists, exit 2), its folder must exist and lie in no
                          run dir. Checked before any server starts; written whole or not at all
                          (a temp file beside it, linked into place), never replacing anything
  --startup-timeout-ms N  how long a server may take to answer initialize and list (default 120000)
  --timeout-ms N          how long one request to a server may take (default 10000)

Exit codes: 0 written, 2 usage error (a bad flag, config or --out; an unknown --server), 3 a
chosen server did not start, or the file could not be written.`,
};
