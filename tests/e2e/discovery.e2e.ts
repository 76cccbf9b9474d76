import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/process.ts';
import { startDiscoverable } from '../helpers/discovery.ts';
import { card, expect, expectConnection, test, withShortcuts } from '../helpers/fixtures.ts';

/**
 * The whole chain over loopback: the simulator announces its screens to a loopback target; a
 * POS written the way client libraries in the field are (Python stdlib: bind UDP, parse the
 * 102 bytes) hears every screen, sends a create-order to the address it heard on TCP 9104, and
 * the order shows on that screen in Chromium.
 */
test('a POS discovers every screen, sends to the address it heard, and the order shows', async ({
	page
}) => {
	const pos = spawn(
		'python3',
		[join(ROOT, 'tests/fixtures/pos_discover.py'), '2', '127.0.0.1', '0'],
		{
			stdio: ['ignore', 'pipe', 'pipe']
		}
	);
	let out = '';
	let err = '';
	pos.stderr.on('data', (d) => (err += d));
	const port = await new Promise<number>((resolve, reject) => {
		pos.stdout.on('data', (d) => {
			out += d;
			const m = /^listening (\d+)\n/.exec(out);
			if (m) resolve(Number(m[1]));
		});
		pos.on('exit', (code) => reject(new Error(`POS exited with ${code}: ${err}`)));
	});
	const agent = withShortcuts(
		await startDiscoverable(['Grill', 'Expo'], {
			discovery: { targets: [{ host: '127.0.0.1', port }], intervalMs: 250 }
		})
	);
	try {
		// The announcements name each screen's own address, on 9104.
		expect(agent.discovery!.announce.map((a) => [a.screenId, a.address])).toEqual(
			agent.screens.map((s) => [s.id, s.tcp.host])
		);
		expect(agent.screens.every((s) => s.tcp.port === 9104)).toBe(true);
		const code = await new Promise<number | null>((resolve) => pos.on('exit', resolve));
		expect(err).toBe('');
		expect(code).toBe(0);
		const heard = out
			.trim()
			.split('\n')
			.slice(1)
			.map((line) => JSON.parse(line));
		expect(heard.map((s) => [s.name, s.address, s.version, s.identifier, s.reply]).sort()).toEqual(
			agent.screens.map((s) => [s.name, s.tcp.host, '2.21.30', s.id, `POS-${s.id}`]).sort()
		);
		for (const screen of agent.screens) {
			await page.goto(agent.screenUrl(screen.id, { kiosk: true }));
			await expectConnection(page, 'Connected');
			await expect(card(page, `Found ${screen.name}`)).toBeVisible();
			await expect(card(page, `Found ${screen.name}`)).toContainText('Cheeseburger');
			await expect(page.getByRole('article')).toHaveCount(1);
		}
	} finally {
		pos.kill();
		await agent.close();
	}
});
