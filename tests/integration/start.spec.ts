/**
 * Starting the simulator as a user does (the CLI): what it says when it cannot start.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';

function start(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			['--import', 'tsx', 'agent/main.ts', '--http-port', '0', '--tcp-port', '0', ...args],
			{ cwd: ROOT, timeout: 20_000 },
			(err, stdout, stderr) =>
				resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
		);
	});
}

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'kds-start-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the simulator refuses to start, in one sentence, with exit code 2', () => {
	it('when kds.sqlite in the data directory is not a database', async () => {
		const file = join(dir, 'kds.sqlite');
		writeFileSync(file, 'not a database '.repeat(500));
		const result = await start(['--data-dir', dir]);
		expect(result).toEqual({
			code: 2,
			stdout: '',
			stderr: `Cannot open the order store ${file}: file is not a database. Move the file away, or start with another --data-dir.\n`
		});
	});

	it('when a setting has a bad value', async () => {
		const result = await start(['--data-dir', dir, '--inspector-retention', 'lots']);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toMatch(/^Invalid value for --inspector-retention .*"lots".*\n$/);
		expect(result.stderr.split('\n')).toHaveLength(2);
	});
});
