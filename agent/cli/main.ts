/**
 * The simulator's command line: `kds-sim` (in a clone also `npm start`, or `npx tsx
 * agent/cli/main.ts`). See --help. It stops cleanly (ports closed, store closed) on SIGTERM,
 * SIGINT and SIGHUP, and when it was started by npm and npm goes away (npm forwards no signal).
 */
import { resolve } from 'node:path';
import { startAgent } from '../app.ts';
import { ConfigError, loadConfigFile } from '../config.ts';
import type { DiscoveryPlan } from '../discovery/discovery.ts';
import { createLogger } from '../log.ts';
import { stopWithNpm } from './npm-parent.ts';
import { readyOf, signalReady } from './ready.ts';
import { DEFAULT_DATA_DIR, HELP, readSettings, UsageError } from './settings.ts';
import { StoreError } from '../store/store.ts';

function discoveryLines(plan: DiscoveryPlan, intervalMs: number): string[] {
	const lines = [
		`  discovery        every ${intervalMs / 1000} s on UDP; a POS sends to each address on TCP 9104`
	];
	for (const a of plan.announce) {
		lines.push(
			`    ${a.screenId.padEnd(16)} announced as ${a.address} to ${a.target.host}:${a.target.port}`
		);
	}
	for (const line of plan.notAnnounced) lines.push(`    ${line}`);
	return lines;
}

async function main() {
	const settings = readSettings(process.argv.slice(2), process.env);
	if (settings.help) {
		process.stdout.write(HELP);
		return;
	}
	const config = settings.configPath ? loadConfigFile(settings.configPath) : undefined;
	// Lazy: pino loads once the screens' TCP ports answer (agent/log.ts).
	const logger = createLogger(settings.logLevel, { lazy: true });
	const agent = await startAgent({ ...settings, config, logger, settleMemory: true });
	const storage = settings.memory
		? null
		: resolve(settings.dataDir ?? DEFAULT_DATA_DIR, 'kds.sqlite');
	const lines = [
		`KDS simulator ready`,
		`  UI and HTTP API  ${agent.httpUrl}/`,
		`  storage          ${storage ?? 'in memory (nothing kept after exit)'}`
	];
	for (const brand of agent.config.brands) {
		lines.push(`  brand            ${brand.name}: x-integration-token ${brand.token}`);
		for (const location of brand.locations) {
			lines.push(
				`  location         ${location.id} ${location.name}${location.activeSubscription ? '' : ' (inactive)'}`
			);
			for (const screen of location.screens) {
				if (screen.deleted) continue;
				const tcp = agent.engine.tcpEndpoint(screen.id);
				lines.push(
					`    screen ${screen.id.padEnd(10)} ${screen.name.padEnd(12)} TCP ${tcp.host}:${tcp.port}  ${agent.httpUrl}/screens/${screen.id}${screen.remote ? `  (remote: in ${screen.remote.url})` : ''}`
				);
			}
		}
	}
	if (agent.discovery)
		lines.push(...discoveryLines(agent.discovery, settings.discovery!.intervalMs));
	if (agent.discovered) {
		const into = agent.discovered.listener.adoptingInto;
		lines.push(
			`  listening        for screens on UDP ${agent.discovered.port}: ${into ? `adopted as remote screens of ${into}` : `listed on the home page (--adopt-discovered adds them)`}`
		);
	}
	const faults = agent.faults.list();
	if (faults.length > 0)
		lines.push(
			`  FAULTS ON        ${faults.map((f) => `${f.kind}${'screen' in f ? ` on ${String(f.screen)}` : ''}`).join(', ')} (POST /api/admin/faults/reset turns them off)`
		);
	process.stdout.write(`${lines.join('\n')}\n`);
	if (settings.readyFile !== undefined) {
		try {
			signalReady(settings.readyFile, readyOf(agent, storage));
		} catch (err) {
			// A harness waits for the file: stop rather than run on unannounced.
			await agent.close();
			throw err;
		}
	}

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) process.exit(1);
		stopping = true;
		logger.info(`${signal}: shutting down`);
		const force = setTimeout(() => process.exit(1), 5000);
		force.unref();
		agent.close().then(() => process.exit(0));
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
	process.on('SIGHUP', () => stop('SIGHUP'));
	stopWithNpm(() => stop('npm exited'));
}

main().catch((err) => {
	const expected =
		err instanceof UsageError ||
		err instanceof ConfigError ||
		err instanceof StoreError ||
		/^Cannot (listen|write the ready file)/.test(err?.message);
	process.stderr.write(`${expected ? err.message : (err?.stack ?? String(err))}\n`);
	process.exit(2);
});
