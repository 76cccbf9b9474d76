/**
 * Faults on cue as the browser sees them (docs/faults.md): which screens have a fault on (the
 * plain indicator, from GET /api/faults, open to every browser: no customer data), and the faults
 * themselves for the panel (the admin API). One instance per page; `follow()` polls while mounted.
 */
import type { FaultSpecInput } from '#core/fault-kinds';
import type { Fault } from '#core/fault-firing';
import type { ResilienceReport } from '#core/fault-findings';

export type { Fault, ResilienceReport };

/** How often the indicator asks (ms): a fault switched on elsewhere shows within this. */
const POLL_MS = 2000;

/** What the panel's one-tap switches add for a screen. */
export const QUICK_FAULTS: Array<{
	label: string;
	profile?: string;
	spec?: (screen: string) => FaultSpecInput;
	hint: string;
}> = [
	{
		label: 'Wi-Fi down',
		profile: 'wifi-down',
		hint: 'TCP connections reset, offline from the cloud'
	},
	{ label: 'Flaky Wi-Fi', profile: 'flaky-wifi', hint: 'some replies lost or slow, short outages' },
	{
		label: 'Lose next reply',
		spec: (screen) => ({ kind: 'lost-reply', screen, count: 1 }),
		hint: 'the next order is kept, its reply never sent'
	},
	{
		label: 'Reboot 10 s',
		spec: (screen) => ({ kind: 'reboot', screen, seconds: 10 }),
		hint: 'port closed, browsers let go, back with its orders'
	}
];

export class FaultsState {
	/** Screen id → kinds on it; '*' for HTTP faults of every screen. */
	on = $state<Record<string, string[]>>({});
	faults = $state<Fault[]>([]);
	/** The admin API refused this browser. */
	forbidden = $state(false);
	error = $state<string | null>(null);

	constructor(private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init)) {}

	/** The kinds on a screen (its own, and the HTTP faults of every screen). */
	kindsOn(screenId: string): string[] {
		return [...(this.on[screenId] ?? []), ...(this.on['*'] ?? [])];
	}

	/** The faults of one screen (and those of no screen in particular). */
	faultsOf(screenId: string): Fault[] {
		return this.faults.filter(
			(f) => !('screen' in f) || f.screen === undefined || f.screen === screenId
		);
	}

	async refreshOn(): Promise<void> {
		try {
			const res = await this.fetchImpl('/api/faults');
			if (res.ok) this.on = ((await res.json()) as { screens: Record<string, string[]> }).screens;
		} catch {
			// the agent is away: the connection banner says so
		}
	}

	async refresh(): Promise<void> {
		await this.refreshOn();
		try {
			const res = await this.fetchImpl('/api/admin/faults');
			this.forbidden = res.status === 403;
			if (res.ok) this.faults = ((await res.json()) as { faults: Fault[] }).faults;
		} catch {
			this.error = 'The agent is not reachable';
		}
	}

	/** Poll the indicator (and, with `all`, the list) while mounted; returns the stop. */
	follow(all = false): () => void {
		const tick = () => void (all ? this.refresh() : this.refreshOn());
		tick();
		const timer = setInterval(tick, POLL_MS);
		return () => clearInterval(timer);
	}

	private async send(method: string, url: string, body?: unknown): Promise<boolean> {
		this.error = null;
		try {
			const res = await this.fetchImpl(url, {
				method,
				...(body === undefined
					? {}
					: { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
			});
			if (res.status === 403) this.forbidden = true;
			if (!res.ok) {
				const answer = (await res.json().catch(() => ({}))) as { message?: string };
				this.error = answer.message ?? `The agent answered ${res.status}`;
			}
			await this.refresh();
			return res.ok;
		} catch {
			this.error = 'The agent is not reachable';
			return false;
		}
	}

	add(body: FaultSpecInput | { profile: string; screen: string }): Promise<boolean> {
		return this.send('POST', '/api/admin/faults', body);
	}

	remove(id: string): Promise<boolean> {
		return this.send('DELETE', `/api/admin/faults/${encodeURIComponent(id)}`);
	}

	async removeAll(screenId: string): Promise<void> {
		for (const fault of this.faultsOf(screenId)) await this.remove(fault.id);
	}

	/** The faults a profile added for a screen (their label is the profile's name). */
	profileOn(profile: string, screenId: string): Fault[] {
		return this.faultsOf(screenId).filter((f) => f.label === profile);
	}

	async report(): Promise<ResilienceReport | null> {
		try {
			const res = await this.fetchImpl('/api/admin/faults/report');
			if (res.status === 403) this.forbidden = true;
			return res.ok ? ((await res.json()) as ResilienceReport) : null;
		} catch {
			return null;
		}
	}
}
