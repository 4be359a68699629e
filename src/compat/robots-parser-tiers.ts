/**
 * One agent's rules as the drop-in answers them: by a scan (./robots-parser-scan.ts) for its first
 * UNCOMPILED_CHECKS checks, then compiled for the WebAssembly matcher (./robots-parser-compile.ts). Both give
 * the same verdict and the same deciding line; a check the scan could find costly (a hostile file, a huge
 * URL) compiles at once, the compiled matcher being linear.
 */
import type { AgentRules } from '../api/agent-rules.js';
import { QUERY_PATH } from '../engine/backend.js';
import { SCAN_WORK_LIMIT, type RuleRecords } from '../parse/rule-records.js';
import { compileCompatRules } from './robots-parser-compile.js';
import { UNCOMPILED_CHECKS, scanSignedLine } from './robots-parser-scan.js';

export class TieredRules {
  private checks = 0;
  private compiled: AgentRules | undefined;
  constructor(private readonly records: RuleRecords) {}

  /** Whether it has rules at all (an agent can be named by an empty `Disallow:` alone). */
  get empty(): boolean {
    return this.records.count === 0;
  }

  /** Whether its rules are compiled by now. */
  get isCompiled(): boolean {
    return this.compiled !== undefined;
  }

  /**
   * The line of the rule that decides a URL (0 when none does), negated for a disallow. The URL is given as
   * `url`, whose path starts at `pathStart` and holds no `%` (it is matched as written), or as its path and
   * query, `path`, escapes upper-cased.
   */
  signedLine(url: string, pathStart: number, path: string | undefined): number {
    let compiled = this.compiled;
    if (compiled === undefined) {
      const length = path === undefined ? url.length - pathStart : path.length;
      if (++this.checks <= UNCOMPILED_CHECKS && this.records.scanWork(length) <= SCAN_WORK_LIMIT) {
        return scanSignedLine(this.records, path ?? url.slice(pathStart));
      }
      compiled = this.compiled = compileCompatRules(this.records);
    }
    return path === undefined ? compiled.signedLineOf(url) : compiled.signedLineOf(path, QUERY_PATH);
  }
}
