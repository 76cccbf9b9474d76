/**
 * The command-line sender, run as a user would: reply, findings and exit code.
 */
import { execFile } from 'node:child_process';
import { describe, expect } from 'vitest';
import { agentTest } from '../helpers/agent-test.ts';
import { ROOT } from '../helpers/process.ts';

const it = agentTest();

function run(
	args: string[],
	stdin?: string
): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		const child = execFile(
			process.execPath,
			['--import', 'tsx', 'agent/cli/cli.ts', 'send', ...args],
			{ cwd: ROOT },
			(err, stdout, stderr) =>
				resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
		);
		if (stdin !== undefined) child.stdin!.end(stdin);
	});
}

describe('kds-sim send', () => {
	it('sends a file over TCP and prints the reply and the findings', async ({ agent }) => {
		const { host, port } = agent.screens[0].tcp;
		const result = await run([
			'tests/fixtures/samples/tcp-bare-legacy.json',
			'--tcp',
			`${host}:${port}`
		]);
		expect(result.code).toBe(0);
		const lines = result.stdout.trim().split('\n');
		expect(lines[0]).toBe('1003');
		expect(
			lines
				.slice(1)
				.map((l) => l.split(/\s+/)[1])
				.sort()
		).toEqual(['KDS-MODS-PLAIN-STRING', 'KDS-TCP-BARE-ORDER', 'KDS-TCP-TIME-STRING']);
		const again = await run([
			'tests/fixtures/samples/tcp-bare-legacy.json',
			'--tcp',
			`${host}:${port}`
		]);
		expect(again.code).toBe(1);
		expect(again.stdout.split('\n')[0]).toBe('DUPLICATE_ORDER_ID');
	});

	it('names the leniencies: a Python isoformat() time, read in --time-zone, and nulls', async ({
		agent
	}) => {
		const body = JSON.stringify({
			id: 'CLI-PY',
			name: 'Py',
			time: '2026-11-24T02:00:59.729233',
			mode: 'ToGo',
			server: null,
			items: [{ lineId: '1', name: 'Tea', qty: 1, mods: [] }]
		});
		const result = await run(
			['-', '--http', agent.httpUrl, '--devices', 'kds-1', '--time-zone', 'America/Chicago'],
			body
		);
		expect(result.code).toBe(0);
		const lines = result.stdout.trim().split('\n');
		expect(lines[0]).toMatch(/^201 /);
		expect(lines.slice(1).sort()).toEqual([
			'info    KDS-FIELD-NULL  server: server is null: read as absent',
			'info    KDS-TIME-FRACTION  time: 6 fractional digits: the screen keeps milliseconds (729)',
			`warning KDS-TIME-NO-OFFSET  time: "2026-11-24T02:00:59.729233" has no offset: read as 2026-11-24T02:00:59.729-06:00 (America/Chicago), the local time of the screen's location`
		]);
	});

	it('reads standard input and sends to the HTTP API', async ({ agent }) => {
		const body = JSON.stringify({
			id: 'CLI-1',
			name: 'Cli',
			time: '2026-11-22T18:00:00Z',
			mode: 'ToGo',
			items: [],
			phoneNumber: '555-1234'
		});
		const result = await run(['-', '--http', agent.httpUrl, '--devices', 'kds-2'], body);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^201 \{"orderId":"CLI-1"/);
		expect(result.stdout).toMatch(/warning KDS-PHONE-NOT-E164 {2}phoneNumber: /);
		expect(agent.engine.queue('kds-2').map((r) => r.context.id)).toEqual(['CLI-1']);
	});

	it('refuses bad usage with one sentence and exit code 2', async () => {
		const result = await run(['x.json', '--tcp', 'nowhere']);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/^Invalid value for --tcp: "nowhere" \(expected host:port\)/);
	});

	it('prints its usage on --help and exits 0', async () => {
		const result = await run(['--help']);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^Usage:\n {2}kds-sim send <file\.json \| -> --tcp <host:port>/);
		expect(result.stderr).toBe('');
	});
});
