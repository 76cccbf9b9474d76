/**
 * The screens' TCP ports, one listener per local screen (a remote screen listens in its own
 * simulator): opened warm (the order path's schema compiled first, so a POS's first order is not
 * the one that waits for it), each message to the TCP handler or, while a fault is on the
 * screen, through its fault effects (./fault-effects.ts); bytes refused before parsing to the
 * inspector; a screen removed at run time closes its port (a POS connected there sees the
 * connection end, as when a real screen is taken away). What app.ts composes: it opens them all
 * once everything a reply needs is built, and reads them for /health and the UDP announcements.
 */
import { checkConformance } from '#core/conformance';
import { decodeTcpMessage } from '#core/tcp-message';
import type { ByteBudget } from '../byte-budget.ts';
import type { Engine } from '../engine/engine.ts';
import type { Faults } from '../faults/registry.ts';
import type { MessageRecorder } from '../inspector/recorder.ts';
import type { Logger } from '../log.ts';
import { screenTcpFaults } from './fault-effects.ts';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_BYTES } from './framer.ts';
import { recordRefusedFrame, type TcpMessageHandler } from './messages.ts';
import { listenTcpScreen, type TcpScreenServer } from './server.ts';

export type ScreenServer = TcpScreenServer & { screenId: string };

export interface ScreenListenersOptions {
	engine: Engine;
	logger: Logger;
	/** One budget for the unfinished messages of every listener and the HTTP port. */
	budget: ByteBudget;
	messageTimeoutMs: number;
	handleTcp: TcpMessageHandler;
	recorder: MessageRecorder;
	faults: Faults;
}

/**
 * Parse and judge one TCP create-order, the message a POS sends first, so that zod compiles its
 * schema (on a schema's first parse) before the port accepts, not while a POS waits for its
 * reply. Only that one: compiling every schema up front would cost start-up time that most
 * sessions never need. Pure: nothing reaches a screen.
 */
export function warmOrderPath(): void {
	const raw = {
		command: 'create-order',
		order: {
			id: 'warm-up',
			name: 'Warm-up',
			time: 0,
			mode: 'ToGo',
			items: [{ lineId: '1', name: 'Item', qty: 1, mods: [{ name: 'Mod' }] }]
		}
	};
	const { result } = decodeTcpMessage(JSON.stringify(raw));
	checkConformance({ interface: 'tcp', command: 'create-order', raw, schemaValid: result.ok });
}

export class ScreenListeners {
	/** The open listeners, by screen (a reboot fault takes one out and puts it back). */
	readonly servers: ScreenServer[] = [];

	constructor(private readonly options: ScreenListenersOptions) {
		options.engine.onScreenRemoved((screen) => {
			const id = screen.config.id;
			const index = this.servers.findIndex((s) => s.screenId === id);
			if (index < 0) return;
			const [server] = this.servers.splice(index, 1);
			server.close().catch((err: unknown) => options.logger.warn({ err, screen: id }, 'TCP close'));
		});
	}

	/** Open one screen's TCP listener (at start, and again after a reboot fault). */
	async open(id: string, host: string, port: number): Promise<ScreenServer> {
		const { logger, budget, messageTimeoutMs, handleTcp, recorder, faults } = this.options;
		const tcpFaults = screenTcpFaults(faults, id, handleTcp, recorder);
		const gate = tcpFaults.gate;
		const server = await listenTcpScreen({
			host,
			port,
			logger,
			budget,
			messageTimeoutMs,
			faults: gate,
			// One boolean read per message: the faulted path only while a fault is on this screen.
			handle: (text, source, reply, terminator) =>
				gate.on
					? tcpFaults.handle(text, source, reply, terminator)
					: handleTcp(id, text, source, reply, { terminator }),
			// Bytes refused before parsing reach the inspector too (only refusals come here).
			refused: (frame, source, reply) =>
				recordRefusedFrame(recorder, id, frame, source, reply, {
					maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES,
					maxDepth: DEFAULT_MAX_DEPTH
				})
		}).catch((err: NodeJS.ErrnoException) => {
			throw new Error(
				`Cannot listen for screen ${id} on TCP ${host}:${port}: ${err.code ?? err.message}`
			);
		});
		const named = Object.assign(server, { screenId: id });
		this.servers.push(named);
		return named;
	}

	/**
	 * A reboot fault: the screen's listener closes at once (its connections end) and opens again
	 * on the same endpoint, unless the agent is closing (`stillWanted`) or the screen was removed.
	 */
	reboot(id: string, stillWanted: () => boolean): void {
		const index = this.servers.findIndex((s) => s.screenId === id);
		if (index < 0) return;
		const [server] = this.servers.splice(index, 1);
		void server.close(0).then(() => {
			if (!stillWanted() || !this.options.engine.liveScreen(id)) return;
			this.open(id, server.host, server.port).catch((err: unknown) =>
				this.options.logger.error({ err, screen: id }, 'TCP listener not back after a reboot fault')
			);
		});
	}

	/**
	 * Warm the order path, then open every local screen's port, in config order; each one's
	 * bound endpoint is the engine's (port 0 becomes the port the OS gave).
	 */
	async openAll(): Promise<void> {
		const { engine } = this.options;
		warmOrderPath();
		for (const screen of engine.screens.values()) {
			// A remote screen listens in its own simulator.
			if (screen.config.deleted || screen.config.remote) continue;
			const server = await this.open(
				screen.config.id,
				screen.config.tcp.host,
				screen.config.tcp.port
			);
			engine.endpoints.set(screen.config.id, { host: server.host, port: server.port });
		}
	}

	/** Each live screen's listener as /health shows it. */
	health(): Array<{
		id: string;
		name: string;
		locationId: string;
		tcp: { host: string; port: number };
		listening: boolean;
	}> {
		return this.servers.flatMap((s) => {
			const screen = this.options.engine.liveScreen(s.screenId);
			if (!screen) return [];
			return [
				{
					id: s.screenId,
					name: screen.config.name,
					locationId: screen.location.id,
					tcp: { host: s.host, port: s.port },
					listening: s.server.listening
				}
			];
		});
	}

	/** The live screens whose listener is up, as it is bound (the UDP announcements). */
	bound(): Array<{ id: string; name: string; version: string; host: string; port: number }> {
		return this.servers.flatMap((s) => {
			const screen = this.options.engine.liveScreen(s.screenId);
			const address = s.server.address();
			if (!screen || !s.server.listening || typeof address !== 'object' || !address) return [];
			const { name, version } = screen.config;
			return [{ id: s.screenId, name, version, host: address.address, port: s.port }];
		});
	}

	/** Close every listener (each writes the replies it still owes first). */
	async close(): Promise<void> {
		await Promise.all(this.servers.map((s) => s.close()));
	}
}
