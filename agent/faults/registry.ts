/**
 * The live faults (docs/faults.md): added, listed, removed and reset through the admin API, the
 * config's profiles and the test fixture; read by the TCP listeners and HTTP's hooks. The rule of
 * when one fires is the core's (#core/fault-kinds); this keeps them, says which applies to a message,
 * and remembers every message a fault touched, for the inspector's judgement of what the client
 * did next (#core/fault-findings).
 *
 * Free when off: with no fault on a screen, its listener reads one boolean (`ScreenFaults.on`);
 * with no HTTP fault, the hooks read one null (`Faults.http`).
 */
import {
	LiveFault,
	parseFaultSpec,
	TCP_FAULT_KINDS,
	type FaultKind,
	type FaultRoute,
	type FaultSpec,
	type TcpFaultKind
} from '#core/fault-kinds';
import type { FaultTouch } from '#core/fault-findings';
import type { FieldError } from '#core/parse';
import type { OrderCommand } from '#core/order-schema';

/** What a screen's TCP listener reads of the faults on it. */
export interface ScreenFaults {
	/** Any fault on this screen's TCP port: the one check of the listener's paths. */
	on: boolean;
	/** The faults on it, in the order they were added. */
	list: LiveFault[];
}

/** Told when a fault that acts at once (reboot, cloud-offline) is added or ends. */
export interface FaultActions {
	reboot?(screenId: string, seconds: number): void;
	offline?(screenId: string, offline: boolean, fault: LiveFault): void;
}

export interface FaultsOptions {
	now: () => number;
	/** Whether a screen id names a live screen (TCP kinds: one this simulator listens for). */
	isScreen: (id: string) => boolean;
	/** Whether a location id is configured. */
	isLocation: (id: string) => boolean;
	/** Seeds for faults given none (default: random). */
	seeds?: () => number;
}

/** How many touched messages are kept for the findings (the log's own retention). */
export const TOUCHES_KEPT = 2000;

const TCP_KINDS = new Set<string>(TCP_FAULT_KINDS);

export class Faults {
	/** Any HTTP fault at all, or null: the HTTP hooks' one check. */
	http: LiveFault[] | null = null;
	/** Screens offline from the cloud, with the fault that says so. */
	readonly offline = new Map<string, LiveFault>();
	/** API commands for screens offline in queue mode, in the order they came. */
	private readonly queued = new Map<string, OrderCommand[]>();
	private readonly screens = new Map<string, ScreenFaults>();
	private readonly all: LiveFault[] = [];
	private next = 1;
	private touchId = 1;
	private readonly touches: FaultTouch[] = [];
	private readonly timers = new Set<NodeJS.Timeout>();
	actions: FaultActions = {};

	constructor(private readonly options: FaultsOptions) {}

	/** The object a screen's listener reads (the same one for the screen's life). */
	screen(id: string): ScreenFaults {
		let faults = this.screens.get(id);
		if (faults === undefined) this.screens.set(id, (faults = { on: false, list: [] }));
		return faults;
	}

	/**
	 * Add faults, all or none: each is checked (its fields, then its screen, location and route
	 * against the configuration) and the errors of every one are given, paths prefixed with its
	 * index when there are several.
	 */
	add(inputs: unknown[]): { ok: true; added: LiveFault[] } | { ok: false; errors: FieldError[] } {
		const specs: FaultSpec[] = [];
		const errors: FieldError[] = [];
		inputs.forEach((input, index) => {
			const prefix = inputs.length === 1 ? [] : [index];
			const parsed = parseFaultSpec(input, prefix);
			if (!parsed.ok) errors.push(...parsed.errors);
			else specs.push(parsed.value);
			// The screen and the location are checked even when another field is wrong: every
			// error at once.
			const at = (key: string) => (prefix.length ? `[${index}].${key}` : key);
			const { screen, location } = (input ?? {}) as { screen?: unknown; location?: unknown };
			if (typeof screen === 'string' && !this.options.isScreen(screen))
				errors.push({ path: at('screen'), message: `no screen ${JSON.stringify(screen)} here` });
			if (typeof location === 'string' && !this.options.isLocation(location))
				errors.push({
					path: at('location'),
					message: `no location ${JSON.stringify(location)} in the configuration`
				});
		});
		if (errors.length > 0) return { ok: false, errors };
		const now = this.options.now();
		const added = specs.map((spec) => {
			const fault = new LiveFault(
				`f${this.next++}`,
				spec,
				now,
				this.options.seeds?.() ?? Math.floor(Math.random() * 2 ** 32)
			);
			this.all.push(fault);
			this.start(fault);
			return fault;
		});
		this.refresh();
		return { ok: true, added };
	}

	private start(fault: LiveFault): void {
		const spec = fault.spec;
		if (spec.kind === 'reboot') {
			fault.fired = 1;
			this.actions.reboot?.(spec.screen, spec.seconds);
			this.later(spec.seconds * 1000, () => this.remove(fault.id));
		} else if (spec.kind === 'cloud-offline') {
			fault.fired = 1;
			this.offline.set(spec.screen, fault);
			this.actions.offline?.(spec.screen, true, fault);
			if (spec.durationMs !== undefined) this.later(spec.durationMs, () => this.remove(fault.id));
		}
	}

	private later(ms: number, run: () => void): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			run();
		}, ms);
		timer.unref?.();
		this.timers.add(timer);
	}

	/** Every fault, oldest first, as the admin API lists them. */
	list() {
		const now = this.options.now();
		return this.all.map((fault) => fault.toJSON(now));
	}

	get(id: string): LiveFault | undefined {
		return this.all.find((fault) => fault.id === id);
	}

	/** Remove one fault; false when there is none of that id. */
	remove(id: string): boolean {
		const index = this.all.findIndex((fault) => fault.id === id);
		if (index < 0) return false;
		const [fault] = this.all.splice(index, 1);
		this.ended(fault);
		this.refresh();
		return true;
	}

	/**
	 * Remove every fault. What they touched stays, so the report can be read after the faults are
	 * off; it goes with the message log (`forgetTouches`, POST /api/admin/reset).
	 */
	reset(): void {
		const all = this.all.splice(0);
		for (const fault of all) this.ended(fault);
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.refresh();
	}

	/** Forget what the faults touched (the message log was cleared: the report starts again). */
	forgetTouches(): void {
		this.touches.length = 0;
	}

	private ended(fault: LiveFault): void {
		const spec = fault.spec;
		if (spec.kind === 'cloud-offline' && this.offline.get(spec.screen) === fault) {
			this.offline.delete(spec.screen);
			this.actions.offline?.(spec.screen, false, fault);
		}
	}

	/** An API command for a screen offline in queue mode: applied when it is back online. */
	queueOffline(screenId: string, command: OrderCommand): void {
		const list = this.queued.get(screenId);
		if (list === undefined) this.queued.set(screenId, [command]);
		else list.push(command);
	}

	/** The commands that waited for a screen, oldest first; forgotten here. */
	takeQueued(screenId: string): OrderCommand[] {
		const list = this.queued.get(screenId) ?? [];
		this.queued.delete(screenId);
		return list;
	}

	/** Whether any fault is on (the UI's plain indicator). */
	get any(): boolean {
		return this.all.length > 0;
	}

	/** The screens with a fault of theirs on, and the kinds (the UI's indicator). */
	byScreen(): Record<string, string[]> {
		const out: Record<string, string[]> = {};
		const now = this.options.now();
		for (const fault of this.all) {
			const screen = (fault.spec as { screen?: string }).screen ?? '*';
			if (!fault.active(now)) continue;
			(out[screen] ??= []).push(fault.spec.kind);
		}
		return out;
	}

	private refresh(): void {
		for (const faults of this.screens.values()) faults.list = [];
		const http: LiveFault[] = [];
		for (const fault of this.all) {
			const kind = fault.spec.kind;
			if (TCP_KINDS.has(kind)) {
				if (kind !== 'reboot')
					this.screen((fault.spec as { screen: string }).screen).list.push(fault);
			} else if (kind !== 'cloud-offline') http.push(fault);
		}
		for (const faults of this.screens.values()) faults.on = faults.list.length > 0;
		this.http = http.length > 0 ? http : null;
	}

	/** The first TCP fault of `kinds` on the screen that fires now, if any. */
	tcpFault(faults: ScreenFaults, kinds: ReadonlySet<TcpFaultKind>): LiveFault | undefined {
		const now = this.options.now();
		for (const fault of faults.list) {
			if (kinds.has(fault.spec.kind as TcpFaultKind) && fault.fires(now)) return fault;
		}
		return undefined;
	}

	/** The first HTTP fault that matches a request and fires now, if any. */
	httpFault(route: FaultRoute, location: string | undefined, screens: readonly string[]) {
		const list = this.http;
		if (list === null) return undefined;
		const now = this.options.now();
		for (const fault of list) {
			const spec = fault.spec as { route?: string; location?: string; screen?: string };
			if (spec.route !== undefined && spec.route !== route) continue;
			if (spec.location !== undefined && spec.location !== location) continue;
			if (spec.screen !== undefined && !screens.includes(spec.screen) && !screens.includes('all'))
				continue;
			if (fault.fires(now)) return fault;
		}
		return undefined;
	}

	/** Remember a message or connection a fault touched. */
	touched(fault: LiveFault, touch: Omit<FaultTouch, 'id' | 'at' | 'faultId' | 'kind'>): FaultTouch {
		const entry: FaultTouch = {
			id: this.touchId++,
			at: this.options.now(),
			faultId: fault.id,
			kind: fault.spec.kind as FaultKind,
			...touch
		};
		this.touches.push(entry);
		if (this.touches.length > TOUCHES_KEPT)
			this.touches.splice(0, this.touches.length - TOUCHES_KEPT);
		return entry;
	}

	/** What the faults touched, oldest first. */
	touchedList(): readonly FaultTouch[] {
		return this.touches;
	}

	close(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}
}
