/**
 * What caplab needs from the operating system beyond Node's API: /proc
 * reading, process-group signalling and membership (the one teardown MCP
 * servers and command hooks share), and the child subreaper that finds
 * processes escaped by `setsid` (Linux; the gap elsewhere is stated in every
 * close report).
 */
export { allProcesses, isAlive, procStat } from './proc.ts';
export type { ProcStat } from './proc.ts';
export { becomeSubreaper, mergeReports, reapOrphans, trackChild } from './subreaper.ts';
export type { NamedCount, OrphanReport, SweepGraces } from './subreaper.ts';
export { livingMembers, signalGroup, waitGroupGone } from './process-group.ts';
