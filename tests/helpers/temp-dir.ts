/**
 * A fresh directory under the OS's temporary directory for the running test (a data directory,
 * a fake root, a stand-in binary), removed once the test has finished, whatever its outcome.
 * Call it inside a test (or a function a test calls), not in a beforeAll.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

export function tempDir(prefix = 'kds-'): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
	return dir;
}
