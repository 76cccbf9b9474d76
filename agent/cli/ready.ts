/**
 * The machine-readable "ready" signal (--ready-file): one JSON object, written once every port
 * listens, so a harness in any language can start the simulator on port 0 and read where it
 * listens. `--ready-file -` prints it as one line on stdout, after the banner; a path gets the
 * object written to a temporary file beside it and renamed into place, so a reader never sees
 * half of it. docs/embedding.md shows the shape.
 */
import { renameSync, writeFileSync } from 'node:fs';
import type { RunningAgent as Agent } from '../app.ts';

export interface ReadyScreen {
	id: string;
	name: string;
	location: string;
	tcp: { host: string; port: number };
	url: string;
}

export interface Ready {
	ready: true;
	pid: number;
	http: { url: string };
	storage: string | null;
	brands: Array<{ name: string; token: string }>;
	screens: ReadyScreen[];
}

/** What the ready signal says about a started agent. */
export function readyOf(agent: Agent, storage: string | null): Ready {
	const screens: ReadyScreen[] = [];
	for (const brand of agent.config.brands) {
		for (const location of brand.locations) {
			for (const screen of location.screens) {
				if (screen.deleted) continue;
				const { host, port } = agent.engine.tcpEndpoint(screen.id);
				screens.push({
					id: screen.id,
					name: screen.name,
					location: location.id,
					tcp: { host, port },
					url: `${agent.httpUrl}/screens/${screen.id}`
				});
			}
		}
	}
	return {
		ready: true,
		pid: process.pid,
		http: { url: agent.httpUrl },
		storage,
		brands: agent.config.brands.map((b) => ({ name: b.name, token: b.token })),
		screens
	};
}

/** Write the signal to `target`: a file path, or `-` for one line on stdout. */
export function signalReady(target: string, ready: Ready): void {
	const line = `${JSON.stringify(ready)}\n`;
	if (target === '-') {
		process.stdout.write(line);
		return;
	}
	const temporary = `${target}.${process.pid}.tmp`;
	try {
		writeFileSync(temporary, line);
		renameSync(temporary, target);
	} catch (err) {
		throw new Error(
			`Cannot write the ready file ${target}: ${(err as Error).message}. Give --ready-file a path in a folder this user can write, or - for stdout.`,
			{ cause: err }
		);
	}
}
