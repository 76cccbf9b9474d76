/**
 * Starting the simulator as a user does (the CLI): what it says when it cannot start.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PUT_ORDER, Store } from '../../agent/store/store.ts';
import { agentFlags, ROOT, spawnAgent, waitForExit } from '../helpers/process.ts';

function start(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			['--import', 'tsx', 'agent/cli/main.ts', '--http-port', '0', '--tcp-port', '0', ...args],
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

	it('when kds.sqlite is damaged inside (a page overwritten), and leaves the file as it was', async () => {
		const store = new Store({ dataDir: dir });
		const db = store.database;
		const put = db.prepare(PUT_ORDER);
		for (let i = 0; i < 200; i++) put.run('kds-1', `K${i}`, 'active', 'x'.repeat(500), '[]');
		store.close();
		const file = join(dir, 'kds.sqlite');
		const bytes = readFileSync(file);
		// Page 3: the root of the (screen, order id) index, which loading the orders never reads.
		bytes.fill(0x41, 4096 * 2, 4096 * 3);
		writeFileSync(file, bytes);
		const result = await start(['--data-dir', dir]);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toMatch(
			new RegExp(
				`^The order store ${file} is damaged \\([^\n]+\\)\\. Move the file away, or start with another --data-dir\\.\n$`
			)
		);
		expect(readFileSync(file).equals(bytes)).toBe(true);
	}, 30_000);

	it('when a setting has a bad value', async () => {
		const result = await start(['--data-dir', dir, '--inspector-retention', 'lots']);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toMatch(/^Invalid value for --inspector-retention .*"lots".*\n$/);
		expect(result.stderr.split('\n')).toHaveLength(2);
	});
});

describe('one simulator per data directory', () => {
	it('a second simulator on the same directory stops at start, naming it and the holder', async () => {
		const first = await spawnAgent(agentFlags(dir));
		try {
			const second = await start(['--data-dir', dir]);
			expect(second.code).toBe(2);
			expect(second.stdout).toBe('');
			expect(second.stderr).toBe(
				`The data directory ${dir} is in use by another simulator, process ${first.child.pid} (main.ts --data-dir ${dir} --http-port 0 --tcp-port 0 --log-level silent): stop it, or start this one with another --data-dir.\n`
			);
			// The first one is untouched: it still answers.
			expect((await fetch(`${first.httpUrl}/api/locations`)).status).toBe(200);
		} finally {
			first.child.kill('SIGTERM');
			await waitForExit(first.child);
		}
		// Stopped cleanly: the directory is free again.
		const third = await spawnAgent(agentFlags(dir));
		third.child.kill('SIGTERM');
		await waitForExit(third.child);
	}, 60_000);

	it('a lock left by kill -9 does not block the restart', async () => {
		const first = await spawnAgent(agentFlags(dir));
		first.child.kill('SIGKILL');
		await waitForExit(first.child);
		const again = await spawnAgent(agentFlags(dir));
		try {
			expect((await fetch(`${again.httpUrl}/api/locations`)).status).toBe(200);
		} finally {
			again.child.kill('SIGTERM');
			await waitForExit(again.child);
		}
	}, 60_000);
});
