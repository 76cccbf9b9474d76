import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-lock.ts';
import { StoreError } from './store.ts';

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'kds-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('lockDataDir', () => {
	it('refuses a second holder, naming the directory and this process, until released', () => {
		const first = lockDataDir(dir);
		let refusal: unknown;
		try {
			lockDataDir(dir);
		} catch (err) {
			refusal = err;
		}
		expect(refusal).toBeInstanceOf(StoreError);
		expect((refusal as Error).message).toMatch(
			new RegExp(
				`^The data directory ${dir} is in use by another simulator, process ${process.pid} \\(.*\\): stop it, or start this one with another --data-dir\\.$`
			)
		);
		first.release();
		lockDataDir(dir).release();
	});

	it('creates a missing directory', () => {
		const nested = join(dir, 'a', 'b');
		const lock = lockDataDir(nested);
		expect(existsSync(join(nested, 'kds.lock.json'))).toBe(true);
		lock.release();
		expect(existsSync(join(nested, 'kds.lock.json'))).toBe(false);
	});
});
