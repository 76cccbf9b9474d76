/**
 * The live faults (docs/faults.md): added, listed, removed and reset through the admin API, the
 * config's profiles and the test fixture; read by the TCP listeners and HTTP's hooks. The rule of
 * when one fires is the core's (#core/fault-firing); this keeps them, says which applies to a message,
 * and remembers every message a fault touched, for the inspector's judgement of what the client
 * did next (#core/fault-findings).
 *
 * Free when off: with no fault on a screen, its listener reads one boolean (`ScreenFaults.on`);
 * with no HTTP fault, the hooks read one null (`Faults.http`).
 */
import {
	FAULT_KIND_TABLE,
	parseFaultSpec,
	type FaultSpecInput,
	type FaultKind,
	type FaultRoute,
	type FaultSpec,
	type TcpFaultKind
} from '#core/fault-kinds';
import { LiveFault } from '#core/fault-firing';
import { BUILT_IN_PROFILES, resolveProfile } from '#core/fault-profiles';
import { expectedRetry, type FaultTouch } from '#core/fault-findings';
import type { MessageEntry } from '#core/message-entry';
import { systemClock, type Clock, type Timer } from '../clock.ts';
import type { FieldError } from '#core/parse';
import type { OrderCommand } from '#core/order-schema';

/** What a screen's TCP listener reads of the faults on it. */
export interface ScreenFaults {
	/** Any fault on this screen's TCP port: the one check of the listener's paths. */
	on: boolean;
	/** The faults on it, in the order they were added. */
	list: LiveFault[];
	/** A reboot fault while the screen is away: every connection is reset, and counted. */
	away?: LiveFault;
}

/** Told when a fault that acts at once (reboot, cloud-offline) is added or ends. */
export interface FaultActions {
	reboot?(screenId: string, seconds: number): void;
	offline?(screenId: string, offline: boolean, fault: LiveFault): void;
}

export interface FaultsOptions {
	/** The agent's clock: what a fault's time is read on, and its timers run on. */
	clock?: Clock;
	/** Its time (default: the clock's). */
	now?: () => number;
	/** Whether a screen id names a live screen (TCP kinds: one this simulator listens for). */
	isScreen: (id: string) => boolean;
	/** Whether a location id is configured. */
	isLocation: (id: string) => boolean;
	/** Seeds for faults given none (default: random). */
	seeds?: () => number;
	/** The config file's own profiles (`faults.profiles`), by name, as written. */
	profiles?: Record<string, FaultSpecInput[]>;
	/** The screens a profile that names none goes on (default: none). */
	screens?: () => string[];
}

/** What fires on one message: a fault, and a delay that fired with it (they compose). */
export interface Firing {
	fault: LiveFault;
	/** A delay (slow-reply, http-delay) that fired with `fault`; absent when `fault` acts alone. */
	delay?: LiveFault;
}

/** How many touched messages are kept for the findings (the log's own retention). */
export const TOUCHES_KEPT = 2000;

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
	private readonly timers = new Set<Timer>();
	private readonly clock: Clock;
	private readonly now: () => number;
	actions: FaultActions = {};

	constructor(private readonly options: FaultsOptions) {
		this.clock = options.clock ?? systemClock;
		this.now = options.now ?? (() => this.clock.now());
	}

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
		const now = this.now();
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
			// While away, the screen's port resets every connection and counts it (a storm is named).
			this.later(spec.seconds * 1000, () => this.remove(fault.id));
		} else if (spec.kind === 'cloud-offline') {
			fault.fired = 1;
			this.offline.set(spec.screen, fault);
			this.actions.offline?.(spec.screen, true, fault);
			if (spec.durationMs !== undefined) this.later(spec.durationMs, () => this.remove(fault.id));
		}
	}

	/** Run `run` in `ms` on the agent's clock (a fault's end, a delay); cancelled by reset. */
	later(ms: number, run: () => void): void {
		const timer = this.clock.at(this.now() + ms, () => {
			this.timers.delete(timer);
			run();
		});
		this.timers.add(timer);
	}

	/** Every fault, oldest first, as the admin API lists them. */
	list() {
		const now = this.now();
		return this.all.map((fault) => fault.toJSON(now));
	}

	get(id: string): LiveFault | undefined {
		return this.all.find((fault) => fault.id === id);
	}

	/**
	 * The faults a profile stands for, the config's own (as written, or put on `screen`) or a
	 * built-in one (on `screen`, or on every screen when none is named): the rule the config's
	 * `on` and `--faults` follow (resolveProfile), so the admin API adds the same set.
	 */
	profile(
		name: string,
		screen: string | undefined
	): { ok: true; specs: FaultSpecInput[] } | { ok: false; errors: FieldError[] } {
		const own = this.options.profiles ?? {};
		if (!Object.hasOwn(own, name) && !Object.hasOwn(BUILT_IN_PROFILES, name))
			return {
				ok: false,
				errors: [
					{
						path: 'profile',
						message: `expected one of ${[...Object.keys(own), ...Object.keys(BUILT_IN_PROFILES)].join(', ')}, got ${JSON.stringify(name)}`
					}
				]
			};
		const entry = screen === undefined ? name : `${name}@${screen}`;
		return { ok: true, specs: resolveProfile(entry, own, this.options.screens?.() ?? []) };
	}

	/**
	 * The faults on from the start: the profiles named (the config's `on`, `--faults`), on every
	 * local screen unless one is named, then `specs`. Throws a sentence naming every wrong field.
	 */
	addAtStart(profiles: readonly string[], specs: readonly FaultSpecInput[]): void {
		const own = this.options.profiles ?? {};
		const screens = this.options.screens?.() ?? [];
		const initial = [...profiles.flatMap((name) => resolveProfile(name, own, screens)), ...specs];
		if (initial.length === 0) return;
		const added = this.add(initial);
		if (!added.ok)
			throw new Error(
				`Invalid faults: ${added.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')}`
			);
	}

	/** The profiles there are: the config's own, then the built-in ones. */
	profileNames(): string[] {
		return [...Object.keys(this.options.profiles ?? {}), ...Object.keys(BUILT_IN_PROFILES)];
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
		for (const timer of this.timers) timer.cancel();
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
		const now = this.now();
		for (const fault of this.all) {
			const screen = (fault.spec as { screen?: string }).screen ?? '*';
			if (!fault.active(now)) continue;
			(out[screen] ??= []).push(fault.spec.kind);
		}
		return out;
	}

	private refresh(): void {
		for (const faults of this.screens.values()) {
			faults.list = [];
			faults.away = undefined;
		}
		const http: LiveFault[] = [];
		for (const fault of this.all) {
			const { transport, stage } = FAULT_KIND_TABLE[fault.spec.kind];
			const screen = (fault.spec as { screen?: string }).screen;
			if (transport === 'tcp' && screen !== undefined) {
				if (stage !== 'screen') this.screen(screen).list.push(fault);
				else if (fault.spec.kind === 'reboot') this.screen(screen).away = fault;
			} else if (transport === 'http' && stage !== 'screen') http.push(fault);
		}
		for (const faults of this.screens.values())
			faults.on = faults.list.length > 0 || faults.away !== undefined;
		this.http = http.length > 0 ? http : null;
	}

	/** What fires on one TCP message or connection of the screen, of `kinds`. */
	tcpFault(faults: ScreenFaults, kinds: ReadonlySet<TcpFaultKind>): Firing | undefined {
		return this.firing(faults.list, (fault) => kinds.has(fault.spec.kind as TcpFaultKind));
	}

	/** What fires on one HTTP request, if anything. */
	httpFault(
		route: FaultRoute,
		location: string | undefined,
		screens: readonly string[]
	): Firing | undefined {
		const list = this.http;
		if (list === null) return undefined;
		return this.firing(list, (fault) => {
			const spec = fault.spec as { route?: string; location?: string; screen?: string };
			if (spec.route !== undefined && spec.route !== route) return false;
			if (spec.location !== undefined && spec.location !== location) return false;
			return spec.screen === undefined || screens.includes(spec.screen) || screens.includes('all');
		});
	}

	/**
	 * Faults compose (docs/faults.md): of the matching faults, oldest first, the first delay that
	 * fires and the first other fault that fires both act on the message: it waits, then the other
	 * acts ("2 s late, then 503"). Each draws only while its part is not yet taken.
	 */
	private firing(list: readonly LiveFault[], matches: (fault: LiveFault) => boolean) {
		const now = this.now();
		let fault: LiveFault | undefined;
		let delay: LiveFault | undefined;
		for (const candidate of list) {
			const isDelay = FAULT_KIND_TABLE[candidate.spec.kind].delay;
			if (isDelay ? delay !== undefined : fault !== undefined) continue;
			if (!matches(candidate) || !candidate.fires(now)) continue;
			if (isDelay) delay = candidate;
			else fault = candidate;
			if (fault !== undefined && delay !== undefined) break;
		}
		if (fault === undefined && delay === undefined) return undefined;
		return { fault: fault ?? delay!, delay: fault === undefined ? undefined : delay } as Firing;
	}

	/**
	 * A refused message that is the expected answer to a correct retry after a fault (the core's
	 * expectedRetry: its duplicate decision, and what the faults touched): marked `expected`, its
	 * KDS-ORDER-DUPLICATE shown as the info KDS-FAULT-RETRY-EXPECTED naming the fault.
	 */
	markExpected(entry: Omit<MessageEntry, 'id'>): void {
		if (this.touches.length === 0) return;
		const expected = expectedRetry(entry, this.touches);
		if (expected === null) return;
		entry.expected = expected.fault;
		entry.findings = entry.findings.map((f) =>
			f.code === 'KDS-ORDER-DUPLICATE' ? expected.finding : f
		);
	}

	/**
	 * Remember a message or connection a fault touched; with the delay that fired with it, that
	 * too (the report counts both kinds; the entry names both).
	 */
	touched(
		firing: Firing | LiveFault,
		touch: Omit<FaultTouch, 'id' | 'at' | 'faultId' | 'kind'>
	): FaultTouch {
		const { fault, delay } =
			firing instanceof LiveFault ? { fault: firing, delay: undefined } : firing;
		if (delay !== undefined) this.remember(delay, touch);
		return this.remember(fault, {
			...touch,
			...(delay === undefined ? {} : { delayedBy: `${delay.spec.kind} (${delay.id})` })
		});
	}

	private remember(
		fault: LiveFault,
		touch: Omit<FaultTouch, 'id' | 'at' | 'faultId' | 'kind'>
	): FaultTouch {
		const entry: FaultTouch = {
			id: this.touchId++,
			at: this.now(),
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
		for (const timer of this.timers) timer.cancel();
		this.timers.clear();
	}
}
