/**
 * `kds-sim --help` as a user reads it: every command named, each command's own --help behind
 * it, and a word that is no command refused with their names.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.ts';

function kdsSim(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			['--import', 'tsx', 'agent/cli/cli.ts', ...args],
			{ cwd: ROOT, timeout: 30_000 },
			(err, stdout, stderr) =>
				resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
		);
	});
}

/** The command names of the help's "Commands" section, in its order. */
function commandsOf(help: string): string[] {
	const section = /^Commands[^\n]*:\n((?: {2}\S[^\n]*\n)+)/m.exec(help);
	return section
		? section[1]
				.split('\n')
				.filter(Boolean)
				.map((line) => line.trim().split(/\s+/)[0])
		: [];
}

describe('kds-sim --help', () => {
	it('lists every command: start, send, discover, fleet-config, rush, replay and certify', async () => {
		const help = await kdsSim(['--help']);
		expect(help.code).toBe(0);
		expect(help.stderr).toBe('');
		expect(help.stdout).toMatch(/^kds-sim: a kitchen screen simulator/);
		expect(help.stdout).toMatch(/^ {7}kds-sim <command> \[options\]$/m);
		expect(commandsOf(help.stdout)).toEqual([
			'start',
			'send',
			'discover',
			'fleet-config',
			'rush',
			'replay',
			'certify'
		]);
		expect(help.stdout).toMatch(
			/^ {2}send {2,}send one order message to a screen over TCP or HTTP/m
		);
		expect(help.stdout).toMatch(/^ {2}--ready-file <file> /m);
		expect(await kdsSim(['-h'])).toEqual(help);
	}, 60_000);

	it("answers each listed command's --help with that command's usage", async () => {
		const { stdout } = await kdsSim(['--help']);
		const commands = commandsOf(stdout);
		const answers = await Promise.all(commands.map((command) => kdsSim([command, '--help'])));
		commands.forEach((command, i) => {
			const own = answers[i];
			expect(own.code, command).toBe(0);
			expect(own.stderr, command).toBe('');
			if (command === 'start') expect(own.stdout).toBe(stdout);
			else {
				expect(own.stdout, command).toMatch(new RegExp(`^ *(Usage: )?kds-sim ${command} `, 'm'));
				expect(own.stdout, command).not.toContain('Commands (each has its own --help)');
			}
		});
	}, 60_000);

	it('refuses a word that is no command, naming the commands, with exit code 2', async () => {
		expect(await kdsSim(['sned', '--tcp', '127.0.0.1:9104'])).toEqual({
			code: 2,
			stdout: '',
			stderr:
				"Unknown command 'sned': the commands are start, send, discover, fleet-config, rush, replay, certify (kds-sim --help lists them and the options).\n"
		});
	}, 60_000);

	it("names only KDS_* settings of the simulator's own, none with the KDS_SIM_ prefix a client's settings use (docs/ci.md)", async () => {
		const { stdout } = await kdsSim(['--help']);
		const variables = [...stdout.matchAll(/\b(KDS_[A-Z_]+)/g)].map((m) => m[1]);
		expect(variables).toContain('KDS_TOKEN');
		expect(variables.filter((name) => name.startsWith('KDS_SIM_'))).toEqual([]);
		// and it lists every KDS_* name the agent's code mentions (error codes, KDS_ERR_*, aside):
		// what the help does not name, the simulator does not read.
		const mentioned = new Set<string>();
		for (const file of readdirSync(join(ROOT, 'agent'), { recursive: true, encoding: 'utf8' })) {
			if (!file.endsWith('.ts') || file.endsWith('.spec.ts')) continue;
			for (const [name] of readFileSync(join(ROOT, 'agent', file), 'utf8').matchAll(
				/\bKDS_[A-Z_]+\b/g
			))
				if (!name.startsWith('KDS_ERR_')) mentioned.add(name);
		}
		expect([...mentioned].filter((name) => !variables.includes(name))).toEqual([]);
	}, 60_000);
});
