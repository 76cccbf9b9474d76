/**
 * Screen communication (stations and expo, docs/screens.md): what a commit on one screen does on
 * the screens its location's rules join it to. A station's changes put its mark on the orders its
 * expo screens hold; an order created on an expo takes the marks of the stations that already hold
 * it. The rules are the core's (core/expo.ts); this finds the screens and hands the changes back
 * as batches of the same commit, so the expo's card and the station's bump are one unit.
 */
import {
	communicationProblems,
	expoCreatedChanges,
	stationChanges,
	type ScreenRole
} from '#core/expo';
import type { ScreenChange } from '#core/screen';
import { communicatingScreen } from '../config.ts';
import type { ScreenBatch } from '../store/store.ts';
import type { Screen } from './screens.ts';

/** A screen the rules may change here: live, and hosted by this simulator. */
function local(screen: Screen | undefined): screen is Screen {
	return screen !== undefined && !screen.config.deleted && screen.remote === undefined;
}

/** The stations of an expo's location whose rules send their bumps to it, in config order. */
export function stationsOf(screens: ReadonlyMap<string, Screen>, expo: Screen): Screen[] {
	const out: Screen[] = [];
	for (const config of expo.location.screens) {
		if (config.role !== 'station' || !config.communication?.bumpsTo.includes(expo.config.id))
			continue;
		const station = screens.get(config.id);
		if (local(station)) out.push(station);
	}
	return out;
}

/**
 * The batches a commit's batches cause on other screens, each applied (`apply`) as soon as it is
 * decided so that the next one reads it; `batches` itself when they cause none.
 */
export function communicate(
	screens: ReadonlyMap<string, Screen>,
	batches: readonly ScreenBatch[],
	at: number,
	apply: (screenId: string, changes: readonly ScreenChange[]) => void
): readonly ScreenBatch[] {
	let out: ScreenBatch[] | null = null;
	const add = (screenId: string, changes: ScreenChange[]) => {
		if (changes.length === 0) return;
		apply(screenId, changes);
		(out ??= [...batches]).push({ screenId, changes });
	};
	for (const batch of batches) {
		const screen = screens.get(batch.screenId);
		if (!local(screen)) continue;
		if (screen.config.role === 'station') {
			for (const target of screen.config.communication?.bumpsTo ?? []) {
				const expo = screens.get(target);
				if (!local(expo) || expo.location !== screen.location) continue;
				add(target, stationChanges(screen.config, batch.changes, expo.state, at));
			}
		} else if (batch.changes.some((c) => c.type === 'order.created')) {
			const stations = stationsOf(screens, screen).map((s) => ({
				id: s.config.id,
				name: s.config.name,
				state: s.state
			}));
			add(screen.config.id, expoCreatedChanges(batch.changes, stations, at));
		}
	}
	return out ?? batches;
}

/** Whether any screen has a communication rule: else a commit makes no lookups at all. */
export function anyRule(screens: ReadonlyMap<string, Screen>): boolean {
	for (const screen of screens.values())
		if ((screen.config.communication?.bumpsTo.length ?? 0) > 0) return true;
	return false;
}

/**
 * Why a screen may not take this role and rule at run time (the admin API), named as core/expo.ts
 * words it; or an expo made a station while stations still send to it. Null when it may.
 */
export function reconfigurationProblem(
	screen: Screen,
	role: ScreenRole,
	bumpsTo: readonly string[]
): { index: number | null; message: string } | null {
	const id = screen.config.id;
	const others = screen.location.screens.filter((s) => !s.deleted && s.id !== id);
	const proposed = [...others.map(communicatingScreen), { id, role, bumpsTo }];
	const problem = communicationProblems(proposed).find((p) => p.screen === id);
	if (problem) return problem;
	if (role === 'station' && screen.config.role === 'expo') {
		const senders = others.filter((s) => s.communication?.bumpsTo.includes(id));
		if (senders.length > 0) {
			const names = senders.map((s) => s.id).join(', ');
			return { index: null, message: `${names} send their bumps to it: change their rules first` };
		}
	}
	return null;
}
