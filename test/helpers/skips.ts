import path from 'node:path';
import { test } from 'node:test';

/**
 * A part of this test file that cannot run on this machine (no PostgreSQL, no S3 gateway) is
 * reported to the runner as a skipped test, with the reason, so the summary counts it and says
 * why; `node --test` prints the reason beside it. Under CI the helpers fail instead of skipping.
 */
export function reportSkipped(part: string, reason: string): void {
  const file = process.argv[1] ? path.relative(process.cwd(), process.argv[1]) : 'this file';
  test(`${part} of ${file}`, { skip: reason }, () => {});
}
