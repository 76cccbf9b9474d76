/**
 * `kds-sim rush`: orders on demand, as a busy POS sends them, through a running simulator's real
 * TCP ports and HTTP API (so findings, webhooks, SMS, screen communication and the tracker all
 * happen as for a real POS): a steady rate for a duration (or a number of orders), a mix of
 * interfaces, order modes and sizes, updates and cancels, the odd long or CJK/emoji name, from a
 * seed (the same seed sends the same orders). Stops on Ctrl-C with a summary.
 */
import { ORDER_ROUTES } from '#core/integrator-routes';
import { ORDER_MODES } from '#core/order-schema';
import { seededRandom as seeded } from '#core/random';
import { readCommandLine, UsageError } from '../command-line.ts';
import {
	randomSeed,
	rushHelpLine,
	RUSH_NUMBERS,
	RUSH_SCREENS,
	type RushNumberName
} from '../rush-options.ts';
import type { Integration } from '../http/simulator-bodies.ts';
import { sendTcp } from '../tcp/client.ts';

export const RUSH_HELP = `kds-sim rush: send realistic orders to a running simulator

Usage: kds-sim rush [options]

Options:
  --url <url>          the simulator's HTTP address (default http://127.0.0.1:8104)
${(['rate', 'duration', 'orders', 'seed'] as const).map((n) => rushHelpLine(n, RUSH_NUMBERS[n].arg, RUSH_NUMBERS[n].help)).join('\n')}
${rushHelpLine('screens', '<ids>', RUSH_SCREENS.help)}
${(['tcp', 'updates', 'cancels'] as const).map((n) => rushHelpLine(n, RUSH_NUMBERS[n].arg, RUSH_NUMBERS[n].help)).join('\n')}
  --admin-token <t>    the simulator's admin token, when it is not on this host
  -h, --help           this text
`;

export interface RushOptions {
	url: string;
	rate: number;
	duration: number;
	orders: number | null;
	seed: number;
	screens: string[] | null;
	tcp: number;
	updates: number;
	cancels: number;
	adminToken?: string;
}

/** A numeric option of the command line, read against its row of RUSH_NUMBERS. */
function number(name: RushNumberName, text: string | undefined, fallback: number): number {
	if (text === undefined) return fallback;
	const { min, max } = RUSH_NUMBERS[name];
	const n = Number(text);
	if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max)
		throw new UsageError(
			`kds-sim rush: invalid --${name} "${text}" (expected a number ${min}-${max})`
		);
	return n;
}

/** The default of an option that has one. */
const byDefault = (name: 'rate' | 'duration' | 'tcp' | 'updates' | 'cancels') =>
	RUSH_NUMBERS[name].fallback;

export function readRushArgs(argv: string[]): RushOptions {
	const { values } = readCommandLine(
		{
			args: argv,
			options: {
				url: { type: 'string' },
				rate: { type: 'string' },
				duration: { type: 'string' },
				orders: { type: 'string' },
				seed: { type: 'string' },
				screens: { type: 'string' },
				tcp: { type: 'string' },
				updates: { type: 'string' },
				cancels: { type: 'string' },
				'admin-token': { type: 'string' }
			},
			allowPositionals: false
		},
		{ before: 'kds-sim rush: ', after: '. See --help.' }
	);
	const url = values.url ?? 'http://127.0.0.1:8104';
	if (!/^https?:\/\/[^/]+/.test(url))
		throw new UsageError(`kds-sim rush: invalid --url "${url}" (expected http://host:port)`);
	return {
		url: url.replace(/\/+$/, ''),
		rate: number('rate', values.rate, byDefault('rate')),
		duration: number('duration', values.duration, byDefault('duration')),
		orders: values.orders === undefined ? null : number('orders', values.orders, 0),
		seed: number('seed', values.seed, randomSeed()),
		screens: values.screens
			? values.screens
					.split(',')
					.map((s) => s.trim())
					.filter(Boolean)
			: null,
		tcp: number('tcp', values.tcp, byDefault('tcp')),
		updates: number('updates', values.updates, byDefault('updates')),
		cancels: number('cancels', values.cancels, byDefault('cancels')),
		adminToken: values['admin-token']
	};
}

const NAMES = [
	'Ana',
	'Ben',
	'Chloé',
	'Dev',
	'Eun-ji',
	'陳さん',
	'Fatima',
	'Gus 🌮',
	'Hiro',
	'Inés',
	'Jamal',
	'Kai'
];
const LONG_NAME = 'Bartholomew Featherstonehaugh-Wolfeschlegelsteinhausen (catering, 3rd floor)';
const MENU: Array<[string, string[]]> = [
	['Cheeseburger', ['No onion', 'Extra cheese', 'Bacon', 'Well done']],
	['Fries', ['Extra salt', 'No salt']],
	['Chicken Sandwich', ['Spicy', 'No mayo']],
	['Caesar Salad', ['No croutons', 'Dressing on the side']],
	['抹茶ラテ', ['Oat milk', 'Extra shot']],
	['Pad Thai 🍜', ['Mild', 'Extra peanuts']],
	['Margherita Pizza', ['Gluten free', 'Extra basil']],
	['Buffalo Wings (12 pc, extra hot, blue cheese on the side)', []],
	['Milkshake', ['Chocolate', 'Vanilla', 'Whipped cream']]
];

/** One order of the rush, its n-th, from the generator: 1-6 items, a mode, sometimes a long name. */
export function rushOrder(random: () => number, n: number, runId: string) {
	const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
	const size = 1 + Math.floor(random() ** 2 * 6);
	const items = Array.from({ length: size }, (_, i) => {
		const [name, mods] = pick(MENU);
		const chosen = mods.filter(() => random() < 0.3);
		return { lineId: String(i + 1), name, qty: random() < 0.2 ? 2 : 1, mods: chosen };
	});
	return {
		id: `R${runId}-${n}`,
		name: random() < 0.08 ? LONG_NAME : pick(NAMES),
		checkNumber: String(100 + n),
		time: new Date().toISOString(),
		mode: pick(ORDER_MODES),
		items
	};
}

interface Target {
	id: string;
	token: string;
	location: string;
	tcp: { host: string; port: number };
	/** Stations and expo (docs/screens.md): a station gets its share of the items. */
	role: 'station' | 'expo';
}

type RushItem = ReturnType<typeof rushOrder>['items'][number];

/**
 * Which screens get which items of an order sent over TCP, as a POS routes them: with an expo among the
 * targets, the expo gets the whole order and each station its share (item k to station k mod n;
 * a station with no share gets nothing); otherwise every target gets the whole order.
 */
export function routeItems<T extends { role: 'station' | 'expo' }>(
	group: readonly T[],
	items: readonly RushItem[]
): Array<{ screens: T[]; items: RushItem[] }> {
	const expos = group.filter((t) => t.role === 'expo');
	const stations = group.filter((t) => t.role === 'station');
	if (expos.length === 0 || stations.length === 0)
		return [{ screens: [...group], items: [...items] }];
	const shares = stations
		.map((station, i) => ({
			screens: [station],
			items: items.filter((_, k) => k % stations.length === i)
		}))
		.filter((share) => share.items.length > 0);
	return [{ screens: expos, items: [...items] }, ...shares];
}

export interface RushSummary {
	seed: number;
	orders: number;
	tcp: number;
	http: number;
	updates: number;
	cancels: number;
	/** Replies other than the order's id / a 2xx status. */
	refused: number;
	ids: string[];
}

/** Run a rush against the simulator at `options.url`; `signal` stops it. */
export async function rush(
	options: RushOptions,
	signal?: AbortSignal,
	log: (line: string) => void = () => {}
): Promise<RushSummary> {
	const headers: Record<string, string> = options.adminToken
		? { 'x-admin-token': options.adminToken }
		: {};
	const res = await fetch(`${options.url}/api/admin/integration`, { headers });
	if (!res.ok) throw new Error(`GET /api/admin/integration answered ${res.status}`);
	const integration = (await res.json()) as Integration;
	// Each screen's role (stations and expo), from the JSON view of the screens.
	const views = await fetch(`${options.url}/api/admin/screens`, { headers });
	const roles = new Map(
		views.ok
			? ((await views.json()) as Array<{ id: string; role?: string }>).map((v) => [v.id, v.role])
			: []
	);
	const targets: Target[] = integration.brands
		.flatMap((b) =>
			b.locations.flatMap((l) =>
				l.screens.map((s) => ({
					id: s.id,
					token: b.token,
					location: l.id,
					tcp: s.tcp,
					role: roles.get(s.id) === 'expo' ? ('expo' as const) : ('station' as const)
				}))
			)
		)
		.filter((t) => !options.screens || options.screens.includes(t.id));
	const unknown = (options.screens ?? []).filter((id) => !targets.some((t) => t.id === id));
	if (unknown.length > 0) throw new Error(`no screen ${unknown.join(', ')} in ${options.url}`);
	if (targets.length === 0) throw new Error(`${options.url} has no screens`);
	const byLocation = new Map<string, Target[]>();
	for (const t of targets)
		byLocation.set(`${t.token}\u0000${t.location}`, [
			...(byLocation.get(`${t.token}\u0000${t.location}`) ?? []),
			t
		]);
	const groups = [...byLocation.values()];

	const random = seeded(options.seed);
	const runId = options.seed.toString(36);
	const summary: RushSummary = {
		seed: options.seed,
		orders: 0,
		tcp: 0,
		http: 0,
		updates: 0,
		cancels: 0,
		refused: 0,
		ids: []
	};
	const http = async (method: string, path: string, group: Target[], body: object) => {
		const r = await fetch(`${options.url}${path}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'x-integration-token': group[0].token,
				'x-location-id': group[0].location,
				'x-device-ids': group.map((t) => t.id).join(',')
			},
			body: JSON.stringify(body)
		});
		await r.arrayBuffer();
		if (r.status >= 300) summary.refused += 1;
	};
	const tcp = async (
		group: Target[],
		message: { command: string; order: { id: string; [key: string]: unknown } }
	) => {
		for (const t of group) {
			const reply = await sendTcp(t.tcp.host, t.tcp.port, message);
			if (reply !== message.order.id) summary.refused += 1;
		}
	};

	const gapMs = 60_000 / options.rate;
	const endAt = Date.now() + options.duration * 1000;
	const pending: Promise<void>[] = [];
	for (let n = 1; ; n++) {
		if (signal?.aborted) break;
		if (options.orders !== null ? n > options.orders : Date.now() >= endAt) break;
		const group = groups[Math.floor(random() * groups.length)];
		const order = rushOrder(random, n, runId);
		const overTcp = random() < options.tcp;
		const update = random() < options.updates;
		const cancel = random() < options.cancels;
		summary.orders += 1;
		summary.ids.push(order.id);
		if (overTcp) summary.tcp += 1;
		else summary.http += 1;
		// Over HTTP an order is one per location, fanned out to the screens it names (a second
		// create of its id there is refused): the whole order to every target. Over TCP each screen
		// is written to on its own, so a station gets only its items.
		const routes = overTcp
			? routeItems(group, order.items)
			: [{ screens: group, items: order.items }];
		const run = async () => {
			// Each route: its screens, the order with its items (one HTTP request, or a TCP message each).
			const each = async (fn: (screens: Target[], items: RushItem[]) => Promise<void>) => {
				for (const route of routes) await fn(route.screens, route.items);
			};
			await each((screens, items) =>
				overTcp
					? tcp(screens, { command: 'create-order', order: { ...order, items } })
					: http(ORDER_ROUTES.create.method, ORDER_ROUTES.create.path, screens, { ...order, items })
			);
			if (update) {
				summary.updates += 1;
				const patch = {
					id: order.id,
					itemsToAdd: [{ lineId: 'R1', name: 'Side Salad', qty: 1, mods: ['No dressing'] }]
				};
				await each((screens) =>
					overTcp
						? tcp(screens, { command: 'partial-update-order', order: patch })
						: http(ORDER_ROUTES.partial.method, ORDER_ROUTES.partial.path, screens, patch)
				);
			}
			if (cancel) {
				summary.cancels += 1;
				await each((screens) =>
					overTcp
						? tcp(screens, { command: 'cancel-order', order: { id: order.id } })
						: http(ORDER_ROUTES.cancel.method, ORDER_ROUTES.cancel.path, screens, { id: order.id })
				);
			}
			log(
				`${order.id} ${order.name} (${order.items.length} items, ${overTcp ? 'TCP' : 'HTTP'}) → ${routes.map((r) => `${r.screens.map((t) => t.id).join('+')}:${r.items.length}`).join(', ')}`
			);
		};
		pending.push(
			run().catch((err: unknown) => {
				summary.refused += 1;
				log(`${order.id}: ${(err as Error).message}`);
			})
		);
		await new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, gapMs);
			signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
		});
	}
	await Promise.all(pending);
	return summary;
}

export function formatSummary(s: RushSummary): string {
	return `Sent ${s.orders} orders (${s.tcp} over TCP, ${s.http} over HTTP), ${s.updates} updates, ${s.cancels} cancels; ${s.refused} refused. Seed ${s.seed} (--seed ${s.seed} sends the same orders).\n`;
}
