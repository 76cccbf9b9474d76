/**
 * A fleet in Chromium (docs/fleet.md): a central simulator (127.0.0.1) with a local screen and a
 * remote screen that a "Pi" simulator (127.0.0.2, its own UI) hosts. An HTTP create to `all` on
 * the central shows on the local screen, on the Pi's own page, and on the central's page of the
 * remote screen; a bump on the Pi's page takes the card off the central's page too; when the Pi
 * goes away the central's page of it says it is not connected.
 */
import type { RunningAgent } from '../../agent/app.ts';
import { startAgent } from '../../agent/app.ts';
import {
	freeUdpPort,
	piEndpoint,
	startAnnouncingPi,
	startCentral,
	startPi,
	until
} from '../helpers/fleet.ts';
import {
	card,
	expect,
	expectConnection,
	liveItem,
	test,
	withShortcuts
} from '../helpers/fixtures.ts';
import { item, order as tcpOrder } from './orders.ts';

const order = (...args: Parameters<typeof tcpOrder>) => ({
	...tcpOrder(...args),
	time: new Date().toISOString()
});

let pi: RunningAgent | undefined;
let central: RunningAgent | undefined;
test.afterEach(async () => {
	await central?.close();
	await pi?.close();
	central = pi = undefined;
});

test('a create to all shows on the local screen, on the Pi and on the central view of the Pi', async ({
	page,
	context
}) => {
	pi = await startPi('127.0.0.2');
	central = await startCentral([{ ...piEndpoint(pi), id: 'pi-2', name: 'Fryer' }]);
	const sim = withShortcuts(central);
	await until(() => central!.remotes.get('pi-2')?.state === 'live');

	const grill = page;
	await grill.goto(sim.screenUrl('kds-1'));
	await expectConnection(grill, 'Connected');
	const remoteView = await context.newPage();
	await remoteView.goto(sim.screenUrl('pi-2'));
	await expectConnection(remoteView, 'Connected');
	const onPi = await context.newPage();
	await onPi.goto(withShortcuts(pi).screenUrl('kds-1'));
	await expectConnection(onPi, 'Connected');

	await test.step('HTTP create to all: SUCCESS for both, the card on all three pages', async () => {
		const res = await sim.sendHttp('create', order('R-1', 'Robin', [item('1', 'Fish Tacos')]));
		expect(res).toEqual({
			status: 201,
			body: {
				orderId: 'R-1',
				deliveryStatuses: [
					{ device: 'kds-1', status: 'SUCCESS', type: 'android' },
					{ device: 'pi-2', status: 'SUCCESS', type: 'android' }
				]
			}
		});
		for (const p of [grill, remoteView, onPi]) {
			await expect(liveItem(card(p, 'Robin'), 'Fish Tacos')).toHaveAccessibleName('1 × Fish Tacos');
		}
	});

	await test.step('bumped on the Pi: gone from the central view of it, still on the local screen', async () => {
		await card(onPi, 'Robin').getByRole('button', { name: 'Bump Robin' }).click();
		await expect(card(onPi, 'Robin')).toHaveCount(0);
		await expect(card(remoteView, 'Robin')).toHaveCount(0);
		await expect(card(grill, 'Robin')).toBeVisible();
		const active = await sim.sendHttp('active');
		expect((active.body as Array<{ orderCount: number }>).map((d) => d.orderCount)).toEqual([1, 0]);
	});

	await test.step('bumped from the central view: done by the Pi, gone on its own page', async () => {
		await sim.sendHttp('create', order('R-2', 'Sky', [item('1', 'Churros')]), { devices: 'pi-2' });
		await expect(card(onPi, 'Sky')).toBeVisible();
		await expect(card(remoteView, 'Sky')).toBeVisible();
		await card(remoteView, 'Sky').getByRole('button', { name: 'Bump Sky' }).click();
		await expect(card(onPi, 'Sky')).toHaveCount(0);
		await expect(card(remoteView, 'Sky')).toHaveCount(0);
	});

	await test.step('the Pi goes away: the central view of it is not connected', async () => {
		await pi!.close();
		pi = undefined;
		await expect(
			remoteView.getByRole('status', { name: /Connection: (Reconnecting|Offline)/ })
		).toBeVisible({
			timeout: 10_000
		});
		await expectConnection(grill, 'Connected');
	});
});

test('the home page marks remote screens, live or unreachable', async ({ page }) => {
	pi = await startPi('127.0.0.2');
	central = await startCentral([{ ...piEndpoint(pi), id: 'pi-2', name: 'Fryer' }]);
	await until(() => central!.remotes.get('pi-2')?.state === 'live');
	await page.goto(`${central.httpUrl}/`);
	const fryer = page.getByRole('listitem', { name: /^Fryer: 0 orders/ });
	await expect(fryer.getByTestId('remote')).toHaveText(`remote, in ${pi.httpUrl} · live`);
	await expect(page.getByRole('listitem', { name: /^Grill/ }).getByTestId('remote')).toHaveCount(0);
	await pi.close();
	pi = undefined;
	await expect(fryer.getByTestId('remote')).toHaveText(/· unreachable$/, { timeout: 10_000 });
});

test('the home page lists a screen heard on the network, with the entry that adds it', async ({
	page
}) => {
	const udpPort = await freeUdpPort();
	pi = await startAnnouncingPi(udpPort);
	central = await startAgent({
		memory: true,
		httpPort: 0,
		tcpPort: 0,
		logLevel: 'silent',
		discoveryListen: { bind: '127.0.0.1', port: udpPort, httpPort: 8104 }
	});
	const host = pi.screens[0].tcp.host;
	await page.goto(`${central.httpUrl}/`);
	const heard = page.getByRole('listitem', { name: `Fryer heard at ${host}` });
	await expect(heard).toContainText(`kds-1 · ${host} · 2.21.30`);
	await expect(heard).toContainText("Add: this entry in a location's screens");
	const entry = JSON.parse((await heard.locator('pre').textContent()) ?? '');
	expect(entry).toEqual({
		id: 'kds-1',
		name: 'Fryer',
		version: '2.21.30',
		tcp: { host, port: 9104 },
		remote: { url: `http://${host}:8104`, screen: 'kds-1' }
	});
});
