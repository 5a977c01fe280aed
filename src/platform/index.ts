/**
 * What caplab needs from the operating system beyond Node's API: /proc
 * reading and the child subreaper that finds processes escaped by `setsid`
 * (Linux; the gap elsewhere is stated in every close report).
 */
export { allProcesses, isAlive, procStat } from './proc.ts';
export type { ProcStat } from './proc.ts';
export { becomeSubreaper, mergeReports, reapOrphans, trackChild } from './subreaper.ts';
export type { NamedCount, OrphanReport, SweepGraces } from './subreaper.ts';
