/**
 * A recording replayed: a messy session (modifiers, CJK and emoji, a full update, a partial update,
 * a cancel, a refusal, over TCP and HTTP) sent to one simulator, exported from its inspector as a
 * session file (GET /api/admin/messages/session), and replayed by `kds-sim replay` into a fresh
 * simulator: the same tickets appear there, as the JSON view of each screen shows them; redacted,
 * the same tickets under stand-in names, and no customer's name, phone or address in the file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import {
	formatReplaySummary,
	loadSession,
	readReplayArgs,
	replay
} from '../../agent/cli/replay.ts';
import { ROOT } from '../helpers/process.ts';
import { sendTcp } from '../helpers/tcp.ts';
import { startTestAgent } from '../helpers/test-agent.ts';

const HEADERS = {
	'content-type': 'application/json',
	'x-integration-token': 'kds-demo-token',
	'x-location-id': 'loc-1'
};

async function http(
	agent: RunningAgent,
	method: string,
	path: string,
	devices: string,
	body: unknown
) {
	const res = await fetch(`${agent.httpUrl}${path}`, {
		method,
		headers: { ...HEADERS, 'x-device-ids': devices },
		body: typeof body === 'string' ? body : JSON.stringify(body)
	});
	return `${res.status} ${await res.text()}`;
}

/** What each screen shows, without what time alone changes (how long a card has been up). */
async function tickets(agent: RunningAgent): Promise<unknown> {
	const screens = (await (await fetch(`${agent.httpUrl}/api/admin/screens`)).json()) as Array<
		Record<string, unknown> & { cards: Array<Record<string, unknown>> }
	>;
	return screens.map((s) => ({
		id: s.id,
		cards: s.cards.map((c) => {
			const {
				elapsedMs: _e,
				timer: _t,
				receivedAt: _r,
				findings,
				...card
			} = c as Record<string, unknown> & {
				findings: Array<{ code: string; severity: string; path: string }>;
			};
			return { ...card, findings: findings.map((f) => `${f.severity} ${f.code} ${f.path}`).sort() };
		})
	}));
}

const dir = mkdtempSync(join(tmpdir(), 'kds-replay-'));
let recorded: RunningAgent;
const fresh: RunningAgent[] = [];

beforeAll(async () => {
	recorded = await startTestAgent();
	const kds1 = recorded.screens[0].tcp;
	const kds2 = recorded.screens[1].tcp;
	const replies: string[] = [];
	// TCP: a create with modifiers, a CJK and emoji name, a phone and an address.
	replies.push(
		await sendTcp(kds1.host, kds1.port, {
			command: 'create-order',
			order: {
				id: 'R1',
				name: '陳さん 🌮',
				time: '2026-12-07T04:30:00Z',
				mode: 'Delivery',
				phoneNumber: '+14155550123',
				deliveryAddress: '1 Main St, Springfield',
				specialInstructions: 'Ring 陳さん at +1 415 555 0123',
				items: [
					{
						lineId: '1',
						name: '抹茶ラテ',
						qty: 2,
						mods: [{ name: 'Oat milk' }, { name: 'Extra shot', qty: 2 }]
					},
					{ lineId: '2', name: 'Pad Thai 🍜', qty: 1, mods: ['Mild'] }
				]
			}
		})
	);
	// HTTP: a create to both screens, then a full update of it.
	const order = {
		id: 'H1',
		name: 'Zoë Ångström',
		time: '2026-12-07T04:31:00+01:00',
		mode: 'ToGo',
		phoneNumber: '+447700900123',
		items: [
			{
				lineId: 'a',
				name: 'Cheeseburger',
				qty: 1,
				mods: [{ name: 'No onion' }, { name: 'Bacon' }]
			},
			{ lineId: 'b', name: 'Fries', qty: 1, mods: [] }
		]
	};
	replies.push(await http(recorded, 'POST', '/integrators/kds-orders', 'kds-1,kds-2', order));
	replies.push(
		await http(recorded, 'PUT', '/integrators/kds-orders', 'kds-1,kds-2', {
			...order,
			items: [
				...order.items,
				{ lineId: 'c', name: 'Milkshake', qty: 1, mods: [{ name: 'Vanilla' }] }
			]
		})
	);
	// TCP: a partial update that adds, changes and removes; a duplicate create (refused).
	replies.push(
		await sendTcp(kds1.host, kds1.port, {
			command: 'partial-update-order',
			order: {
				id: 'R1',
				itemsToAdd: [{ lineId: '3', name: 'Gyoza 餃子', qty: 6, mods: [] }],
				itemsToUpdate: [{ lineId: '1', name: '抹茶ラテ', qty: 3, mods: [{ name: 'Oat milk' }] }],
				itemsToRemove: ['2']
			}
		})
	);
	replies.push(
		await sendTcp(kds1.host, kds1.port, {
			command: 'create-order',
			order: { id: 'R1', name: 'Again', time: '2026-12-07T04:32:00Z', mode: 'ToGo', items: [] }
		})
	);
	// A create on kds-2 only, cancelled over HTTP; bytes that are not JSON.
	replies.push(
		await sendTcp(kds2.host, kds2.port, {
			command: 'create-order',
			order: {
				id: 'C1',
				name: 'Kai',
				time: '2026-12-07T04:33:00Z',
				mode: 'For Here',
				items: [{ lineId: '1', name: 'Taco', qty: 1, mods: [] }]
			}
		})
	);
	replies.push(
		await http(recorded, 'PUT', '/integrators/kds-orders/cancel', 'kds-2', { id: 'C1' })
	);
	replies.push(await sendTcp(kds2.host, kds2.port, 'hello?'));
	expect(replies.map((r) => r.trim().split(' ')[0])).toEqual([
		'R1',
		'201',
		'200',
		'R1',
		'DUPLICATE_ORDER_ID',
		'C1',
		'200',
		'Unable'
	]);
	await recorded.engine.settled();
}, 60_000);

afterAll(async () => {
	await Promise.all([recorded, ...fresh].map((a) => a?.close()));
});

async function exported(query: string): Promise<string> {
	const res = await fetch(`${recorded.httpUrl}/api/admin/messages/session${query}`);
	expect(res.status).toBe(200);
	expect(res.headers['get']('content-type')).toBe('application/x-ndjson; charset=utf-8');
	expect(res.headers.get('content-disposition')).toMatch(
		/^attachment; filename="kds-session-.*\.jsonl"$/
	);
	return res.text();
}

describe('kds-sim replay', () => {
	it('brings the same tickets to a fresh simulator (customer data kept)', async () => {
		const file = join(dir, 'kept.jsonl');
		writeFileSync(file, await exported('?redact=false'));
		const target = await startTestAgent();
		fresh.push(target);
		const session = loadSession(file);
		expect(session.messages.map((m) => m.transport)).toEqual([
			'tcp',
			'http',
			'http',
			'tcp',
			'tcp',
			'tcp',
			'http',
			'tcp'
		]);
		const summary = await replay(
			readReplayArgs([file, '--url', target.httpUrl, '--fast']),
			session
		);
		expect(formatReplaySummary(summary, session)).toMatch(
			/^Replayed 8 of 8 messages \(5 TCP, 3 HTTP\) in [\d.]+ s; recorded by kds-sim [\d.]+ at .*\.\nEvery reply as recorded\.\n$/
		);
		await target.engine.settled();
		const want = await tickets(recorded);
		expect(JSON.stringify(want)).toContain('陳さん 🌮');
		expect(await tickets(target)).toEqual(want);
	}, 60_000);

	it('redacted: the same tickets under stand-in names, and no customer data in the file', async () => {
		const text = await exported('');
		for (const secret of [
			'陳さん',
			'Zoë',
			'4155550123',
			'447700900123',
			'1 Main St',
			'415 555 0123'
		])
			expect(text).not.toContain(secret);
		expect(text).toContain('抹茶ラテ');
		const file = join(dir, 'redacted.jsonl');
		writeFileSync(file, text);
		const target = await startTestAgent();
		fresh.push(target);
		const summary = await replay(
			readReplayArgs([file, '--url', target.httpUrl, '--speed', '50']),
			loadSession(file)
		);
		expect(summary.differ).toEqual([]);
		await target.engine.settled();
		const names = (await (await fetch(`${target.httpUrl}/api/admin/screens/kds-1`)).json()) as {
			cards: Array<{ id: string; title: string; sections: unknown }>;
		};
		const was = (await (
			await fetch(`${recorded.httpUrl}/api/admin/screens/kds-1`)
		).json()) as typeof names;
		expect(names.cards.map((c) => [c.id, c.title])).toEqual([
			['R1', 'Customer 1'],
			['H1', 'Customer 2']
		]);
		expect(names.cards.map((c) => c.sections)).toEqual(was.cards.map((c) => c.sections));
	}, 60_000);

	it('exports a stretch of the log by ids, and names what it cannot read', async () => {
		const log = (await (await fetch(`${recorded.httpUrl}/api/admin/messages`)).json()) as Array<{
			id: number;
		}>;
		const ids = log.map((e) => e.id).sort((a, b) => a - b);
		const stretch = (await exported(`?from=${ids[1]}&to=${ids[2]}`)).trimEnd().split('\n');
		expect(stretch).toHaveLength(3);
		expect(JSON.parse(stretch[0])).toMatchObject({ messages: 2, locations: ['loc-1'] });
		expect(JSON.parse(stretch[1])).toMatchObject({ seq: 1, offsetMs: 0, method: 'POST' });
		const picked = (await exported(`?ids=${ids[0]},${ids[7]}`)).trimEnd().split('\n');
		expect(picked.slice(1).map((l) => JSON.parse(l).transport)).toEqual(['tcp', 'tcp']);
		const all = (await exported(`?since=2000-01-01T00:00:00Z`)).trimEnd().split('\n');
		expect(all).toHaveLength(9);
		expect((await exported(`?until=2000-01-01T00:00:00Z`)).trimEnd().split('\n')).toHaveLength(1);
		const bad = await fetch(`${recorded.httpUrl}/api/admin/messages/session?from=x&to=3&redact=no`);
		expect(bad.status).toBe(422);
		const body = (await bad.json()) as { errors: Array<{ path: string }>; message: string };
		expect(body.errors.map((e) => e.path).sort()).toEqual(['from', 'redact']);
	});

	it('refuses a bad file from the command line, naming the line and the field (exit code 2)', async () => {
		const [header, first, second] = (await exported(''))
			.split('\n')
			.slice(0, 3)
			.map((l) => JSON.parse(l) as Record<string, unknown>);
		const file = join(dir, 'bad.jsonl');
		const lines = [
			{ ...header, messages: 2 },
			{ ...first, screen: 7 },
			{ ...second, offsetMs: -1 }
		];
		writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
		const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
			execFile(
				process.execPath,
				['--import', 'tsx', 'agent/cli/cli.ts', 'replay', file, '--url', recorded.httpUrl],
				{ cwd: ROOT, timeout: 30_000 },
				(err, stdout, stderr) =>
					resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
			)
		);
		expect(run).toEqual({
			code: 2,
			stdout: '',
			stderr: [
				`kds-sim replay: ${file} is not a session file it can replay:`,
				`${file}:2: screen: expected a string, got 7`,
				`${file}:3: offsetMs: expected a number of milliseconds (0 or more)`,
				''
			].join('\n')
		});
	}, 60_000);

	it('refuses bad flags and a screen the target does not have, before sending anything', async () => {
		expect(() => readReplayArgs(['s.jsonl', '--speed', '0'])).toThrow(
			'kds-sim replay: invalid --speed "0" (expected a number above 0, e.g. 2 for twice as fast)'
		);
		expect(() => readReplayArgs(['s.jsonl', '--speed', '2', '--fast'])).toThrow(
			'kds-sim replay: give --speed or --fast, not both'
		);
		expect(() => readReplayArgs(['s.jsonl', '--tcp', 'kds-1'])).toThrow(
			'kds-sim replay: invalid --tcp "kds-1" (expected screen=host:port, e.g. kds-1=127.0.0.1:9104)'
		);
		expect(() => readReplayArgs([])).toThrow('give one session file');
		const text = (await exported('')).replaceAll('"screen":"kds-2"', '"screen":"kds-9"');
		const file = join(dir, 'elsewhere.jsonl');
		writeFileSync(file, text);
		const before = (await (
			await fetch(`${recorded.httpUrl}/api/admin/messages`)
		).json()) as unknown[];
		await expect(
			replay(readReplayArgs([file, '--url', recorded.httpUrl, '--fast']), loadSession(file))
		).rejects.toThrow(
			`kds-sim replay: the simulator at ${recorded.httpUrl} has no screen kds-9 (give --tcp kds-9=host:port, or start it with the recording's config)`
		);
		const after = (await (
			await fetch(`${recorded.httpUrl}/api/admin/messages`)
		).json()) as unknown[];
		expect(after).toHaveLength(before.length);
	});
});
