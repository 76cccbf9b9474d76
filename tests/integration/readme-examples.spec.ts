/**
 * The README's examples as a newcomer pastes them: the TCP examples (nc, and node -e for a machine
 * without nc) and the curl example run in a shell against a running simulator, with its ports in
 * place of 9104 and 8104; the Playwright snippet is examples/playwright/readme.spec.ts, which
 * npm run test:e2e runs and npm run check:example type-checks.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnAgent, type AgentProcess } from '../helpers/process.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's code blocks of `lang`. */
function blocks(lang: string): string[] {
	return [...README.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map(
		(m) => m[1]
	);
}

/** The one sh block holding `marker`, without its comment lines. */
function shBlock(marker: string): string {
	const found = blocks('sh').filter((b) => b.includes(marker));
	expect(found).toHaveLength(1);
	return found[0]
		.split('\n')
		.filter((line) => !line.startsWith('#'))
		.join('\n');
}

// Outside the clone: a user pastes these anywhere, and nothing in them may need the clone's files.
const shell = (script: string) => promisify(execFile)('sh', ['-c', script], { cwd: tmpdir() });

describe("the README's examples, pasted", () => {
	let agent: AgentProcess;
	let tcp: { host: string; port: number };
	beforeAll(async () => {
		agent = await spawnAgent([
			'--memory',
			'--http-port',
			'0',
			'--tcp-port',
			'0',
			'--log-level',
			'silent'
		]);
		tcp = agent.tcp.get('kds-1')!;
	});
	afterAll(() => agent?.child.kill('SIGTERM'));

	/** A block with this simulator's ports in place of the README's 9104 and 8104. */
	const here = (block: string) =>
		block
			.replaceAll('127.0.0.1 9104', `${tcp.host} ${tcp.port}`)
			.replaceAll('connect(9104, "127.0.0.1"', `connect(${tcp.port}, "${tcp.host}"`)
			.replaceAll('http://127.0.0.1:8104', agent.httpUrl);

	it('nc -N: the screen answers with the order id', async () => {
		const { stdout } = await shell(here(shBlock('| nc -N 127.0.0.1 9104')));
		expect(stdout).toBe('1001');
	});

	it('node -e, where there is no nc: the same answer', async () => {
		const { stdout } = await shell(here(shBlock('node -e ')));
		expect(stdout).toBe('1002');
	});

	it('curl: the HTTP integrator API takes the sample order', async () => {
		const { stdout } = await shell(here(shBlock('curl -s -X POST http://127.0.0.1:8104')));
		expect(JSON.parse(stdout)).toMatchObject({ orderId: 'W-2001' });
	});

	it('the orders are on the screen', async () => {
		const res = await fetch(`${agent.httpUrl}/api/admin/screens/kds-1`);
		expect(res.status).toBe(200);
		const screen = (await res.json()) as { cards: { id: string }[] };
		expect(screen.cards.map((c) => c.id)).toEqual(
			expect.arrayContaining(['1001', '1002', 'W-2001'])
		);
	});
});

describe("the README's Playwright snippet", () => {
	it('is examples/playwright/readme.spec.ts, which the e2e run runs as an integrator would', () => {
		const snippet = blocks('ts').find((b) => b.includes("from 'kds-sim/testing'"));
		expect(snippet).toBe(readFileSync(join(ROOT, 'examples/playwright/readme.spec.ts'), 'utf8'));
	});
});
